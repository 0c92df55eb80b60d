package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;

class CollectionFilterTest {
    private static final long MS = 1_000_000L;
    private final List<TraceEvent> out = new ArrayList<>();

    private static RegionBegin begin(long t, String name) {
        return new RegionBegin(t, 1, 1, name, Category.USER, List.of(), RegionMetrics.NONE);
    }

    private static RegionEnd end(long t) {
        return new RegionEnd(t, 1, 1, Category.USER, List.of(), RegionMetrics.NONE, false);
    }

    private List<String> names() {
        return out.stream()
                .map(e -> e instanceof RegionBegin b ? "+" + b.name() : e instanceof RegionEnd ? "-" : "p")
                .toList();
    }

    @Test
    void regionsBeginningOutsideTheWindowAreDroppedWithTheirEnds() {
        CollectionFilter f =
                new CollectionFilter(new TraceWindows(List.of(TraceWindows.parse("0.75:0.75"))), true, out::add);
        long t0 = 1000 * MS;
        f.accept(new ProcessStarted(t0, 1, 0, "/bin/app", List.of("app"), 0, 0));
        f.accept(begin(t0, "main"));
        // examples/trace-time-window: five calls of 490 ms each; the window is [750 ms, 1500 ms)
        for (int i = 0; i < 5; i++) {
            f.accept(begin(t0 + i * 490 * MS, "outer_" + (char) ('a' + i)));
            f.accept(end(t0 + (i + 1) * 490 * MS));
        }
        f.accept(end(t0 + 2500 * MS));
        assertEquals(List.of("p", "+outer_c", "-", "+outer_d", "-"), names());
    }

    @Test
    void stopAndStartTraceFromTheProgram() {
        CollectionFilter f = new CollectionFilter(new TraceWindows(List.of()), false, out::add);
        f.accept(new ProcessStarted(0, 1, 0, "/bin/app", List.of("app"), 0, 0));
        f.accept(begin(1, "before-start"));
        f.accept(new TraceControl(2, 1, 1, true, true));
        f.accept(begin(3, "kept"));
        f.accept(new TraceControl(4, 1, 1, false, false));
        f.accept(end(5));
        f.accept(begin(6, "thread-off"));
        f.accept(end(7));
        f.accept(end(8));
        assertEquals(List.of("p", "+kept", "-"), names());
    }

    @Test
    void unmatchedEndIsDropped() {
        CollectionFilter f = new CollectionFilter(new TraceWindows(List.of()), true, out::add);
        f.accept(end(1));
        f.accept(begin(2, "a"));
        f.accept(end(3));
        assertEquals(List.of("+a", "-"), names());
    }
}
