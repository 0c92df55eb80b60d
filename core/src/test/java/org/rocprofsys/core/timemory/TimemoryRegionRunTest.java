package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.RandomRegionStream;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.TraceEvent;

/** The profile of regions read from runs is the profile of the same regions one by one. */
class TimemoryRegionRunTest {
    @TempDir
    Path dir;

    @Test
    void runsGiveTheSameProfileAsTheirEvents() throws IOException {
        for (int seed = 1; seed <= 20; seed++) {
            List<TraceEvent> events = RandomRegionStream.of(seed);
            RunSummary summary = new RunSummary(events.getLast().timestampNs() + 1, 0, 1, "app", Map.of());
            String one = profile(events, summary, 0, "one-" + seed);
            assertTrue(one.contains("|_r"), "seed " + seed + ": nested regions in the profile:\n" + one);
            for (int maxRun : new int[] {1, 5, 1024}) {
                assertEquals(
                        one,
                        profile(events, summary, maxRun, "runs-" + maxRun + "-" + seed),
                        "seed " + seed + ", runs of " + maxRun);
            }
        }
    }

    /** The text and JSON files of the wall_clock and trip_count profile, with the folder's name taken out. */
    private String profile(List<TraceEvent> events, RunSummary summary, int maxRun, String name) throws IOException {
        Path out = Files.createDirectories(dir.resolve(name));
        TimemoryOptions options =
                TimemoryOptions.defaults().withComponents(List.of(Component.WALL_CLOCK, Component.TRIP_COUNT));
        TimemorySink sink = new TimemorySink(
                options,
                TestPaths.paths(out, 1),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
        if (maxRun == 0) {
            SinkFeed.run(sink, events, summary);
        } else {
            SinkFeed.runGathered(sink, events, summary, maxRun);
        }
        StringBuilder text = new StringBuilder();
        for (var f : sink.files()) {
            text.append("==> ")
                    .append(out.relativize(f.path()))
                    .append('\n')
                    .append(Files.readString(f.path()).replace(out.toString(), "<dir>"));
        }
        return text.toString();
    }
}
