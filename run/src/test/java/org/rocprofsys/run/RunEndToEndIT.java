package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocprofsys.run.cli.UpstreamRunArgs;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * rocprof-sys-run on the example programs (examples/, built here with the system compiler),
 * asserting on the files written, as upstream's ctest suite does.
 */
class RunEndToEndIT extends DistributionTest {
    @Override
    protected Path outputRoot() {
        return cwd.resolve("rocprof-sys-tests-output");
    }

    private Map<String, String> env(String name, String... extra) {
        return environment(name, extra);
    }

    private Path output(String name, String file) {
        return outputRoot().resolve(name).resolve(file);
    }

    private ProcessResult run(Map<String, String> env, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("--"));
        args.addAll(List.of(command));
        return tool("rocprof-sys-run", cwd, env, args.toArray(String[]::new));
    }

    /** Slices of one thread track (by thread name) as "depth:name" in begin order. */
    private static List<String> slices(DecodedTrace trace, int pid, String threadName) {
        List<Long> uuids = trace.tracks.values().stream()
                .filter(t -> t.isThread()
                        && t.descriptor().getThread().getPid() == pid
                        && t.descriptor().getThread().getThreadName().equals(threadName))
                .map(DecodedTrace.Track::uuid)
                .toList();
        assertEquals(1, uuids.size(), "one track named " + threadName + " in pid " + pid);
        return trace.slices.stream()
                .filter(s -> s.trackUuid == uuids.getFirst() && !s.instant)
                .map(s -> s.depth + ":" + s.name)
                .toList();
    }

    private static List<String> threadNames(DecodedTrace trace, int pid) {
        return trace.tracks.values().stream()
                .filter(t -> t.isThread() && t.descriptor().getThread().getPid() == pid)
                .map(t -> t.descriptor().getThread().getThreadName())
                .sorted()
                .toList();
    }

    private static int rootPid(DecodedTrace trace) {
        return trace.tracks.values().stream()
                .filter(DecodedTrace.Track::isProcess)
                .mapToInt(t -> t.descriptor().getProcess().getPid())
                .min()
                .orElseThrow();
    }

    /** (thread, label, count, depth) of every entry of ranks[0].graph of a timemory JSON file, in order. */
    private static List<String> graph(Path json, String metric) throws IOException {
        List<String> out = new ArrayList<>();
        for (var e : ProfileGraph.graph(json, metric)) {
            String prefix = e.get("prefix").asText();
            out.add(prefix.substring(1, prefix.indexOf(">>> ")) + " " + ProfileGraph.label(e) + " c"
                    + ProfileGraph.laps(e) + " d"
                    + e.get("depth").asLong());
        }
        return out;
    }

    @Test
    void userApiRegionsOnEveryThread() throws Exception {
        var r = run(
                env(
                        "user-api",
                        "ROCPROFSYS_PROFILE",
                        "ON",
                        "ROCPROFSYS_TRACE",
                        "ON",
                        "ROCPROFSYS_TIMEMORY_COMPONENTS",
                        "wall_clock trip_count"),
                example("user-api"),
                "10",
                "4",
                "1000");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("Pushing custom region :: run(10) x 1000"), r::toString);
        assertTrue(r.stderr().contains("exited with code 0"), r::toString);
        Path proto = output("user-api", "perfetto-trace.proto");
        assertTrue(r.stderr().contains("Outputting '" + proto + "'"), r::toString);
        DecodedTrace trace = DecodedTrace.read(proto);
        int pid = rootPid(trace);
        assertEquals(List.of("Thread 1", "Thread 2", "Thread 3", "Thread 4", "user-api"), threadNames(trace, pid));
        String exe = example("user-api");
        assertEquals(
                List.of(
                        "0:user-api",
                        "1:" + exe,
                        "2:initialization",
                        "2:thread_creation",
                        "2:thread_wait",
                        // TRACE_THREAD_JOIN (on by default): the 4 joins inside thread_wait
                        "3:pthread_join",
                        "3:pthread_join",
                        "3:pthread_join",
                        "3:pthread_join",
                        "2:run(10) x 1000",
                        "2:summarize"),
                slices(trace, pid, "user-api"));
        for (int t = 1; t <= 4; t++) {
            assertEquals(List.of("0:run(10) x 1000"), slices(trace, pid, "Thread " + t));
        }
        assertTrue(trace.slices.stream().allMatch(s -> s.endNs >= s.beginNs), "every slice closed");
        assertTrue(
                trace.slices.stream().noneMatch(s -> s.args.containsKey("closed_by_profiler")),
                "nothing force-closed in a clean run");
        Path metadata = output("user-api", "metadata.json");
        assertTrue(Files.readString(metadata).contains("\"ROCPROFSYS_USE_PID\""));

        // the profile: the main thread's call graph exactly; each worker's region once, nested (as
        // upstream) under whichever main-thread region was open when the worker began
        for (String metric : List.of("wall_clock", "trip_count")) {
            List<String> entries = graph(output("user-api", metric + ".json"), metric);
            assertEquals(
                    List.of(
                            "0 user-api c1 d0",
                            "0 " + exe + " c1 d1",
                            "0 initialization c1 d2",
                            "0 thread_creation c1 d2",
                            "0 thread_wait c1 d2",
                            "0 pthread_join c4 d3",
                            "0 run(10) x 1000 c1 d2",
                            "0 summarize c1 d2"),
                    entries.stream().filter(e -> e.startsWith("0 ")).toList(),
                    entries::toString);
            for (int t = 1; t <= 4; t++) {
                String thread = t + " ";
                List<String> worker =
                        entries.stream().filter(e -> e.startsWith(thread)).toList();
                // under thread_creation (d3) or, begun while main joined, under pthread_join (d4)
                assertTrue(
                        worker.equals(List.of(thread + "run(10) x 1000 c1 d3"))
                                || worker.equals(List.of(thread + "run(10) x 1000 c1 d4")),
                        entries::toString);
            }
            assertTrue(Files.readString(output("user-api", metric + ".txt")).contains("|_run(10) x 1000"));
        }
        assertNoSessionLeftovers(r);
    }

    @Test
    void crashInsideOpenRegionsKeepsEverythingRecorded() throws Exception {
        for (String mode : List.of("segv", "kill")) {
            var r = run(
                    env("crash-" + mode, "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON"), example("segv"), mode);
            int signal = mode.equals("segv") ? 11 : 9;
            assertEquals(128 + signal, r.exitCode(), r::toString);
            assertTrue(r.stderr().contains("was killed by signal " + signal), r::toString);
            DecodedTrace trace = DecodedTrace.read(output("crash-" + mode, "perfetto-trace.proto"));
            List<String> main = slices(trace, rootPid(trace), "segv");
            // the barrier both threads passed before the regions opened ended normally
            assertEquals(
                    List.of("0:segv", "1:pthread_barrier_wait", "1:outer", "2:middle", "3:inner"), main, r::toString);
            for (DecodedTrace.Slice s : trace.slices) {
                assertTrue(s.endNs >= s.beginNs, s::toString);
                // the barrier ended on main before its regions opened; the background thread may
                // die before it returns from the barrier
                if (!s.name.equals("pthread_barrier_wait")) {
                    assertEquals(Boolean.TRUE, s.args.get("closed_by_profiler"), s::toString);
                }
            }
            assertTrue(Files.isRegularFile(output("crash-" + mode, "metadata.json")));
            assertEquals(
                    List.of(
                            "0 segv c1 d0",
                            "0 pthread_barrier_wait c1 d1",
                            "0 outer c1 d1",
                            "0 middle c1 d2",
                            "0 inner c1 d3"),
                    graph(output("crash-" + mode, "wall_clock.json"), "wall_clock").stream()
                            .filter(e -> e.startsWith("0 "))
                            .toList());
        }
    }

    @Test
    void forkChildKeepsRecordingInItsOwnProcess() throws Exception {
        var r = run(
                env("fork", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_USE_PID", "ON"),
                example("fork"),
                "2",
                "1",
                "50");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(output("fork", "perfetto-trace-" + rootPidFromLog(r) + ".proto"));
        List<Integer> pids = trace.tracks.values().stream()
                .filter(DecodedTrace.Track::isProcess)
                .map(t -> t.descriptor().getProcess().getPid())
                .distinct()
                .sorted()
                .toList();
        assertEquals(3, pids.size(), "parent and two children: " + pids);
        for (int child : pids.subList(1, pids.size())) {
            List<String> childSlices = slices(trace, child, "fork");
            assertEquals("0:fork", childSlices.getFirst(), childSlices::toString);
            assertTrue(childSlices.size() > 1, "the child recorded its own regions: " + childSlices);
            assertTrue(Files.isRegularFile(output("fork", "wall_clock-" + child + ".json")), "child profile " + child);
        }
    }

    @Test
    void traceDurationWindow() throws Exception {
        // upstream trace-time-window with TRACE_DURATION=1.25: main, outer_a, outer_b, outer_c; no outer_d
        assertTraceWindow(
                "trace-time-window",
                List.of("0:trace-time-window", "1:outer_a", "1:outer_b", "1:outer_c"),
                List.of("0 trace-time-window c1 d0", "0 outer_a c1 d1", "0 outer_b c1 d1", "0 outer_c c1 d1"),
                "ROCPROFSYS_TRACE_DURATION",
                "1.25");
    }

    @Test
    void traceDelayAndDurationWindow() throws Exception {
        // upstream trace-time-window-delay (DELAY=0.75, DURATION=0.75): outer_c and outer_d at depth 0
        assertTraceWindow(
                "trace-time-window-delay",
                List.of("0:outer_c", "0:outer_d"),
                List.of("0 outer_c c1 d0", "0 outer_d c1 d0"),
                "ROCPROFSYS_TRACE_DELAY",
                "0.75",
                "ROCPROFSYS_TRACE_DURATION",
                "0.75");
    }

    /**
     * trace-time-window 1 460 traced and profiled with the {@code window} settings (NAME, VALUE
     * pairs): the main thread's slices and the wall-clock profile are the expected ones.
     */
    private void assertTraceWindow(String name, List<String> slices, List<String> profile, String... window)
            throws Exception {
        List<String> settings = new ArrayList<>(List.of(window));
        settings.addAll(List.of("ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON"));
        // regions of 460 ms (the example's default): starts at 0, .46, .92, 1.38 s keep >= 120 ms from
        // the windows' edges (with 490 ms outer_d began 30 ms before the second window's end, which
        // late wakeups from outer_a's and outer_b's sleeps on a busy machine could use up)
        var r = run(env(name, settings.toArray(String[]::new)), example("trace-time-window"), "1", "460");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(output(name, "perfetto-trace.proto"));
        assertEquals(slices, slices(trace, rootPid(trace), "trace-time-window"));
        assertEquals(profile, graph(output(name, "wall_clock.json"), "wall_clock"));
    }

    /** examples/regions {@code regions} profiled (trip_count only) through 16 KB rings, with one ring setting. */
    private ProcessResult regionsInSmallRings(String name, String regions, String setting, String value)
            throws Exception {
        return run(
                env(
                        name,
                        "ROCPROFSYS_PROFILE",
                        "ON",
                        "ROCPROFSYS_TRACE",
                        "OFF",
                        "ROCPROFSYS_TIMEMORY_COMPONENTS",
                        "trip_count",
                        "ROCPROFSYS_RING_BUFFER_SIZE_KB",
                        "16",
                        setting,
                        value),
                example("regions"),
                regions);
    }

    @Test
    void fullRingDropsAndCountsWithoutWaitingAndLosslessKeepsEverything() throws Exception {
        // 16 KB rings, a tight loop and no waiting for the collector (STALL_MS 0): records are dropped
        var lossy = regionsInSmallRings("ring-lossy", "2000000", "ROCPROFSYS_RING_BUFFER_STALL_MS", "0");
        assertEquals(0, lossy.exitCode(), lossy::toString);
        var m = java.util.regex.Pattern.compile("warning: (\\d+) records were dropped")
                .matcher(lossy.stderr());
        assertTrue(m.find(), lossy::toString);
        assertTrue(Long.parseLong(m.group(1)) > 0);
        assertTrue(
                Files.readString(output("ring-lossy", "metadata.json")).contains("\"dropped_records\" : {\n"),
                "drops in metadata.json");
        // the agent drops whole regions, so what was kept still nests correctly
        List<String> kept = graph(output("ring-lossy", "trip_count.json"), "trip_count");
        assertEquals(3, kept.size(), kept::toString);

        var lossless = regionsInSmallRings("ring-lossless", "200000", "ROCPROFSYS_RING_BUFFER_LOSSLESS", "ON");
        assertEquals(0, lossless.exitCode(), lossless::toString);
        assertFalse(lossless.stderr().contains("dropped"), lossless::toString);
        assertEquals(
                List.of("0 regions c1 d0", "0 outer c200000 d1", "0 inner c200000 d2"),
                graph(output("ring-lossless", "trip_count.json"), "trip_count"));
    }

    @Test
    void execIsFollowed() throws Exception {
        var r = run(env("exec"), "sh", "-c", "exec " + example("trace-time-window") + " 1 10");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(output("exec", "perfetto-trace.proto"));
        int pid = rootPid(trace);
        assertEquals(
                List.of("0:trace-time-window", "1:outer_a", "1:outer_b", "1:outer_c", "1:outer_d", "1:outer_e"),
                slices(trace, pid, "trace-time-window"));
        // the image before exec (the shell; its main region is named after the real executable)
        String shell = Path.of("/bin/sh").toRealPath().getFileName().toString();
        assertTrue(
                trace.slices.stream()
                        .anyMatch(s -> s.name.equals(shell)
                                && s.depth == 0
                                && Boolean.TRUE.equals(s.args.get("closed_by_profiler"))),
                trace.slices::toString);
    }

    @Test
    void userApiIsInertWithoutTheProfiler() throws Exception {
        var r = launch(examples().resolve("user-api"), cwd, Map.of(), "10", "2", "10");
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(r.stdout().contains("Pushing custom region"), r::toString);
    }

    @Test
    void runHelpAsUpstream() throws Exception {
        var r = tool("rocprof-sys-run", cwd, Map.of(), "--help");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().startsWith("[rocprof-sys-run] Usage: rocprof-sys-run"), r::toString);
        var none = tool("rocprof-sys-run", cwd, Map.of());
        assertEquals(1, none.exitCode(), none::toString);
        assertTrue(none.stderr().contains("Usage: rocprof-sys-run <OPTIONS> -- <COMMAND> <ARGS>"), none::toString);
    }

    @Test
    void upstreamRunArgsRunAProfile() throws Exception {
        // upstream's rocprofiler-systems-run-args list, with this machine's paths and `sleep 1`
        Path cfg = Files.writeString(cwd.resolve("empty.cfg"), "");
        Files.createDirectories(cwd.resolve("tmpdir"));
        List<String> args = new ArrayList<>(
                UpstreamRunArgs.options(cfg.toString(), cwd.resolve("tmpdir").toString()));
        args.addAll(List.of("--", "sleep", "1"));
        var r = tool("rocprof-sys-run", cwd, Map.of(), args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Executing 'sleep 1'"), r::toString);
        Path out = cwd.resolve("rocprof-sys-tests-output/rocprofiler-systems-run-args-output");
        for (String f : List.of(
                "perfetto-run-args-trace.proto",
                "wall_clock.json",
                "cpu_clock.txt",
                "peak_rss.json",
                "page_rss.txt",
                "metadata.json")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f + "\n" + r);
        }
    }

    /** Counter series of a trace: track name -> values in order. */
    private static Map<String, List<Double>> counters(Path proto) throws IOException {
        return DecodedTrace.read(proto).counters();
    }

    @Test
    void hostSamplingShowsFrequencyMemoryAndContextSwitches() throws Exception {
        var r = tool(
                "rocprof-sys-run",
                cwd,
                env("host-sampling"),
                argv("-H --cpus 0 --process-freq 50 --", example("trace-time-window"), "1", "100"));
        assertEquals(0, r.exitCode(), r::toString);
        Map<String, List<Double>> series = counters(output("host-sampling", "perfetto-trace.proto"));
        // upstream's --counter-names check: the sum of each series is > 0
        for (String name : List.of(
                "CPU Frequency [0] (S)",
                "CPU Memory Usage (S)",
                "CPU Virtual Memory Usage (S)",
                "CPU Peak Memory (S)",
                "CPU Context Switches (S)")) {
            List<Double> v = series.get(name);
            assertTrue(
                    v != null && v.stream().mapToDouble(Double::doubleValue).sum() > 0, name + ": " + series.keySet());
            assertEquals(0.0, v.getLast(), name + " ends with 0 at stop");
        }
        // ~0.5 s at 50 Hz: about 25 samples per series, never more than 50 Hz gives; a loaded
        // machine starts the sampler's thread late (9 were seen at load 18), so the lower bound is
        // only what the checks above need (a value, and the closing 0)
        int n = series.get("CPU Memory Usage (S)").size();
        assertTrue(n >= 2 && n <= 40, "samples: " + n);
        assertFalse(series.containsKey("CPU Frequency [1] (S)"), "--cpus selects CPUs");
    }

    @Test
    void exitCodeIsPassedThrough() throws Exception {
        var r = run(env("exit"), "sh", "-c", "exit 3");
        assertEquals(3, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("exited with code 3"), r::toString);
    }

    @Test
    void missingCommandIsAClearError() throws Exception {
        var r = run(env("missing"), "/nonexistent/program");
        assertEquals(127, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("cannot execute '/nonexistent/program'"), r::toString);
    }

    @Test
    void sigtermIsForwardedAndOutputsStillWritten() throws Exception {
        forwardedSignal("TERM", 15, "SIGTERM");
    }

    @Test
    void sigintIsForwardedAndOutputsStillWritten() throws Exception {
        // sent to rocprof-sys-run alone (not the terminal's process group): it passes it on
        forwardedSignal("INT", 2, "SIGINT");
    }

    private void forwardedSignal(String name, int number, String label) throws Exception {
        String test = "signal-" + name.toLowerCase(java.util.Locale.ROOT);
        Path log = cwd.resolve(test + ".log");
        // env resets the signal's disposition: a test run as a background job inherits SIGINT
        // ignored, which the launcher and the program would then (rightly) keep ignoring
        ProcessBuilder pb = new ProcessBuilder(
                        "env",
                        "--default-signal=" + name,
                        DIST.resolve("bin/rocprof-sys-run").toString(),
                        "--",
                        example("trace-time-window"),
                        "20",
                        "490")
                .directory(cwd.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
        pb.environment().putAll(env(test));
        Process p = pb.start();
        Path proto = output(test, "perfetto-trace.proto");
        // the target's outer_a .. outer_c (490 ms each) must have run: wait for the target to exist
        // (the collector's start-up takes seconds on a loaded machine), then for those three
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        ProcessHandle target;
        while ((target = p.descendants()
                        .filter(h -> h.info().command().orElse("").endsWith("trace-time-window"))
                        .findFirst()
                        .orElse(null))
                == null) {
            assertTrue(System.nanoTime() < deadline && p.isAlive(), "the target started");
            Thread.sleep(20);
        }
        awaitOuterD(target);
        new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "rocprof-sys-run ended");
        String text = Files.readString(log);
        assertEquals(128 + number, p.exitValue(), text);
        assertTrue(text.contains("was killed by signal " + number + " (" + label + ")"), text);
        List<String> main = slices(DecodedTrace.read(proto), rootPid(DecodedTrace.read(proto)), "trace-time-window");
        assertTrue(main.contains("1:outer_a") && main.contains("1:outer_c"), main::toString);
    }

    /**
     * Waits until trace-time-window {@code target} is in outer_d: its main thread slept (outer_a,
     * outer_b), ran (outer_c busy-waits 490 ms) and sleeps again, as /proc/PID/syscall shows. The
     * program's progress decides, not a time: a busy machine may start it late or run it slowly.
     */
    private static void awaitOuterD(ProcessHandle target) throws Exception {
        Path syscall = Path.of("/proc", Long.toString(target.pid()), "syscall");
        int phase = 0; // 0 before outer_a's sleep, 1 asleep in outer_a/outer_b, 2 in outer_c, 3 in outer_d
        long runningSince = -1;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
        while (phase < 3) {
            assertTrue(System.nanoTime() < deadline && target.isAlive(), "the target reached outer_d: phase " + phase);
            String state;
            try {
                state = Files.readString(syscall).strip();
            } catch (java.nio.file.AccessDeniedException e) {
                // /proc/PID/syscall needs ptrace access (kernel.yama.ptrace_scope): the old wait
                Thread.sleep(2500);
                return;
            } catch (IOException e) {
                throw new AssertionError("the target ended before outer_d", e);
            }
            // nanosleep (35) or clock_nanosleep (230): asleep in a region; "running": computing
            boolean asleep = state.startsWith("35 ") || state.startsWith("230 ");
            boolean running = state.equals("running");
            if (phase == 0 && asleep) {
                phase = 1;
            } else if (phase == 1 && running) {
                // the moment between two sleeps is not outer_c: its busy wait lasts 490 ms
                runningSince = runningSince < 0 ? System.nanoTime() : runningSince;
                if (System.nanoTime() - runningSince > 200_000_000L) {
                    phase = 2;
                }
            } else if (phase == 1) {
                runningSince = -1;
            } else if (phase == 2 && asleep) {
                phase = 3;
            }
            Thread.sleep(5);
        }
    }

    private static int rootPidFromLog(ProcessResult r) {
        var m = java.util.regex.Pattern.compile("\\[rocprof-sys\\]\\[(\\d+)\\]\\[perfetto\\]")
                .matcher(r.stderr());
        assertTrue(m.find(), r::toString);
        return Integer.parseInt(m.group(1));
    }

    private static void assertNoSessionLeftovers(ProcessResult r) throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/dev/shm"))) {
            List<String> left = s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("rocprofsys-"))
                    .collect(Collectors.toList());
            assertFalse(left.stream().anyMatch(n -> r.stderr().contains(n)), "session directory removed: " + left);
        }
    }
}
