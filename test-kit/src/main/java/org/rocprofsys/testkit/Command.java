package org.rocprofsys.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One program run of a test: the command line, where it runs, what its environment gains and
 * loses, its standard input and how long it may take. Immutable; {@link #run()} starts it.
 *
 * @param argv              the program and its arguments
 * @param directory         the working directory (null: the test's own)
 * @param environment       variables set on top of the inherited environment
 * @param droppedPrefixes   inherited variables with one of these prefixes are removed first
 * @param stdin             the standard input (null: an empty, closed one)
 * @param timeout           how long the run may take before it is killed and reported
 */
public record Command(
        List<String> argv,
        Path directory,
        Map<String, String> environment,
        List<String> droppedPrefixes,
        String stdin,
        Duration timeout) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    public Command {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("no program");
        }
        environment = Map.copyOf(environment);
        droppedPrefixes = List.copyOf(droppedPrefixes);
        Objects.requireNonNull(timeout, "timeout");
    }

    public static Command of(List<String> argv) {
        return new Command(argv, null, Map.of(), List.of(), null, DEFAULT_TIMEOUT);
    }

    public static Command of(String... argv) {
        return of(List.of(argv));
    }

    public Command in(Path dir) {
        return new Command(argv, dir, environment, droppedPrefixes, stdin, timeout);
    }

    /** This command with {@code env} added to what it sets (later values win). */
    public Command env(Map<String, String> env) {
        Map<String, String> all = new LinkedHashMap<>(environment);
        all.putAll(env);
        return new Command(argv, directory, all, droppedPrefixes, stdin, timeout);
    }

    public Command env(String name, String value) {
        return env(Map.of(name, value));
    }

    /** This command without the inherited variables whose names start with {@code prefix}. */
    public Command withoutInherited(String prefix) {
        List<String> dropped = new ArrayList<>(droppedPrefixes);
        dropped.add(prefix);
        return new Command(argv, directory, environment, dropped, stdin, timeout);
    }

    public Command stdin(String input) {
        return new Command(argv, directory, environment, droppedPrefixes, input, timeout);
    }

    public Command timeout(Duration t) {
        return new Command(argv, directory, environment, droppedPrefixes, stdin, t);
    }

    /**
     * Runs the command to its end. The outputs go through files, not pipes, so a child that
     * leaves a background process holding them open does not keep the test waiting.
     *
     * @throws CannotStartException when the program cannot be started
     * @throws IOException          when it runs past the timeout (it is killed)
     */
    public ProcessResult run() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv);
        if (directory != null) {
            pb.directory(directory.toFile());
        }
        pb.environment().keySet().removeIf(k -> droppedPrefixes.stream().anyMatch(k::startsWith));
        pb.environment().putAll(environment);
        Path out = Files.createTempFile("rocprofsys-test", ".out");
        Path err = Files.createTempFile("rocprofsys-test", ".err");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new CannotStartException(argv.getFirst(), e);
            }
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out after " + timeout + ": " + String.join(" ", argv));
            }
            return new ProcessResult(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Runs the command, requires exit code 0 and returns its standard output. */
    public String ok() throws IOException, InterruptedException {
        ProcessResult r = run();
        if (r.exitCode() != 0) {
            throw new IOException(String.join(" ", argv) + " exited " + r.exitCode() + ":\n" + r.stderr() + r.stdout());
        }
        return r.stdout();
    }
}
