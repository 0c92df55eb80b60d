package org.rocprofsys.core.event;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A random stream of one process's events on two threads, mostly plain regions (with orphan ends),
 * and trace control, marks, thread ends with regions open and regions with readings between them:
 * for the tests that a {@link RegionRun} reads as the events it stands for.
 */
public final class RandomRegionStream {
    private static final long MS = 1_000_000L;

    private RandomRegionStream() {}

    public static List<TraceEvent> of(long seed) {
        Random r = new Random(seed);
        List<TraceEvent> out = new ArrayList<>();
        long t = 1000 * MS;
        out.add(new ProcessStarted(t, 1, 0, "/bin/app", List.of("app"), 0, 0));
        Set<Category> categories = EnumSet.of(Category.USER, Category.HOST, Category.PYTHON);
        Category[] cs = categories.toArray(Category[]::new);
        int[] started = {0, 0};
        for (int i = 0; i < 600; i++) {
            t += r.nextInt(40_000);
            int tid = 1 + r.nextInt(2);
            int k = r.nextInt(100);
            Category c = cs[r.nextInt(cs.length)];
            if (started[tid - 1] == 0) {
                out.add(new ThreadStarted(t, 1, tid, tid - 1));
                started[tid - 1] = 1;
            } else if (k < 45) {
                out.add(new RegionBegin(t, 1, tid, "r" + r.nextInt(5), c, List.of(), RegionMetrics.NONE));
            } else if (k < 90) {
                out.add(new RegionEnd(t, 1, tid, c, List.of(), RegionMetrics.NONE, false)); // some are orphans
            } else if (k < 93) {
                out.add(new TraceControl(t, 1, tid, r.nextBoolean(), r.nextBoolean()));
            } else if (k < 96) {
                out.add(new Mark(t, 1, tid, "m", c));
            } else if (k < 98) {
                out.add(new ThreadEnded(t, 1, tid, false));
                started[tid - 1] = 0;
            } else {
                out.add(new RegionBegin(
                        t, 1, tid, "with-readings", c, List.of(), new RegionMetrics(1, 2, 3))); // not in a run
            }
        }
        return out;
    }
}
