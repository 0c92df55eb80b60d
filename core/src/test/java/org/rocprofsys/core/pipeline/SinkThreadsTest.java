package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;

class SinkThreadsTest {
    /** Records what it was given and on which thread. */
    private static class Recording implements EventSink {
        final List<SinkEvent> events = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();

        @Override
        public void accept(SinkEvent event) {
            events.add(event);
            if (threads.isEmpty() || threads.getLast() != Thread.currentThread()) {
                threads.add(Thread.currentThread());
            }
        }

        @Override
        public void finish(RunSummary summary) {}
    }

    private static List<SinkEvent> marks(int n) {
        List<SinkEvent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Mark(i, 1, 1, "m" + i, Category.USER));
        }
        return out;
    }

    @Test
    void everySinkGetsEveryEventInOrderOnAThreadOfItsOwn() {
        Recording a = new Recording();
        Recording b = new Recording();
        SinkThreads threads = new SinkThreads(List.of(a, b));
        // several full batches and a partial one, handed on only by finish
        List<SinkEvent> events = marks(SinkThreads.BATCH * 5 + 17);
        events.forEach(threads::accept);
        threads.finish();

        assertEquals(events, a.events);
        assertEquals(events, b.events);
        assertEquals(1, a.threads.size(), "one thread per sink");
        assertEquals(1, b.threads.size());
        assertNotEquals(Thread.currentThread(), a.threads.getFirst());
        assertNotEquals(a.threads.getFirst(), b.threads.getFirst());
        threads.finish(); // a second finish does nothing
        assertEquals(events, a.events);
    }

    @Test
    void aSinkThatReadsNoRegionsIsSparedBatchesOfRegionsAlone() {
        Recording all = new Recording();
        Recording noRegions = new Recording() {
            @Override
            public boolean readsRegions() {
                return false;
            }
        };
        SinkThreads threads = new SinkThreads(List.of(all, noRegions));
        List<SinkEvent> events = new ArrayList<>();
        for (int i = 0; i < SinkThreads.BATCH * 3; i += 2) { // three batches of regions alone
            events.add(new RegionBegin(i, 1, 1, "r", Category.USER, List.of(), RegionMetrics.NONE));
            events.add(new RegionEnd(i + 1, 1, 1, Category.USER, List.of(), RegionMetrics.NONE, false));
        }
        Mark mark = new Mark(SinkThreads.BATCH * 3, 1, 1, "m", Category.USER);
        events.add(mark); // the last, partial batch: one region and the mark
        events.add(new RegionBegin(mark.timestampNs() + 1, 1, 1, "r", Category.USER, List.of(), RegionMetrics.NONE));
        events.forEach(threads::accept);
        threads.finish();

        assertEquals(events, all.events);
        assertEquals(events.subList(events.size() - 2, events.size()), noRegions.events);
    }

    @Test
    void runsReachTheirReadersWholeInOrderCountingTheirRegionsTowardsTheBatch() {
        List<RegionRun> seenRuns = new ArrayList<>();
        Recording readsRuns = new Recording() {
            @Override
            public void acceptRegions(RegionRun run) {
                seenRuns.add(run);
                for (int i = 0; i < run.size(); i++) {
                    accept(run.event(i));
                }
            }
        };
        Recording oneByOne = new Recording(); // the default: each region as its event
        Recording noRegions = new Recording() {
            @Override
            public boolean readsRegions() {
                return false;
            }
        };
        SinkThreads threads = new SinkThreads(List.of(readsRuns, oneByOne, noRegions));
        List<SinkEvent> expected = new ArrayList<>();
        List<RegionRun> runs = new ArrayList<>();
        long t = 0;
        for (int r = 0; r < 12; r++) { // 12 runs of 1000 regions: a batch holds at most 3 of them
            RegionRun run = new RegionRun(1, 1, 8);
            for (int i = 0; i < 500; i++) {
                run.addBegin(t++, "r" + (i % 3), Category.USER);
                run.addEnd(t++, Category.USER);
            }
            runs.add(run);
            threads.acceptRegions(run);
            run.forEachEvent(expected::add);
        }
        Mark mark = new Mark(t, 1, 1, "m", Category.USER);
        threads.accept(mark);
        expected.add(mark);
        threads.finish();

        assertEquals(expected, readsRuns.events);
        assertEquals(runs, seenRuns, "the runs themselves, in order");
        assertEquals(expected, oneByOne.events);
        // the batches of runs alone are spared it; the last batch (runs and the mark) is not
        assertEquals(mark, noRegions.events.getLast());
        assertTrue(noRegions.events.size() < expected.size() / 2, noRegions.events.size() + " events");
    }

    @Test
    void aSinkFailureReachesTheCollectorThreadAndTheOtherSinksGoOn() {
        IOException disk = new IOException("disk full");
        EventSink failing = new EventSink() {
            @Override
            public void accept(SinkEvent event) throws IOException {
                throw disk;
            }

            @Override
            public void finish(RunSummary summary) {}
        };
        Recording other = new Recording();
        SinkThreads threads = new SinkThreads(List.of(failing, other));
        // more batches than the queues hold: the failed sink's thread keeps taking them
        List<SinkEvent> events = marks(SinkThreads.BATCH * 3);
        UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> {
            for (int round = 0; round < 100; round++) {
                events.forEach(threads::accept);
            }
            threads.finish();
        });
        assertSame(disk, thrown.getCause());
    }

    @Test
    void anUncheckedFailureIsRethrownAsItIs() {
        IllegalStateException bug = new IllegalStateException("bug");
        EventSink failing = new EventSink() {
            @Override
            public void accept(SinkEvent event) {
                throw bug;
            }

            @Override
            public void finish(RunSummary summary) {}
        };
        SinkThreads threads = new SinkThreads(List.of(failing));
        marks(3).forEach(threads::accept);
        assertSame(bug, assertThrows(IllegalStateException.class, threads::finish));
    }
}
