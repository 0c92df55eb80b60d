package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.run.ProfileGraph.graph;
import static org.rocprofsys.run.ProfileGraph.label;
import static org.rocprofsys.run.ProfileGraph.shown;
import static org.rocprofsys.run.ProfileGraph.sum;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * The agent's timer sampler end to end: wall-clock (realtime) samples of a thread that sleeps most
 * of the time, CPU-time sampling through the agent when perf is not to be used (the fallback), and
 * the thread filters.
 */
class TimerSamplingEndToEndIT extends DistributionTest {
    private ProcessResult sample(String name, List<String> extraEnv, String... args) throws Exception {
        Map<String, String> env = environment(name, extraEnv.toArray(String[]::new));
        return tool("rocprof-sys-sample", cwd, env, args);
    }

    /** The agent's timers instead of perf. */
    private static final List<String> NO_PERF = List.of("ROCPROFSYS_SAMPLING_USE_PERF", "OFF");

    /** {@link #sample}, which must succeed. */
    private ProcessResult sampleOk(String name, List<String> extraEnv, String... args) throws Exception {
        ProcessResult r = sample(name, extraEnv, args);
        assertEquals(0, r.exitCode(), r::toString);
        return r;
    }

    private static long count(String text, String needle) {
        return text.lines().filter(l -> l.contains(needle)).count();
    }

    @Test
    void realtimeSamplesShowTheSleepingFunction() throws Exception {
        var r = sampleOk(
                "sleepy",
                List.of("ROCPROFSYS_SAMPLING_REALTIME", "ON"),
                argv("-P -T -v 1 -f 500 -w 0 --", example("sleepy"), "20"));
        assertTrue(
                r.stderr()
                        .contains("[SIG34] Sampler for thread 0 will be triggered 500.0x per second of wall-time"
                                + " (every 2.000 milliseconds)..."),
                r::toString);
        assertFalse(r.stderr().contains("perf_event_open refused"), r::toString); // no CPU-time sampler asked for

        // wall clock: sleepy (in nanosleep) holds most of main's time, though it uses almost no CPU
        List<JsonNode> wall = graph(cwd.resolve("out/sleepy/sampling_wall_clock.json"), "sampling_wall_clock");
        double main = sum(wall, "main", 0) / 1e9; // accum is in ns
        double sleepy = sum(wall, "sleepy", 2) / 1e9;
        double busy = sum(wall, "busy", 2);
        assertTrue(main > 0.45, "main's sampled wall time " + main + " s: " + shown(wall));
        // 20 rounds of 20 ms asleep: about 0.4 s in sleepy (a late wakeup on a loaded machine adds a
        // little), whatever busy's 5 ms of CPU per round take in wall time there (80 % of main's
        // time on an idle machine, about a third with the two cores heavily shared)
        // (no upper bound: each late wakeup on a busy machine adds to it)
        assertTrue(sleepy > 0.3 && sleepy <= main, "sleepy's wall time " + sleepy + " s: " + shown(wall));
        assertTrue(sum(wall, "nanosleep", 3) > 0, "the libc frames below sleepy: " + shown(wall));
        assertTrue(busy > 0, shown(wall));

        // CPU time: the thread's CPU deltas, so busy outweighs sleepy there
        List<JsonNode> cpu = graph(cwd.resolve("out/sleepy/sampling_cpu_clock.json"), "sampling_cpu_clock");
        assertTrue(sum(cpu, "busy", 2) > sum(cpu, "sleepy", 2), "sampling_cpu_clock: " + shown(cpu));
        assertTrue(
                Files.readString(cwd.resolve("out/sleepy/sampling_percent.txt")).contains("sleepy"), r::toString);

        // the trace: main -> loop -> sleepy / busy on "Thread 0 (S) <tid>"
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/sleepy/perfetto-trace.proto"));
        Set<String> slices = CallStackSampling.mainThreadSamples(trace).collect(Collectors.toSet());
        assertTrue(
                slices.containsAll(Set.of("0:samples [rocprof-sys]", "1:main", "2:loop", "3:sleepy", "3:busy")),
                slices::toString);
    }

    @Test
    void withoutPerfCpuTimeSamplingFallsBackToTheAgentsTimers() throws Exception {
        // hot-functions is -O2 -fomit-frame-pointer: heavy and light sit under main only if the
        // collector unwinds the agent's stack copies through DWARF CFI
        var r = sampleOk("fallback", NO_PERF, argv("-P -T -f 1000 -w 0 --", example("hot-functions"), "30"));
        assertEquals(
                1,
                count(
                        r.stderr(),
                        "perf_event_open refused (ROCPROFSYS_SAMPLING_USE_PERF=OFF): falling back"
                                + " to the agent's timer sampler"),
                r::toString);
        assertFalse(r.stderr().contains("call-stack sampling is off"), r::toString);
        CallStackSampling.assertSamplingFiles(cwd.resolve("out/fallback"), r, "txt", "json");
        List<JsonNode> cpu = graph(cwd.resolve("out/fallback/sampling_cpu_clock.json"), "sampling_cpu_clock");
        double main = sum(cpu, "main", 0);
        double heavy = sum(cpu, "heavy", 1);
        double light = sum(cpu, "light", 1);
        assertTrue(main > 0 && heavy + light > 0.8 * main, shown(cpu));
        double heavyShare = heavy / (heavy + light);
        assertTrue(heavyShare > 0.5 && heavyShare < 0.9, "heavy's share " + heavyShare + ": " + shown(cpu));
    }

