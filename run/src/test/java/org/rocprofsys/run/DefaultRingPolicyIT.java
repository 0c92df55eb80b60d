package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Default settings keep the data of a program that records far faster than the collector ingests:
 * one thread pushing 2 M regions as fast as it can (it once lost 3.9 M of its 4 M records to its
 * full 1 MiB ring and kept 1.3 % of its slices). The thread now waits for the collector while the
 * collector frees space, so nothing is dropped.
 */
class DefaultRingPolicyIT extends DistributionTest {
    @Override
    protected Path outputRoot() {
        return cwd.resolve("rocprof-sys-tests-output");
    }

    @Test
    void twoMillionRegionsUnderDefaultsLoseNothing() throws Exception {
        // -T -P with every ring setting left at its default
        twoMillionRegions("defaults-2m", environment("defaults-2m"));
    }

    /**
     * The same with the trace's regions encoded by worker threads and the pipeline's stages on a
     * thread of their own, as on a machine of 4 CPUs or more (set here, since CI machines have 2):
     * segments restart their sequence's state, and the trace still holds every slice, in order
     * (DecodedTrace fails on a name or an end out of place), and the profile every call.
     */
    @Test
    void twoMillionRegionsEncodedInSegmentsLoseNothing() throws Exception {
        Map<String, String> env = environment("segments-2m");
        env.put("ROCPROFSYS_PERFETTO_ENCODERS", "2");
        env.put("ROCPROFSYS_COLLECTOR_STAGE_THREAD", "true");
        DecodedTrace trace = twoMillionRegions("segments-2m", env);
        // one restart per segment of 32768 regions
        assertTrue(trace.stateClears() > 50, trace.stateClears() + " state clears");
    }

    /**
     * The same with a budget of 1 MiB for the records the collector holds while the target runs
     * (512 MiB by default, more than this program writes): the held records pass it again and again
     * and are decoded while the target runs, between passes that go on holding.
     */
    @Test
    void twoMillionRegionsPastTheHeldRecordsBudgetLoseNothing() throws Exception {
        Map<String, String> env = environment("held-2m");
        env.put("ROCPROFSYS_COLLECTOR_HOLD_BYTES", "1048576");
        twoMillionRegions("held-2m", env);
    }

    /** Runs the program's 2 M regions under {@code env}, checks that nothing was lost, and returns the trace. */
    private DecodedTrace twoMillionRegions(String name, Map<String, String> env) throws Exception {
        ProcessResult r = tool("rocprof-sys-run", env, "-T", "-P", "--", example("regions"), "1000000");
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(r.stderr().contains("dropped"), r::toString);
        Path dir = outputRoot().resolve(name);
        assertFalse(
                new ObjectMapper()
                        .readTree(dir.resolve("metadata.json").toFile())
                        .path("info")
                        .has("dropped_records"),
                "no drops in metadata.json");

        DecodedTrace trace = DecodedTrace.read(dir.resolve("perfetto-trace.proto"), false);
        // 1 M x (outer, inner) plus the main region
        assertEquals(2_000_001, trace.sliceBegins());
        assertEquals(2_000_001, trace.sliceEnds());

        List<String> laps = new ArrayList<>();
        for (var e : ProfileGraph.graph(dir.resolve("wall_clock.json"), "wall_clock")) {
            laps.add(ProfileGraph.label(e) + " " + ProfileGraph.laps(e));
        }
        assertEquals(List.of("regions 1", "outer 1000000", "inner 1000000"), laps);
        return trace;
    }
}
