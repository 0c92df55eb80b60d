package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.RandomRegionStream;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.TraceEvent;

/** The trace of regions read from runs is the trace of the same regions one by one, byte for byte. */
class PerfettoRegionRunTest {
    @Test
    void runsWriteTheSameBytesAsTheirEvents() throws IOException {
        for (boolean annotations : new boolean[] {true, false}) {
            for (int seed = 1; seed <= 20; seed++) {
                List<TraceEvent> events = RandomRegionStream.of(seed);
                RunSummary summary = new RunSummary(events.getLast().timestampNs() + 1, 1_000_000L, 1, "app", Map.of());
                byte[] one = trace(events, summary, 0, annotations);
                for (int maxRun : new int[] {1, 5, 1024}) {
                    assertArrayEquals(
                            one,
                            trace(events, summary, maxRun, annotations),
                            "seed " + seed + ", runs of " + maxRun + ", annotations " + annotations);
                }
                assertTrue(one.length > 3_000, "seed " + seed + ": a trace of " + one.length + " bytes");
            }
        }
    }

    private static byte[] trace(List<TraceEvent> events, RunSummary summary, int maxRun, boolean annotations)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoSink sink = new PerfettoSink(out, new PerfettoSink.Options(annotations, 1_000_000L, "app"));
        if (maxRun == 0) {
            SinkFeed.run(sink, events, summary);
        } else {
            SinkFeed.runGathered(sink, events, summary, maxRun);
        }
        return out.toByteArray();
    }
}
