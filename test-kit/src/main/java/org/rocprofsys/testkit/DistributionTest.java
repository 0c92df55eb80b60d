package org.rocprofsys.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of the end-to-end tests: the tools of the assembled distribution run as a user would,
 * in a clean environment, each test in its own working folder, on the example programs built once
 * per test JVM against the distribution's user library.
 */
public abstract class DistributionTest {
    /** The assembled distribution (bin/, lib/, include/), from the build's {@code rocprofsys.dist}. */
    protected static final Path DIST =
            Path.of(System.getProperty("rocprofsys.dist", "target/dist")).toAbsolutePath();

    /** The repository's root, from the build's {@code rocprofsys.repo}. */
    protected static final Path REPO = Path.of(System.getProperty("rocprofsys.repo", ".."))
            .toAbsolutePath()
            .normalize();

    private static final Path EXAMPLES = Path.of("target/e2e-examples").toAbsolutePath();
    private static boolean examplesBuilt;

    /** The test's working folder, also its HOME. */
    @TempDir
    protected Path cwd;

    /**
     * examples/ built against the distribution's user library and headers; the first call of the
     * JVM builds them afresh, the others reuse that build (the tests only read and copy them).
     */
    protected static synchronized Path examples() throws IOException, InterruptedException {
        if (!examplesBuilt) {
            if (Files.exists(EXAMPLES)) {
                try (Stream<Path> walk = Files.walk(EXAMPLES)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(EXAMPLES);
            Make.build(
                    REPO.resolve("examples"),
                    "OUT=" + EXAMPLES,
                    "LIB=" + DIST.resolve("lib"),
                    "INC=" + DIST.resolve("include"));
            examplesBuilt = true;
        }
        return EXAMPLES;
    }

    /** The path of the built example program {@code name} (see {@link #examples()}). */
    protected static String example(String name) throws IOException, InterruptedException {
        return examples().resolve(name).toString();
    }

    /**
     * Writes the C program {@code source} to {@code name}.c in the working folder and compiles it
     * into {@code name} against the distribution's user API (see {@link #userApiProgram(Path, Path,
     * String...)}).
     */
    protected Path userApiProgram(String name, String source, String... flags)
            throws IOException, InterruptedException {
        return userApiProgram(Files.writeString(cwd.resolve(name + ".c"), source), cwd.resolve(name), flags);
    }

    /** Writes the C program {@code source} to {@code name}.c in the working folder and compiles it into {@code name}. */
    protected Path cProgram(String name, String source, String... flags) throws IOException, InterruptedException {
        return NativeCompiler.c()
                .compile(Files.writeString(cwd.resolve(name + ".c"), source), cwd.resolve(name), flags);
    }

    /**
     * Compiles the C program {@code source} into {@code output}, linked against the distribution's
     * user library ({@code rocprofiler-systems/user.h}, found at run time through its rpath);
     * {@code flags} come after the source, before {@code -o}.
     */
    protected static Path userApiProgram(Path source, Path output, String... flags)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        args.add(source.toString());
        args.addAll(List.of(flags));
        args.addAll(List.of(
                "-o",
                output.toString(),
                "-I" + DIST.resolve("include"),
                "-L" + DIST.resolve("lib"),
                "-Wl,-rpath," + DIST.resolve("lib"),
                "-lrocprof-sys-user"));
        return NativeCompiler.c().compile(output, args);
    }

    /**
     * A copy of the distribution at {@code to}, as a user would install it elsewhere; the tools' AOT
     * caches (lib/aot, perhaps being made now by libexec/aot-cache.sh) are left out.
     */
    protected static Path copyOfTheInstall(Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(DIST)) {
            for (Path p : walk.toList()) {
                Path rel = DIST.relativize(p);
                if (rel.startsWith("lib/aot")) {
                    continue;
                }
                Path target = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }

    /**
     * Runs {@code executable} in {@code dir} as a user would: the user's own ROCPROFSYS_*
     * settings and config files (HOME is {@code dir}) do not leak in; {@code env} is added.
     */
    protected static ProcessResult launch(Path executable, Path dir, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable.toString());
        cmd.addAll(List.of(args));
        return Command.of(cmd)
                .in(dir)
                .withoutInherited("ROCPROFSYS_")
                .env("HOME", dir.toString())
                .env(env)
                .run();
    }

    /**
     * A command line: {@code options} split at white space (options and values without spaces of
     * their own), then {@code rest} as they are (paths, the command and its arguments).
     */
    protected static String[] argv(String options, String... rest) {
        List<String> l = new ArrayList<>(List.of(options.trim().split("\\s+")));
        l.addAll(List.of(rest));
        return l.toArray(String[]::new);
    }

    /** Runs the distribution's tool {@code name} (e.g. rocprof-sys-run) in {@code dir}. */
    protected static ProcessResult tool(String name, Path dir, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        return launch(DIST.resolve("bin").resolve(name), dir, env, args);
    }

    /** Runs the distribution's tool {@code name} in this test's working folder. */
    protected ProcessResult tool(String name, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        return tool(name, cwd, env, args);
    }

    /** Where this test's profiles go: {@code out/} of its working folder. */
    protected Path outputRoot() {
        return cwd.resolve("out");
    }

    /** {@link #testEnvironment} under {@link #outputRoot()}. */
    protected Map<String, String> environment(String name, String... extra) {
        return testEnvironment(outputRoot(), name, extra);
    }

    /**
     * The upstream test environment: outputs under {@code outputPath/<name>/}, no pid suffix, no
     * time subfolder, CI checks on; {@code extra} adds NAME, VALUE pairs.
     */
    protected static Map<String, String> testEnvironment(Path outputPath, String name, String... extra) {
        Map<String, String> env = new HashMap<>();
        env.put("ROCPROFSYS_OUTPUT_PATH", outputPath.toString());
        env.put("ROCPROFSYS_OUTPUT_PREFIX", name + "/");
        env.put("ROCPROFSYS_USE_PID", "OFF");
        env.put("ROCPROFSYS_TIME_OUTPUT", "OFF");
        env.put("ROCPROFSYS_CI", "ON");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return env;
    }
}
