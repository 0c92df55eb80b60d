package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 35, item 3: kill -9 of the collector never strands the program. The program records into
 * a small ring in lossless mode, where a thread waits for room as long as the collector lives: with
 * a dead collector it used to wait for ever (in drop mode, the stall time on every full ring: a 2 s
 * program took 40 s). Now its agent finds the collector's lock free, stops recording, removes its
 * ring file, and the program finishes its work; the next run of any tool removes what the dead
 * collector left (its session directory, the trace's temporary file, the runtime plan). With
 * ROCPROFSYS_EXIT_WITH_COLLECTOR the program ends with its collector instead. Every wait here is on
 * a condition (a file, a process's end), none on the clock.
 */
class CollectorDeathIT extends DistributionTest {
    /**
     * Records regions, says it runs (its pid in {@code started}), waits until the test killed the
     * collector ({@code killed} exists), then records 2 M more regions (far past its 16 KiB ring),
     * writes {@code done} and exits 7; with an argument "sleep" it sleeps instead, for ever.
     */
    private static final String PROGRAM = """
            #include <rocprofiler-systems/user.h>
            #include <stdio.h>
            #include <string.h>
            #include <unistd.h>
            __attribute__((noipa)) long work(long i) { return i * 3 + 1; }
            int main(int argc, char** argv) {
                volatile long sink = 0;
                for (int i = 0; i < 1000; i++) {
                    rocprofsys_user_push_region("before");
                    sink += work(i);
                    rocprofsys_user_pop_region("before");
                }
                FILE* f = fopen("started.tmp", "w");
                fprintf(f, "%d\\n", (int) getpid());
                fclose(f);
                rename("started.tmp", "started");
                while (access("killed", F_OK) != 0) {
                    usleep(1000);
                }
                if (argc > 1 && strcmp(argv[1], "sleep") == 0) {
                    for (;;) pause();
                }
                for (long i = 0; i < 2000000; i++) {
                    rocprofsys_user_push_region("after");
                    sink += work(i);
                    rocprofsys_user_pop_region("after");
                }
                fclose(fopen("done", "w"));
                return 7;
            }
            """;

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    /** run, sample and instrument: the program finishes its work, the next run removes the rest. */
    @ParameterizedTest
    @ValueSource(strings = {"rocprof-sys-run", "rocprof-sys-sample", "rocprof-sys-instrument"})
    void theProgramRunsOnAndTheNextRunRemovesWhatTheDeadCollectorLeft(String tool) throws Exception {
        Path prog = build();
        Path tmp = Files.createDirectories(cwd.resolve("tmp"));
        Map<String, String> env = environment(
                "death",
                "ROCPROFSYS_RING_BUFFER_LOSSLESS",
                "ON", // a dead collector's ring: waited on for ever before
                "ROCPROFSYS_RING_BUFFER_SIZE_KB",
                "16",
                "ROCPROFSYS_TMPDIR",
                tmp.toString(),
                "ROCPROFSYS_TRACE",
                "ON");
        List<String> args = new ArrayList<>();
        if (tool.equals("rocprof-sys-instrument")) {
            args.addAll(List.of("-i", "1")); // work() is instrumented: a runtime plan in ROCPROFSYS_TMPDIR
        }
        args.addAll(List.of("--", prog.toString()));
        Killed k = startAndKillCollector(tool, env, args);
        assertTrue(Files.exists(k.sessionDir().resolve("collector.lock")), "the dead collector's lock is left: " + k);

        awaitCondition(() -> ended(k.programPid()), "the program to end after its collector's death");
        assertTrue(Files.exists(cwd.resolve("done")), "the program finished its work");
        try (Stream<Path> s = Files.list(k.sessionDir())) {
            List<Path> rings = s.filter(p -> p.getFileName().toString().startsWith(k.programPid() + "."))
                    .toList();
            assertEquals(List.of(), rings, "the orphaned agent removes its ring file");
        }
        if (tool.equals("rocprof-sys-instrument")) {
            assertFalse(listFiles(tmp).isEmpty(), "the runtime plan is left by the dead collector");
        }

        // the next run of any tool removes what the dead collector left, once its lock is older
        // than a collector takes to lock it (2 s)
        Path lock = k.sessionDir().resolve("collector.lock");
        awaitCondition(
                () -> {
                    try {
                        return System.currentTimeMillis()
                                        - Files.getLastModifiedTime(lock).toMillis()
                                > 2500;
                    } catch (IOException e) {
                        return true;
                    }
                },
                "the dead collector's lock to be older than 2 s");
        ProcessResult next = tool("rocprof-sys-run", environment("next"), "--", "/bin/true");
        assertEquals(0, next.exitCode(), next::toString);
        assertFalse(Files.exists(k.sessionDir()), "the dead collector's session directory is removed");
        List<Path> temporaries = listFiles(outputRoot()).stream()
                .filter(p -> p.getFileName().toString().endsWith(".tmp"))
                .toList();
        assertEquals(List.of(), temporaries, "the dead collector's temporary files are removed");
        assertEquals(List.of(), listFiles(tmp), "the runtime plan is removed");
    }

    /** ROCPROFSYS_EXIT_WITH_COLLECTOR: a program that records nothing more still ends with it. */
    @Test
    void exitWithCollectorEndsAProgramThatSleeps() throws Exception {
        Path prog = build();
        Map<String, String> env = environment("exit-with", "ROCPROFSYS_EXIT_WITH_COLLECTOR", "ON");
        Killed k = startAndKillCollector("rocprof-sys-run", env, List.of("--", prog.toString(), "sleep"));
        awaitCondition(() -> ended(k.programPid()), "the sleeping program to end with its collector");
        assertFalse(Files.exists(cwd.resolve("done")));
    }

    /** The setting is shown, with its description, by rocprof-sys-avail. */
    @Test
    void theSettingIsListed() throws Exception {
        ProcessResult r = tool("rocprof-sys-avail", Map.of(), "-S", "--advanced", "-d", "-r", "EXIT_WITH_COLLECTOR");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("ROCPROFSYS_EXIT_WITH_COLLECTOR"), r::toString);
        assertTrue(r.stdout().contains("dies without ending the run"), r::toString);
    }

    /** The killed collector's session directory and the program's pid. */
    private record Killed(Path sessionDir, int programPid) {}

    private Killed startAndKillCollector(String tool, Map<String, String> env, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(DIST.resolve("bin").resolve(tool).toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        pb.environment().keySet().removeIf(key -> key.startsWith("ROCPROFSYS_"));
        pb.environment().put("HOME", cwd.toString());
        pb.environment().putAll(env);
        pb.redirectOutput(cwd.resolve("collector.out").toFile())
                .redirectError(cwd.resolve("collector.err").toFile());
        Process collector = pb.start(); // the launcher execs the JVM: this is the collector
        Path started = cwd.resolve("started");
        awaitCondition(() -> Files.exists(started) || !collector.isAlive(), "the program to start under " + tool);
        assertTrue(collector.isAlive(), () -> "the collector ended early: " + read("collector.err"));
        int pid = Integer.parseInt(Files.readString(started).trim());
        List<Path> dirs = sessionDirectories(collector.pid());
        assertEquals(1, dirs.size(), "the collector's session directory: " + dirs);
        collector.destroyForcibly(); // SIGKILL
        assertTrue(collector.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        Files.createFile(cwd.resolve("killed"));
        return new Killed(dirs.getFirst(), pid);
    }

    private static List<Path> sessionDirectories(long collectorPid) throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("rocprofsys-" + collectorPid + "-"))
                    .toList();
        }
    }

    /** Gone, or a zombie nobody reaps (the program's parent, the collector, is dead). */
    private static boolean ended(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return true;
        }
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    private static List<Path> listFiles(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    private String read(String name) {
        try {
            return Files.readString(cwd.resolve(name));
        } catch (IOException e) {
            return "";
        }
    }

    private Path build() throws Exception {
        return userApiProgram("orphan", PROGRAM, "-O1", "-g");
    }
}
