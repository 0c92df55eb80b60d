package org.rocprofsys.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a tool of the assembled distribution as a user would, in a clean environment. */
final class DistTool {
    static final Path DIST =
            Path.of(System.getProperty("rocprofsys.dist", "target/dist")).toAbsolutePath();
    static final Path REPO = Path.of(System.getProperty("rocprofsys.repo", ".."))
            .toAbsolutePath()
            .normalize();

    record Result(int exitCode, String stdout, String stderr) {
        String all() {
            return stdout + stderr;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    private DistTool() {}

    static Result run(Path executable, Path cwd, Map<String, String> extraEnv, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        // the user's own ROCPROFSYS_* settings and config files must not leak into the tests
        pb.environment().keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
        pb.environment().put("HOME", cwd.toString());
        pb.environment().putAll(extraEnv);
        Path out = Files.createTempFile("rocprofsys-test", ".out");
        Path err = Files.createTempFile("rocprofsys-test", ".err");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + cmd);
            }
            return new Result(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Builds examples/ into {@code out} against the distribution's user library and headers. */
    static void buildExamples(Path out) throws IOException, InterruptedException {
        Process make = new ProcessBuilder(
                        "make",
                        "-s",
                        "-C",
                        REPO.resolve("examples").toString(),
                        "OUT=" + out,
                        "LIB=" + DIST.resolve("lib"),
                        "INC=" + DIST.resolve("include"))
                .inheritIO()
                .start();
        if (make.waitFor() != 0) {
            throw new AssertionError("building examples/ failed");
        }
    }

    /**
     * The upstream test environment: outputs under {@code outputPath/<name>/}, no pid suffix, no
     * time subfolder, CI checks on; {@code extra} adds NAME, VALUE pairs.
     */
    static Map<String, String> testEnvironment(Path outputPath, String name, String... extra) {
        Map<String, String> env = new java.util.HashMap<>();
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

    static Result tool(String name, Path cwd, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        return run(DIST.resolve("bin").resolve(name), cwd, env, args);
    }
}
