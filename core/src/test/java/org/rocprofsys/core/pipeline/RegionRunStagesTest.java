package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RandomRegionStream;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.TraceEvent;

/**
 * The stages read a {@link RegionRun} as the region events it stands for: the same random streams
 * (orphan ends, trace control, trace windows, dropped categories, threads that end with regions
 * open), once as single events and once with their regions gathered into runs, give the same
 * events downstream.
 */
class RegionRunStagesTest {
    private static final long MS = 1_000_000L;

    @Test
    void runsGiveTheEventsTheirRegionsGiveOneByOne() {
        int[] runsSeen = new int[Setup.values().length];
        for (int seed = 1; seed <= 40; seed++) {
            List<TraceEvent> stream = RandomRegionStream.of(seed);
            for (Setup s : Setup.values()) {
                List<SinkEvent> one = new ArrayList<>();
                List<SinkEvent> runs = new ArrayList<>();
                Consumer<TraceEvent> single = s.chain(new EventNormaliser(one::add));
                Consumer<TraceEvent> batched = s.chain(new EventNormaliser(runs::add, r -> {
                    runsSeen[s.ordinal()]++;
                    assertTrue(!r.isEmpty(), "an empty run is not handed on");
                    r.forEachEvent(runs::add);
                }));
                stream.forEach(single);
                SinkFeed.gathered(stream, 7).forEach(batched);
                assertEquals(one, runs, "seed " + seed + ", " + s);
            }
        }
        for (Setup s : Setup.values()) {
            assertTrue(runsSeen[s.ordinal()] > 100, s + ": runs reached the end (" + runsSeen[s.ordinal()] + ")");
        }
    }

    private enum Setup {
        PLAIN,
        WINDOWS_AND_STOP,
        CATEGORIES;

        Consumer<TraceEvent> chain(EventNormaliser normaliser) {
            return switch (this) {
                case PLAIN -> new CollectionFilter(new TraceWindows(List.of()), true, normaliser);
                case WINDOWS_AND_STOP ->
                    new CollectionFilter(
                            new TraceWindows(List.of(TraceWindows.parse("0.002:0.004:3"))), true, normaliser);
                case CATEGORIES ->
                    new CollectionFilter(
                            new TraceWindows(List.of()),
                            true,
                            CategoryFilter.of(EnumSet.of(Category.HOST), normaliser));
            };
        }
    }
}
