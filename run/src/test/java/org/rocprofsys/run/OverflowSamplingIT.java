package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RocpdCounts;

/**
 * Overflow sampling as upstream draws it (issue 36, item 4): {@code --sample-overflow EVENT FREQ
 * TIDS} on rocprof-sys-run without {@code -S} records; the samples go on {@code Thread N Overflow
 * (S) <tid>} tracks, category {@code overflow_sampling}, outer slice {@code <EVENT without
 * PERF_COUNT_> samples [rocprof-sys]}, and in rocpd on a track of that name; SAMPLING_OVERFLOW_TIDS
 * picks the threads; SAMPLING_OVERFLOW_SIGNAL is honoured (no signal reaches the program) and a
 * value that is no signal is refused.
 */
class OverflowSamplingIT extends DistributionTest {
    @Test
    void overflowSamplesOfOneThreadOnUpstreamsTracks() throws Exception {
        // threads-hot: main_work on thread 0, work_a on thread 1, work_b on thread 2
        ProcessResult r = CallStackSampling.orSkip(tool(
                "rocprof-sys-run",
                environment(
                        "overflow",
                        "ROCPROFSYS_TRACE",
                        "ON",
                        "ROCPROFSYS_PROFILE",
                        "ON",
                        "ROCPROFSYS_USE_ROCPD",
                        "ON",
                        "ROCPROFSYS_SAMPLING_DELAY",
                        "0",
                        "ROCPROFSYS_SAMPLING_OVERFLOW_SIGNAL",
                        "40"),
                argv("--sample-overflow PERF_COUNT_SW_CPU_CLOCK 250000 1 --", example("threads-hot"), "60")));
        assertEquals(0, r.exitCode(), r::toString);
        // honoured: no "not supported" warning about the overflow settings
        assertTrue(
                r.stderr().lines().noneMatch(l -> l.contains("OVERFLOW") && l.contains("not supported")), r::toString);
        Path dir = outputRoot().resolve("overflow");

        DecodedTrace trace = DecodedTrace.read(dir.resolve("perfetto-trace.proto"));
        List<DecodedTrace.Track> sampled = trace.tracks.values().stream()
                .filter(t -> t.descriptor().getName().contains("(S)"))
                .toList();
        List<String> names = sampled.stream().map(t -> t.descriptor().getName()).toList();
        // the thread chosen by the TIDS, on an overflow track; no timer's track (only overflow asked)
        assertEquals(1, sampled.size(), names::toString);
        assertTrue(names.getFirst().matches("Thread 1 Overflow \\(S\\) \\d+"), names::toString);
        List<DecodedTrace.Slice> slices = trace.slicesOn(sampled.getFirst().uuid());
        Set<String> categories = slices.stream().map(s -> s.category).collect(Collectors.toSet());
        assertEquals(Set.of("overflow_sampling"), categories, slices.toString());
        Set<String> sliceNames = slices.stream().map(s -> s.name).collect(Collectors.toSet());
        assertTrue(sliceNames.contains("SW_CPU_CLOCK samples [rocprof-sys]"), sliceNames::toString);
        assertTrue(sliceNames.contains("work_a"), sliceNames::toString);
        assertFalse(sliceNames.contains("work_b") || sliceNames.contains("main_work"), sliceNames::toString);

        // the profiles hold the same thread's samples
        Map<String, Long> leaves =
                ProfileGraph.leaves(ProfileGraph.graph(dir.resolve("sampling_wall_clock.json"), "sampling_wall_clock"));
        assertTrue(leaves.containsKey("work_a"), leaves::toString);
        assertFalse(leaves.containsKey("work_b") || leaves.containsKey("main_work"), leaves::toString);

        // rocpd: the overflow track and category
        Path db = dir.resolve("rocpd.db");
        Map<String, Long> byTrack =
                RocpdCounts.query(db, "SELECT name || ' / ' || category, COUNT(*) FROM samples GROUP BY 1");
        assertEquals(1, byTrack.size(), byTrack::toString);
        String only = byTrack.keySet().iterator().next();
        assertTrue(only.matches("Thread 1 Overflow \\(S\\) \\d+ / overflow_sampling"), byTrack::toString);
        assertEquals(
                slices.stream()
                        .filter(s -> s.name.equals("SW_CPU_CLOCK samples [rocprof-sys]"))
                        .count(),
                byTrack.get(only),
                "one rocpd sample per sampled stack of the trace");
    }

    @Test
    void aSignalNumberThatIsNoSignalIsRefused() throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment("overflow-bad-signal", "ROCPROFSYS_SAMPLING_OVERFLOW_SIGNAL", "0"),
                argv("--sample-overflow PERF_COUNT_SW_CPU_CLOCK 250000 --", "true"));
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("ROCPROFSYS_SAMPLING_OVERFLOW_SIGNAL must be a signal number"), r::toString);
    }
}
