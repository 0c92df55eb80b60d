package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Issue 11, "real programs nobody here wrote": the output and command-line cases, end to end on
 * the distribution (the Perfetto buffer settings, exec chains in the profile, full and read-only
 * output file systems, short sampled programs, the agent's main wrapper, bad inputs).
 */
class OutputCasesIT extends DistributionTest {
    /** n regions of distinct names (r0, r1, ...), so the trace grows with every one. */
    private static final String REGIONS = """
            #include <rocprofiler-systems/user.h>
            #include <stdio.h>
            #include <stdlib.h>
            int main(int argc, char** argv) {
                int n = argc > 1 ? atoi(argv[1]) : 20000;
                char name[32];
                for (int i = 0; i < n; i++) {
                    snprintf(name, sizeof name, "r%d", i);
                    rocprofsys_user_push_region(name);
                    rocprofsys_user_pop_region(name);
                }
                return 0;
            }
            """;

    /** Pushes gen_N and execs itself with N-1, down to gen_0. */
    private static final String EXEC_CHAIN = """
            #include <rocprofiler-systems/user.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <unistd.h>
            int main(int argc, char** argv) {
                int n = argc > 1 ? atoi(argv[1]) : 5;
                char name[16];
                snprintf(name, sizeof name, "gen_%d", n);
                rocprofsys_user_push_region(name);
                if (n > 0) {
                    char next[16];
                    snprintf(next, sizeof next, "%d", n - 1);
                    execl(argv[0], argv[0], next, (char*) 0);
                    perror("execl");
                    return 1;
                }
                rocprofsys_user_pop_region(name);
                return 0;
            }
            """;

    /** Spins on the CPU for argv[1] seconds. */
    private static final String SPIN = """
            #include <stdlib.h>
            #include <time.h>
            static double now(void) {
                struct timespec t;
                clock_gettime(CLOCK_MONOTONIC, &t);
                return t.tv_sec + t.tv_nsec * 1e-9;
            }
            __attribute__((noinline)) static double spin(double seconds) {
                double end = now() + seconds, x = 0;
                while (now() < end) {
                    for (int i = 0; i < 1000; i++) x += i * 0.5;
                }
                return x;
            }
            int main(int argc, char** argv) {
                return spin(argc > 1 ? atof(argv[1]) : 1.0) < 0;
            }
            """;

    private ProcessResult run(String tool, Map<String, String> env, String... args) throws Exception {
        return tool(tool, cwd, env, args);
    }

    private Path out(String name, String file) {
        return outputRoot().resolve(name).resolve(file);
    }

    private static JsonNode metadata(Path file) throws IOException {
        return new ObjectMapper()
                .readTree(file.toFile())
                .get("rocprofiler-systems")
                .get("metadata");
    }

    private static long warnings(ProcessResult r, String text) {
        return r.stderr().lines().filter(l -> l.contains(text)).count();
    }

    // ---- the Perfetto buffer ---------------------------------------------------------------------

    @Test
    void traceBufferSizeWithDiscardStopsAtTheSizeAndSaysWhatWasDropped() throws Exception {
        Path prog = userApiProgram("regions", REGIONS, "-O0", "-g");
        var r = run(
                "rocprof-sys-run",
                environment("discard"),
                argv("-T --trace-buffer-size 64 --trace-fill-policy discard --", prog.toString(), "20000"));
        assertEquals(0, r.exitCode(), r::toString);
        Path trace = out("discard", "perfetto-trace.proto");
        assertTrue(Files.size(trace) <= 64 * 1024, "size " + Files.size(trace));
        DecodedTrace t = DecodedTrace.read(trace);
        List<String> names = t.slices.stream().map(s -> s.name).toList();
        assertTrue(names.contains("r0"), names.toString());
        assertFalse(names.contains("r19999"));
        assertEquals(1, warnings(r, "warning: the trace reached ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB=64"), r::toString);
        assertTrue(
                r.stderr()
                        .contains("(ROCPROFSYS_PERFETTO_FILL_POLICY=discard): the packets after the buffer filled"
                                + " were dropped"),
                r::toString);
        assertEquals(
                0, warnings(r, "ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB=64 (command line) is not supported"), r::toString);
        assertEquals(0, warnings(r, "ROCPROFSYS_PERFETTO_FILL_POLICY=discard (command line) is not"), r::toString);
        JsonNode buffer = metadata(out("discard", "metadata.json")).get("perfetto_buffer");
        assertEquals(64, buffer.get("buffer_size_kb").asLong());
        assertEquals("discard", buffer.get("fill_policy").asText());
        assertTrue(buffer.get("dropped_packets").asLong() > 1000, buffer.toString());
    }

    @Test
    void ringBufferKeepsTheNewestEventsInAReadableTrace() throws Exception {
        Path prog = userApiProgram("regions", REGIONS, "-O0", "-g");
        var r = run(
                "rocprof-sys-run",
                environment(
                        "ring",
                        "ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB",
                        "64",
                        "ROCPROFSYS_PERFETTO_FILL_POLICY",
                        "ring_buffer"),
                "-T",
                "--",
                prog.toString(),
                "20000");
        assertEquals(0, r.exitCode(), r::toString);
        Path trace = out("ring", "perfetto-trace.proto");
        assertTrue(Files.size(trace) <= 68 * 1024, "size " + Files.size(trace));
        DecodedTrace t = DecodedTrace.read(trace); // strict: names, clocks and every end's begin
        List<String> names = t.slices.stream().map(s -> s.name).toList();
        assertTrue(names.contains("r19999"), names.toString());
        assertFalse(names.contains("r0"));
        assertEquals(1, warnings(r, "the oldest packets were overwritten"), r::toString);
        JsonNode buffer = metadata(out("ring", "metadata.json")).get("perfetto_buffer");
        assertEquals("ring_buffer", buffer.get("fill_policy").asText());
        assertTrue(buffer.get("dropped_packets").asLong() > 1000, buffer.toString());
    }

    // ---- exec ----------------------------------------------------------------------------------

    @Test
    void theProfileOfAnExecChainHoldsEveryImage() throws Exception {
        Path prog = userApiProgram("exec-chain", EXEC_CHAIN, "-O0", "-g");
        var r = run("rocprof-sys-run", environment("exec"), "-T", "-P", "--", prog.toString(), "5");
        assertEquals(0, r.exitCode(), r::toString);
        String text = Files.readString(out("exec", "wall_clock.txt"));
        String json = Files.readString(out("exec", "wall_clock.json"));
        DecodedTrace t = DecodedTrace.read(out("exec", "perfetto-trace.proto"));
        List<String> traced = t.slices.stream().map(s -> s.name).toList();
        for (int n = 5; n >= 0; n--) {
            String gen = "gen_" + n;
            assertTrue(text.contains("|_" + gen + " "), gen + "\n" + text);
            assertTrue(json.contains("\"" + "|0>>> |_" + gen + "\""), gen + "\n" + json);
            assertTrue(traced.contains(gen), gen + " " + traced);
        }
    }

    // ---- output file systems ---------------------------------------------------------------------

    /** Mounts a tmpfs of {@code options} at {@code dir}, or skips the test where mounting is not allowed. */
    private static void mount(Path dir, String options) throws Exception {
        Files.createDirectories(dir);
        ProcessResult m = Command.of("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString())
                .run();
        Assumptions.assumeTrue(m.exitCode() == 0, () -> "cannot mount a tmpfs here: " + m);
    }

    private static void unmount(Path dir) throws Exception {
        Command.of("umount", dir.toString()).run();
    }

    @Test
    void aFullFileSystemLeavesNoPartialFileAndTheErrorNamesTheFile() throws Exception {
        Path prog = userApiProgram("regions", REGIONS, "-O0", "-g");
        Path full = cwd.resolve("full");
        mount(full, "size=64k");
        try {
            var r = run("rocprof-sys-run", testEnvironment(full, "run"), "-T", "-P", "--", prog.toString(), "20000");
            assertEquals(0, r.exitCode(), "the program's own exit code, not the lost file's: " + r);
            Path trace = full.resolve("run").resolve("perfetto-trace.proto");
            assertTrue(r.stderr().contains("cannot write " + trace + ": No space left on device"), r::toString);
            List<Path> left;
            try (Stream<Path> walk = Files.walk(full)) {
                left = walk.filter(Files::isRegularFile).toList();
            }
            for (Path p : left) {
                assertFalse(p.getFileName().toString().endsWith(".tmp"), "a temporary file is left: " + left);
                assertFalse(p.equals(trace), "a partial trace is left: " + left);
                if (p.toString().endsWith(".json")) {
                    new ObjectMapper().readTree(p.toFile()); // complete, or not there
                }
            }
        } finally {
            unmount(full);
        }
    }

    @Test
    void anUnwritableOutputPathIsRefusedBeforeTheTargetRuns() throws Exception {
        Path marker = cwd.resolve("the-target-ran");
        String[] target = {"--", "/bin/sh", "-c", "touch " + marker};
        // an existing file in the output path
        Files.writeString(cwd.resolve("a-file"), "x");
        var r = run("rocprof-sys-run", testEnvironment(cwd.resolve("a-file/out"), "x"), target);
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(
                r.stderr()
                        .contains("cannot write the outputs to " + cwd.resolve("a-file/out/x") + ": "
                                + cwd.resolve("a-file") + " is not a directory"),
                r::toString);
        assertFalse(Files.exists(marker), "the target ran");
        // a read-only file system
        Path ro = cwd.resolve("ro");
        mount(ro, "ro,size=64k");
        try {
            var rr = run("rocprof-sys-run", testEnvironment(ro, "x"), target);
            assertNotEquals(0, rr.exitCode(), rr::toString);
            assertTrue(rr.stderr().contains(ro + " is on a read-only file system"), rr::toString);
            assertFalse(Files.exists(marker), "the target ran");
        } finally {
            unmount(ro);
        }
    }

    // ---- sampling ------------------------------------------------------------------------------

    @Test
    void aProgramShorterThanTheSamplingDelayGetsOneNotice() throws Exception {
        String notice = "the program ended before sampling began after 0.5 s; set ROCPROFSYS_SAMPLING_DELAY=0";
        // 0.1 s asleep against the 0.5 s delay (both wall clock, the setting's own clock): a busy
        // machine that starts sleep late still leaves it far inside the delay
        var r = run("rocprof-sys-sample", environment("short"), "--", "/bin/sleep", "0.1");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(1, warnings(r, notice), r::toString);
        var longer = run(
                "rocprof-sys-sample",
                environment("short-no-delay", "ROCPROFSYS_SAMPLING_DELAY", "0"),
                "--",
                "/bin/sleep",
                "0.3");
        assertEquals(0, longer.exitCode(), longer::toString);
        assertEquals(0, warnings(longer, "ended before sampling began"), longer::toString);
    }

    /**
     * Samples {@code prog} (0.8 s) as run {@code name} with {@code flags}, no delay, perf as {@code perf}
     * and the internal frames kept if {@code keepInternal}; returns its sampling_wall_clock.txt.
     */
    private String sampleSpin(Path prog, String name, String perf, boolean keepInternal, String... flags)
            throws Exception {
        List<String> env =
                new ArrayList<>(List.of("ROCPROFSYS_SAMPLING_DELAY", "0", "ROCPROFSYS_SAMPLING_USE_PERF", perf));
        if (keepInternal) {
            env.addAll(List.of("ROCPROFSYS_SAMPLING_KEEP_INTERNAL", "ON"));
        }
        List<String> args = new ArrayList<>(List.of(flags));
        args.addAll(List.of("--", prog.toString(), "0.8"));
        var r = run("rocprof-sys-sample", environment(name, env.toArray(String[]::new)), args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        return Files.readString(out(name, "sampling_wall_clock.txt"));
    }

    @Test
    void theAgentsMainWrapperIsHiddenUnlessInternalFramesAreKept() throws Exception {
        Path prog = userApiProgram("spin", SPIN, "-O0", "-g");
        for (String perf : List.of("ON", "OFF")) {
            String name = "wrapper-" + perf;
            String wall = sampleSpin(prog, name, perf, false, "-P", "-T");
            assertTrue(wall.contains("spin"), wall);
            assertFalse(wall.contains("rsys_main_wrapper"), wall);
            List<String> traced = DecodedTrace.read(out(name, "perfetto-trace.proto")).slices.stream()
                    .map(s -> s.name)
                    .toList();
            assertTrue(traced.contains("spin"), traced::toString);
            assertFalse(traced.contains("rsys_main_wrapper"), traced::toString);

            String kept = name + "-kept";
            String keptWall = sampleSpin(prog, kept, perf, true, "-P");
            assertTrue(keptWall.contains("rsys_main_wrapper"), keptWall);
        }
    }

    // ---- bad inputs ----------------------------------------------------------------------------

    @Test
    void instrumentingADirectorySaysItIsOne() throws Exception {
        var r = run("rocprof-sys-instrument", Map.of(), "--simulate", "--", "/tmp");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("'/tmp' is a directory"), r::toString);
        assertFalse(r.stderr().contains("does not exist"), r::toString);
    }

    @Test
    void aConfigFileOfRandomBytesIsNamedWithTheProblem() throws Exception {
        Path cfg = cwd.resolve("random.cfg");
        byte[] bytes = new byte[2048];
        new Random(3).nextBytes(bytes);
        bytes[0] = (byte) 0xc3; // never valid UTF-8 at the first byte pair
        bytes[1] = (byte) 0x28;
        Files.write(cfg, bytes);
        var r = run("rocprof-sys-run", Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString()), "--", "/bin/true");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains(cfg + ": it is not a text file (byte 0 is not valid UTF-8)"), r::toString);
        assertFalse(r.stderr().contains("Input length"), r::toString);
    }

    @Test
    void aFrequencyAboveThePerfLimitIsLoweredToItNamingTheLimit() throws Exception {
        var r = run("rocprof-sys-sample", environment("freq"), "-f", "1e9", "--", "/bin/true");
        assertEquals(0, r.exitCode(), r::toString);
        // lowered to the limit; or, where the limit was set below the kernel's own floor, perf is
        // not used and the same limit is the reason given
        long lowered = warnings(r, "warning: the sampling frequency of 1000000000 Hz is above the kernel's limit of ");
        long refused = warnings(r, "perf_event_open refused (kernel.perf_event_max_sample_rate=");
        assertEquals(1, lowered + refused, r::toString);
        assertTrue(r.stderr().contains("/proc/sys/kernel/perf_event_max_sample_rate"), r::toString);
        assertFalse(r.stderr().contains("paranoid"), r::toString);
    }

    @Test
    void everyLineOfAMultiLineMessageCarriesThePrefix() throws Exception {
        var r = run("rocprof-sys-run", environment("multi"), "--", "/bin/sh", "-c", "true\ntrue\nexit 3");
        assertEquals(3, r.exitCode(), r::toString);
        // the command's lines (the launcher's own "ROCPROFSYS: NAME=value" lines are upstream's)
        List<String> unprefixed = new ArrayList<>();
        r.stderr()
                .lines()
                .filter(l -> l.contains("true") || l.contains("exit 3"))
                .filter(l -> !l.startsWith("[rocprof-sys-run] "))
                .forEach(unprefixed::add);
        assertEquals(List.of(), unprefixed, r::toString);
        assertTrue(r.stderr().contains("[rocprof-sys-run] true\n[rocprof-sys-run] exit 3'"), r::toString);
    }
}
