package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RandomRegionStream;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.tracetest.TestPaths;

/** The profile of regions read from runs is the profile of the same regions one by one. */
class TimemoryRegionRunTest {
    @TempDir
    Path dir;

    @Test
    void runsGiveTheSameProfileAsTheirEvents() throws IOException {
        sameProfiles(List.of(Component.WALL_CLOCK, Component.TRIP_COUNT), "wt");
    }

    /** wall_clock alone (the default): a region whose end comes next in a run is taken as one call. */
    @Test
    void runsGiveTheSameProfileAsTheirEventsWithWallClockAlone() throws IOException {
        sameProfiles(List.of(Component.WALL_CLOCK), "w");
    }

    /**
     * Where a worker's graph hangs (below the main thread's innermost region when the worker's first
     * region began) when that moment falls inside or after one of the main thread's leaf calls,
     * which a run hands on as one call: the same as from the calls' events.
     */
    @Test
    void workersHangWhereTheirEventsPutThemAroundALeafCall() throws IOException {
        List<List<TraceEvent>> streams = List.of(
                // the worker's events first: it waits for the main thread to pass 150 ms, inside leaf
                concat(worker(150), main(true)),
                // the main thread's first: found in its history, inside leaf
                concat(main(true), worker(150)),
                // the same with leaf the main thread's last event: its end, not its begin, tells how
                // far the main thread has come
                concat(main(false), worker(150)),
                // after leaf ended, back in outer
                concat(main(true), worker(250)));
        int k = 0;
        for (List<TraceEvent> events : streams) {
            RunSummary summary = new RunSummary(1000 * MS, 0, 1, "app", Map.of());
            String one = profile(events, summary, 0, List.of(Component.WALL_CLOCK), "leaf-one-" + k);
            assertTrue(one.contains("work"), one);
            assertEquals(
                    one,
                    profile(events, summary, 1024, List.of(Component.WALL_CLOCK), "leaf-runs-" + k),
                    "stream " + k);
            k++;
        }
    }

    private static final long MS = 1_000_000L;

    /** The main thread (pid 1, tid 1): leaf [100 ms, 200 ms), inside outer [50 ms, 300 ms) when {@code outer}. */
    private static List<TraceEvent> main(boolean outer) {
        List<TraceEvent> e = new ArrayList<>();
        e.add(new ProcessStarted(0, 1, 0, "/bin/app", List.of("app"), 0, 0));
        e.add(new ThreadStarted(1, 1, 1, 0));
        if (outer) {
            e.add(new RegionBegin(50 * MS, 1, 1, "outer", Category.USER, List.of(), RegionMetrics.NONE));
        }
        e.add(new RegionBegin(100 * MS, 1, 1, "leaf", Category.USER, List.of(), RegionMetrics.NONE));
        e.add(new RegionEnd(200 * MS, 1, 1, Category.USER, List.of(), RegionMetrics.NONE, false));
        if (outer) {
            e.add(new RegionEnd(300 * MS, 1, 1, Category.USER, List.of(), RegionMetrics.NONE, false));
        }
        return e;
    }

    /** A worker (tid 2) whose first region begins at {@code beginMs}. */
    private static List<TraceEvent> worker(long beginMs) {
        return List.of(
                new ThreadStarted(2 * MS, 1, 2, 1),
                new RegionBegin(beginMs * MS, 1, 2, "work", Category.USER, List.of(), RegionMetrics.NONE),
                new RegionEnd((beginMs + 5) * MS, 1, 2, Category.USER, List.of(), RegionMetrics.NONE, false));
    }

    private static List<TraceEvent> concat(List<TraceEvent> a, List<TraceEvent> b) {
        List<TraceEvent> out = new ArrayList<>(a);
        out.addAll(b);
        if (!(out.getFirst() instanceof ProcessStarted)) { // the process starts before either thread
            TraceEvent start = out.stream()
                    .filter(ProcessStarted.class::isInstance)
                    .findFirst()
                    .orElseThrow();
            out.remove(start);
            out.addFirst(start);
        }
        return out;
    }

    private void sameProfiles(List<Component> components, String tag) throws IOException {
        for (int seed = 1; seed <= 20; seed++) {
            List<TraceEvent> events = RandomRegionStream.of(seed);
            RunSummary summary = new RunSummary(events.getLast().timestampNs() + 1, 0, 1, "app", Map.of());
            String one = profile(events, summary, 0, components, tag + "-one-" + seed);
            assertTrue(one.contains("|_r"), "seed " + seed + ": nested regions in the profile:\n" + one);
            for (int maxRun : new int[] {1, 5, 1024}) {
                assertEquals(
                        one,
                        profile(events, summary, maxRun, components, tag + "-runs-" + maxRun + "-" + seed),
                        "seed " + seed + ", runs of " + maxRun);
            }
        }
    }

    /** The text and JSON files of the profile of {@code components}, with the folder's name taken out. */
    private String profile(
            List<TraceEvent> events, RunSummary summary, int maxRun, List<Component> components, String name)
            throws IOException {
        Path out = Files.createDirectories(dir.resolve(name));
        TimemoryOptions options = TimemoryOptions.defaults().withComponents(components);
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
