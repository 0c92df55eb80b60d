package org.rocprofsys.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.rocprofsys.config.proc.ProcFs;

/** Where the built pieces are, and how to run a program under the profiler. */
record Env(Path root, Path dist, Path nativeDir, boolean quick) {

    static Env find(boolean quick) throws IOException {
        String prop = System.getProperty("rocprofsys.root");
        Path root = prop != null ? Path.of(prop) : findRoot(Path.of("").toAbsolutePath());
        root = root.toAbsolutePath().normalize();
        Env env = new Env(root, root.resolve("run/target/dist"), root.resolve("benchmarks/target/native"), quick);
        for (Path need : List.of(
                env.runLauncher(),
                env.agentLibrary(),
                env.nativeProgram("push_pop"),
                env.nativeProgram("region_stream"))) {
            if (!Files.exists(need)) {
                throw new IOException(need + " is missing: build first (benchmarks/run.sh does)");
            }
        }
        return env;
    }

    private static Path findRoot(Path from) throws IOException {
        for (Path p = from; p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("benchmarks/pom.xml")) && Files.exists(p.resolve("agent"))) {
                return p;
            }
        }
        throw new IOException("cannot find the repository root from " + from + "; set -Drocprofsys.root=");
    }

    Path runLauncher() {
        return dist.resolve("bin/rocprof-sys-run");
    }

    Path agentLibrary() {
        return dist.resolve("lib/librocprof-sys.so");
    }

    Path nativeProgram(String name) {
        return nativeDir.resolve(name);
    }

    /** {@code rocprof-sys-run -- <native program> <args>}: a benchmark program under the profiler. */
    List<String> underRun(String program, String... args) {
        List<String> command = new ArrayList<>(
                List.of(runLauncher().toString(), "--", nativeProgram(program).toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** Picks the full size or, with --quick, the small one. */
    long size(long full, long quickSize) {
        return quick ? quickSize : full;
    }

    /** A scratch directory for one benchmark's outputs; callers delete it. */
    Path scratch(String name) throws IOException {
        return Files.createTempDirectory("rocprofsys-bench-" + name + "-");
    }

    /**
     * The environment of a profiled run: settings from the caller only (no config file), outputs
     * in {@code out}, no time-stamped subfolder.
     */
    Map<String, String> profiledEnvironment(Path out, Map<String, String> settings) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
        env.put("ROCPROFSYS_SUPPRESS_CONFIG", "ON");
        env.put("ROCPROFSYS_OUTPUT_PATH", out.toString());
        env.put("ROCPROFSYS_TIME_OUTPUT", "OFF");
        env.putAll(settings);
        return env;
    }

    /**
     * Waits (up to a minute) while the launcher's background job makes a tool's AOT cache in
     * {@code lib/aot} (libexec/aot-cache.sh): a fresh install's first run records it, and figures
     * taken while it is being made would measure that job too.
     */
    void awaitAotCache() throws InterruptedException {
        Path aot = dist.resolve("lib/aot");
        for (int i = 0; i < 120 && hasLock(aot); i++) {
            Thread.sleep(500);
        }
    }

    private static boolean hasLock(Path dir) {
        try (var s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".lock"));
        } catch (IOException e) {
            return false;
        }
    }

    /** Output of a finished program. */
    record Outcome(int exitCode, String stdout, String stderr, double wallSeconds) {
        Outcome check(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(
                        what + " exited with " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
            }
            return this;
        }
    }

    /**
     * Runs {@code command} to its end with {@code env} in {@code cwd}; while it runs, {@code poll}
     * (if not null) gets its pid every {@code pollMillis}.
     */
    static Outcome run(List<String> command, Map<String, String> env, Path cwd, LongConsumer poll, long pollMillis)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("rocprofsys-bench-", ".out");
        Path err = Files.createTempFile("rocprofsys-bench-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command))
                    .directory(cwd.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            pb.environment().clear();
            pb.environment().putAll(env);
            long t0 = System.nanoTime();
            Process p = pb.start();
            while (!p.waitFor(poll == null ? 1000 : pollMillis, TimeUnit.MILLISECONDS)) {
                if (poll != null) {
                    poll.accept(p.pid());
                }
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            return new Outcome(p.exitValue(), Main.read(out), Main.read(err), wall);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The 1, 5 and 15 minute load averages (other work on a small machine skews every figure). */
    static String loadAverage() {
        try {
            String[] f = ProcFs.system().read("loadavg").orElseThrow().trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (RuntimeException e) {
            return "?";
        }
    }

    /** A line describing the machine, for the report. */
    String machine() {
        String cpu =
                ProcFs.system().cpuInfo().flatMap(c -> c.first("model name")).orElse("?");
        long memKb = ProcFs.system()
                .memInfo()
                .map(m -> m.number("MemTotal").orElse(-1))
                .orElse(-1L);
        String kernel = System.getProperty("os.version");
        return String.format(
                Locale.ROOT,
                "%d CPUs (%s), %.1f GiB RAM, Linux %s, Java %s (%s)",
                Runtime.getRuntime().availableProcessors(),
                cpu,
                memKb / 1048576.0,
                kernel,
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"));
    }
}