    @Test
    void anApplicationsOwnSigprofHandlerKeepsWorkingBesideTheCpuTimeTimers() throws Exception {
        // the agent's cputime timers use SIGPROF; the program installs its own handler (sigaction,
        // then signal()), raises SIGPROF itself and checks that its handlers saw every one of them
        var r = sampleOk("sigprof", NO_PERF, argv("-P -f 1000 -w 0 --", example("sigprof-app"), "30"));
        assertTrue(r.stdout().contains("app handler calls=5+1"), r::toString);
        List<JsonNode> cpu = graph(cwd.resolve("out/sigprof/sampling_cpu_clock.json"), "sampling_cpu_clock");
        assertTrue(sum(cpu, "crunch", 1) > 0.5 * sum(cpu, "main", 0), shown(cpu));
    }

    @Test
    void samplesInterruptingRegionWritesLoseNoRegion() throws Exception {
        // both timers at 5 kHz on a thread that does nothing but push and pop (lossless rings): every
        // region arrives and the rings parse. (The windows where a sample would corrupt a write
        // without the handler's busy check are a few instructions wide: this run passed without
        // that check too, so it guards against gross interference, not that race.)
        var r = sampleOk(
                "regions",
                List.of(
                        "ROCPROFSYS_SAMPLING_REALTIME",
                        "ON",
                        "ROCPROFSYS_SAMPLING_CPUTIME",
                        "ON",
                        "ROCPROFSYS_SAMPLING_USE_PERF",
                        "OFF",
                        "ROCPROFSYS_RING_BUFFER_LOSSLESS",
                        "ON"),
                argv("-P -f 5000 -w 0 --", example("regions"), "300000"));
        assertFalse(r.stderr().contains("corrupt"), r::toString);
        List<JsonNode> g = graph(cwd.resolve("out/regions/wall_clock.json"), "wall_clock");
        for (String name : List.of("outer", "inner")) {
            long laps = g.stream()
                    .filter(e -> label(e).equals(name))
                    .mapToLong(e -> e.get("entry").get("laps").asLong())
                    .sum();
            assertEquals(300000, laps, name + ": " + shown(g));
        }
        List<JsonNode> sampled = graph(cwd.resolve("out/regions/sampling_wall_clock.json"), "sampling_wall_clock");
        assertTrue(sum(sampled, "main", 0) > 0, shown(sampled));
    }

    @Test
    void forkChildrenAreSampledAndSymbolized() throws Exception {
        // fork's children fork from worker threads and live 100 and 200 ms: each has its own timers,
        // and its samples symbolize even when the process is gone before the collector reads /proc
        var r = sampleOk(
                "fork",
                List.of("ROCPROFSYS_SAMPLING_REALTIME", "ON", "ROCPROFSYS_USE_PID", "ON"),
                argv("-P -f 500 -w 0 --", example("fork"), "2"));
        List<Path> profiles;
        try (var files = Files.list(cwd.resolve("out/fork"))) {
            profiles = files.filter(p -> p.getFileName().toString().matches("sampling_wall_clock-\\d+\\.json"))
                    .toList();
        }
        assertEquals(3, profiles.size(), "the parent and two children: " + profiles + "\n" + r);
        int children = 0;
        for (Path p : profiles) {
            List<JsonNode> g = graph(p, "sampling_wall_clock");
            if (g.stream().anyMatch(e -> label(e).equals("main"))) {
                continue; // the parent
            }
            children++;
            assertTrue(g.stream().anyMatch(e -> label(e).equals("launch")), p + ": " + shown(g));
        }
        assertEquals(2, children, profiles::toString);
    }

    @Test
    void threadFiltersPickTheSampledThreads() throws Exception {
        // the per-timer list wins over SAMPLING_TIDS: threads 0 and 2 are sampled, thread 1 is not
        var r = sampleOk(
                "tids",
                List.of(
                        "ROCPROFSYS_SAMPLING_REALTIME",
                        "ON",
                        "ROCPROFSYS_SAMPLING_TIDS",
                        "1",
                        "ROCPROFSYS_SAMPLING_REALTIME_TIDS",
                        "0,2"),
                argv("-T -f 200 -w 0 --", example("sleepy"), "10", "threads"));
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/tids/perfetto-trace.proto"));
        Map<String, Long> sampledTracks = trace.tracks.values().stream()
                .filter(t -> t.descriptor().getName().contains(" (S) "))
                .collect(Collectors.toMap(
                        t -> t.descriptor().getName().replaceFirst(" \\(S\\) .*", ""), DecodedTrace.Track::uuid));
        assertEquals(Set.of("Thread 0", "Thread 2"), sampledTracks.keySet(), trace.tracks::toString);
        Set<String> two = trace.slices.stream()
                .filter(s -> s.trackUuid == sampledTracks.get("Thread 2"))
                .map(s -> s.name)
                .collect(Collectors.toSet());
        assertTrue(two.containsAll(Set.of("worker_two", "loop", "sleepy")), two::toString);
        assertFalse(trace.slices.stream().anyMatch(s -> s.name.equals("worker_one")), "thread 1 was sampled");
    }
}
