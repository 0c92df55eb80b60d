package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;

/** A small DSL for event streams in tests: times in nanoseconds. */
final class Events {
    final List<SinkEvent> list = new ArrayList<>();
    final int pid;

    Events(int pid) {
        this.pid = pid;
    }

    /** A program {@code exe} started at 0 with its main thread (number 0, tid = pid). */
    static Events program(int pid, String exe) {
        return new Events(pid).process(0, exe).thread(0, pid, 0);
    }

    Events process(long t, String exe) {
        list.add(new ProcessStarted(t, pid, 1, exe, List.of(exe), 0, 0));
        return this;
    }

    Events thread(long t, int tid, int seq) {
        list.add(new ThreadStarted(t, pid, tid, seq));
        return this;
    }

    Events begin(long t, int tid, String name) {
        return begin(t, tid, name, RegionMetrics.NONE);
    }

    Events begin(long t, int tid, String name, RegionMetrics m) {
        return begin(t, tid, name, Category.USER, m);
    }

    /** A region of another category than user (host: the program's own region; python: the hooks'). */
    Events begin(long t, int tid, String name, Category c) {
        return begin(t, tid, name, c, RegionMetrics.NONE);
    }

    private Events begin(long t, int tid, String name, Category c, RegionMetrics m) {
        list.add(new RegionBegin(t, pid, tid, name, c, List.of(), m));
        return this;
    }

    Events end(long t, int tid) {
        return end(t, tid, RegionMetrics.NONE, false);
    }

    Events end(long t, int tid, Category c) {
        list.add(new RegionEnd(t, pid, tid, c, List.of(), RegionMetrics.NONE, false));
        return this;
    }

    Events end(long t, int tid, RegionMetrics m, boolean forced) {
        list.add(new RegionEnd(t, pid, tid, Category.USER, List.of(), m, forced));
        return this;
    }

    /** A complete region [t0, t1] on {@code tid}. */
    Events region(long t0, long t1, int tid, String name) {
        return begin(t0, tid, name).end(t1, tid);
    }

    Events threadEnd(long t, int tid, boolean abrupt) {
        list.add(new ThreadEnded(t, pid, tid, abrupt));
        return this;
    }

    Events processEnd(long t) {
        list.add(new ProcessEnded(t, pid, ProcessEnd.EXITED, 0));
        return this;
    }

    static RunSummary summary(long endNs, int rootPid) {
        return new RunSummary(endNs, 0, rootPid, "app", Map.of());
    }

    static final long MS = 1_000_000L;
}
