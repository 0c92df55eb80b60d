package org.rocprofsys.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * The one compiler front of the tests: gcc/g++ (or $CC/$CXX) and nvcc. A test whose compiler is
 * not installed is skipped, not failed. An output built before by the same command line, newer
 * than its input files, is reused, so tests sharing a build folder compile each program once.
 *
 * @param language what it compiles
 * @param program  the compiler's command
 */
public record NativeCompiler(Language language, String program) {
    private static final Duration TIMEOUT = Duration.ofSeconds(600);

    /** The C compiler: $CC, else gcc. */
    public static NativeCompiler c() {
        return new NativeCompiler(Language.C, System.getenv().getOrDefault("CC", "gcc"));
    }

    /** The C++ compiler: $CXX, else g++. */
    public static NativeCompiler cxx() {
        return new NativeCompiler(Language.CXX, System.getenv().getOrDefault("CXX", "g++"));
    }

    /** nvcc of the CUDA toolkit; the test is skipped when there is none. */
    public static NativeCompiler cuda() {
        Optional<Path> nvcc = nvcc();
        Assumptions.assumeTrue(nvcc.isPresent(), "no nvcc under $CUDA_HOME or /usr/local/cuda");
        return new NativeCompiler(Language.CUDA, nvcc.get().toString());
    }

    /** The compiler for {@code language}. */
    public static NativeCompiler of(Language language) {
        return switch (language) {
            case C -> c();
            case CXX -> cxx();
            case CUDA -> cuda();
        };
    }

    /** nvcc under $CUDA_HOME or /usr/local/cuda, where the toolkit is installed. */
    public static Optional<Path> nvcc() {
        for (String dir : new String[] {System.getenv("CUDA_HOME"), "/usr/local/cuda"}) {
            if (dir != null && Files.isExecutable(Path.of(dir, "bin/nvcc"))) {
                return Optional.of(Path.of(dir, "bin/nvcc"));
            }
        }
        return Optional.empty();
    }

    /** Compiles {@code source} with the compiler of its language into {@code output}. */
    public static Path build(Path source, Path output, String... flags) throws IOException, InterruptedException {
        return of(Language.of(source)).compile(source, output, flags);
    }

    /** Compiles {@code source} into {@code output}: {@code <compiler> flags -o output source}. */
    public Path compile(Path source, Path output, String... flags) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(flags));
        args.addAll(List.of("-o", output.toString(), source.toString()));
        return compile(output, args);
    }

    /**
     * Runs the compiler with {@code args} (flags, sources, and the {@code -o output} wherever
     * they want it) in the folder of {@code output}, where relative sources are found.
     */
    public Path compile(Path output, List<String> args) throws IOException, InterruptedException {
        Path dir = output.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of(program));
        cmd.addAll(args);
        Path stamp = dir.resolve("." + output.getFileName() + ".cmd");
        String line = String.join("\0", cmd);
        if (upToDate(output, stamp, line, dir, args)) {
            return output;
        }
        Files.deleteIfExists(stamp);
        ProcessResult r;
        try {
            r = Command.of(cmd).in(dir).timeout(TIMEOUT).run();
        } catch (CannotStartException e) {
            return Assumptions.abort("no " + language + " compiler (" + program + ") to build " + output.getFileName()
                    + ": " + e.getMessage());
        }
        if (r.exitCode() != 0) {
            throw new IOException("compiling " + output.getFileName() + " failed: " + String.join(" ", cmd) + "\n"
                    + r.stderr() + r.stdout());
        }
        Files.writeString(stamp, line, StandardCharsets.UTF_8);
        return output;
    }

    private static boolean upToDate(Path output, Path stamp, String line, Path dir, List<String> args)
            throws IOException {
        if (!Files.isRegularFile(output)
                || !Files.isRegularFile(stamp)
                || !Files.readString(stamp, StandardCharsets.UTF_8).equals(line)) {
            return false;
        }
        var built = Files.getLastModifiedTime(output);
        for (String a : args) {
            Path input = a.startsWith("-") ? null : dir.resolve(a);
            if (input != null
                    && !input.equals(output.toAbsolutePath())
                    && Files.isRegularFile(input)
                    && Files.getLastModifiedTime(input).compareTo(built) > 0) {
                return false;
            }
        }
        return true;
    }
}
