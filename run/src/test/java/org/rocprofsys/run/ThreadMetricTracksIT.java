package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Upstream's per-thread metric track of the samples (issue 36, item 3): {@code Thread CPU time
 * [<n>] (S)} for each sampled thread, in seconds, from perf's CPU-clock samples and from the
 * agent's wall-clock timer samples alike; over a run the track adds up to the CPU time the
 * samples gave the thread's profile ({@code sampling_cpu_clock}).
 */
class ThreadMetricTracksIT extends DistributionTest {
    private static final String CPU_TIME = "Thread CPU time [";

    /** The run's "Thread CPU time [n] (S)" tracks: name -> sum of their values. */
    private static Map<String, Double> cpuTimeTracks(Path trace) throws Exception {
        Map<String, Double> out = new TreeMap<>();
        DecodedTrace.read(trace).counters().forEach((name, values) -> {
            if (name != null && name.startsWith(CPU_TIME)) {
                out.put(name, values.stream().mapToDouble(Double::doubleValue).sum());
            }
        });
        return out;
    }

    /** The sampled CPU time of every thread's profile in seconds: its depth-0 entries' sums (ns). */
    private static double profiled(Path json) throws Exception {
        double sum = 0;
        for (JsonNode e : ProfileGraph.graph(json, "sampling_cpu_clock")) {
            if (e.get("depth").asInt() == 0) {
                sum += e.get("entry").get("accum").asDouble();
            }
        }
        return sum / 1e9;
    }

    private void check(String name, String... options) throws Exception {
        ProcessResult r = CallStackSampling.orSkip(tool(
                "rocprof-sys-sample",
                environment(name, "ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_PROFILE", "ON"),
                argv(String.join(" ", options) + " --", example("threads-hot"), "150")));
        assertEquals(0, r.exitCode(), r::toString);
        Path dir = outputRoot().resolve(name);
        Map<String, Double> tracks = cpuTimeTracks(dir.resolve("perfetto-trace.proto"));
        // threads-hot: main_work on thread 0, work_a on 1, work_b on 2
        assertEquals(
                List.of(CPU_TIME + "0] (S)", CPU_TIME + "1] (S)", CPU_TIME + "2] (S)"),
                List.copyOf(tracks.keySet()),
                tracks::toString);
        tracks.forEach((track, sum) -> assertTrue(sum > 0, track + ": " + tracks));
        double total = tracks.values().stream().mapToDouble(Double::doubleValue).sum();
        double profile = profiled(dir.resolve("sampling_cpu_clock.json"));
        System.out.printf(
                "[ThreadMetricTracksIT] %s: the tracks add up to %.3f s, the profiles' sampled CPU time %.3f s%n",
                name, total, profile);
        assertEquals(profile, total, 0.01 * profile + 0.002, tracks::toString);
    }

    @Test
    void perfsCpuClockSamples() throws Exception {
        check("perf", "-f", "500", "-w", "0");
    }

    @Test
    void theAgentsWallClockSamples() throws Exception {
        check("agent", "-f", "500", "-w", "0", "--realtime", "500", "0");
    }
}
