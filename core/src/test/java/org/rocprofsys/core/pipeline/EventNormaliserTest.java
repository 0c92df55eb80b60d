package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.tracetest.EventStream;

class EventNormaliserTest {
    static final int PID = 100;

    private static List<SinkEvent> run(List<TraceEvent> events, long finishNs) {
        List<SinkEvent> out = new ArrayList<>();
        EventNormaliser n = new EventNormaliser(out::add);
        events.forEach(n);
        n.finish(finishNs);
        return out;
    }

    /** A stream in PID whose thread 101 (number 1) starts at 0. */
    private static EventStream thread101() {
        return EventStream.at(0).in(PID).threadStarted(0, 101, 1);
    }

    private static List<RegionEnd> forcedEnds(List<SinkEvent> out) {
        return out.stream()
                .filter(e -> e instanceof RegionEnd r && r.forced())
                .map(RegionEnd.class::cast)
                .toList();
    }

    @Test
    void regionsOpenAtAnAbruptThreadEndCloseThereInnermostFirst() {
        List<SinkEvent> out = run(
                thread101()
                        .category(Category.HOST)
                        .begin(1, 101, "outer")
                        .category(Category.USER)
                        .begin(2, 101, "inner")
                        .threadEndedAbruptly(5, 101)
                        .events(),
                99);
        assertEquals(6, out.size());
        List<RegionEnd> forced = forcedEnds(out);
        assertEquals(2, forced.size());
        assertEquals(
                List.of(Category.USER, Category.HOST),
                forced.stream().map(RegionEnd::category).toList());
        forced.forEach(e -> {
            assertEquals(5, e.timestampNs());
            assertEquals(101, e.tid());
            assertEquals(List.of(), e.annotations());
            assertEquals(RegionMetrics.NONE, e.metrics());
        });
        assertTrue(out.getLast() instanceof ThreadEnded, "the thread's end comes after its regions' ends");
    }

    @Test
    void processEndClosesEveryThreadOfThatProcessOnly() {
        List<SinkEvent> out = run(
                EventStream.at(0)
                        .in(PID)
                        .begin(1, PID, "main")
                        .begin(2, 101, "worker")
                        .in(200)
                        .begin(3, 200, "other")
                        .in(PID)
                        .processEnded(10, ProcessEnd.KILLED_BY_SIGNAL, 9)
                        .events(),
                50);
        List<RegionEnd> forced = forcedEnds(out);
        assertEquals(3, forced.size());
        assertEquals(
                2,
                forced.stream()
                        .filter(e -> e.pid() == PID && e.timestampNs() == 10)
                        .count());
        assertTrue(out.get(out.size() - 2) instanceof ProcessEnded, "the other process's region stays open");
        RegionEnd last = (RegionEnd) out.getLast();
        assertEquals(200, last.pid());
        assertEquals(50, last.timestampNs(), "closed when the run finishes");
    }

    @Test
    void aThreadEndsOnceAndARestartedThreadNumberClosesTheOldRegions() {
        List<SinkEvent> out = run(
                thread101()
                        .begin(1, 101, "a")
                        .end(2, 101)
                        .threadEnded(3, 101)
                        .threadEndedAbruptly(9, 101)
                        .threadStarted(10, 102, 2)
                        .begin(11, 102, "b")
                        .threadStarted(12, 102, 3)
                        .threadEnded(13, 102)
                        .events(),
                20);
        assertEquals(2, out.stream().filter(e -> e instanceof ThreadEnded).count());
        assertFalse(out.stream().anyMatch(e -> e instanceof ThreadEnded t && t.timestampNs() == 9));
        List<RegionEnd> forced = forcedEnds(out);
        assertEquals(1, forced.size());
        assertEquals(12, forced.getFirst().timestampNs());
        assertTrue(out.get(out.indexOf(forced.getFirst()) + 1) instanceof ThreadStarted);
    }

    @Test
    void aThreadOfANewImageEndsAgainAfterItsProcessEnded() {
        List<SinkEvent> out = run(
                EventStream.at(0)
                        .in(PID)
                        .threadEnded(1, PID)
                        .processEnded(2, ProcessEnd.EXEC, 0)
                        .processStarted(3, "next")
                        .threadEnded(4, PID)
                        .events(),
                9);
        assertEquals(2, out.stream().filter(e -> e instanceof ThreadEnded).count());
    }

    @Test
    void endsWithoutBeginsAndPipelineOnlyEventsStopHere() {
        List<SinkEvent> out = run(
                EventStream.at(0)
                        .in(PID)
                        .end(1, PID)
                        .traceControl(2, PID, false, true)
                        .add(new AgentStackSample(
                                3, PID, PID, StackSample.Kind.CPU, 0, new long[] {1}, new long[0], new byte[0]))
                        .region(4, 5, PID, "r")
                        .events(),
                9);
        assertEquals(2, out.size());
        assertFalse(((RegionEnd) out.get(1)).forced());
    }

    @Test
    void balancedStreamsPassUnchanged() {
        List<TraceEvent> in = EventStream.at(7)
                .in(PID)
                .processStarted(0, "app")
                .threadStarted(0, PID, 0)
                .region(1, 2, PID, "a")
                .mark(3, PID, "m")
                .fork(4, PID, 300)
                .recordsDropped(5, PID, 1)
                .sample(6, PID, StackSample.Kind.WALL, 1, "main")
                .threadEnded(8, PID)
                .processEnded(9, ProcessEnd.EXITED, 0)
                .events();
        assertEquals(in, run(in, 100));
    }
}
