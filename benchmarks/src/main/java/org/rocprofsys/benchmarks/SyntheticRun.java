package org.rocprofsys.benchmarks;

import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;

/**
 * A synthetic, deterministic event stream shaped like what the collector delivers for an
 * annotated program: one process, {@code threads} threads, the main region on thread 0 (category
 * host, named after the executable, as the agent opens it), and on every thread user regions
 * nested three deep with names drawn from 4, 8 and 8 names (the call paths of
 * {@code region_stream.c}: 292 distinct per thread), six events per outer iteration. Threads are
 * interleaved in batches of {@code batch} events per thread, as the collector drains one ring after
 * another. Gaps between consecutive events of a thread are log-uniform between 50 ns and 50 µs
 * (median about 1.6 µs), seeded, so every run produces the same stream.
 */
final class SyntheticRun {
    static final int PID = 4242;
    static final String EXECUTABLE = "/opt/app/bin/bench_app";
    /** CLOCK_MONOTONIC at the start: three days of uptime. */
    static final long START_NS = 3L * 86_400 * 1_000_000_000L + 123_456_789L;
    /** CLOCK_REALTIME minus CLOCK_MONOTONIC: a 2025 wall clock. */
    static final long REALTIME_OFFSET_NS = 1_750_000_000_000_000_000L;

    private static final String[] OUTER = names("outer_", 4);
    private static final String[] MIDDLE = names("middle_", 8);
    private static final String[] INNER = names("inner_0", 8);

    private final int threads;
    private final long regionEvents;
    private final int batch;
    private long endNs;

    /**
     * @param threads      threads (tids PID+1 ..)
     * @param regionEvents region begin + end events to produce over all threads (rounded up to a
     *                     multiple of 6 per thread), besides the main region's two
     * @param batch        events of one thread delivered before the next thread's
     */
    SyntheticRun(int threads, long regionEvents, int batch) {
        this.threads = threads;
        this.regionEvents = regionEvents;
        this.batch = batch;
    }

    private static String[] names(String prefix, int n) {
        String[] s = new String[n];
        for (int i = 0; i < n; i++) {
            s[i] = prefix + i;
        }
        return s;
    }

    /** Streams every event into {@code out}; returns the number of region (slice) events. */
    long emit(EventSink out) throws IOException {
        SplittableRandom rnd = new SplittableRandom(20250101L);
        long perThread = (regionEvents / threads + 5) / 6 * 6;
        long[] time = new long[threads];
        long[] done = new long[threads];
        String exe = EXECUTABLE.substring(EXECUTABLE.lastIndexOf('/') + 1);
        out.accept(new ProcessStarted(START_NS, PID, 1, EXECUTABLE, List.of(EXECUTABLE), 0, 0));
        for (int t = 0; t < threads; t++) {
            time[t] = START_NS + 1000L * t;
            out.accept(new ThreadStarted(time[t], PID, tid(t), t));
        }
        out.accept(new RegionBegin(START_NS + 500, PID, tid(0), exe, Category.HOST, List.of(), RegionMetrics.NONE));
        long slices = 2;
        boolean more = true;
        while (more) {
            more = false;
            for (int t = 0; t < threads; t++) {
                int tid = tid(t);
                long end = Math.min(perThread, done[t] + batch);
                for (long i = done[t]; i < end; i++) {
                    long j = i / 6;
                    int step = (int) (i % 6);
                    time[t] += gap(rnd);
                    SinkEvent e = switch (step) {
                        case 0 -> begin(time[t], tid, OUTER[(int) (j & 3)]);
                        case 1 -> begin(time[t], tid, MIDDLE[(int) ((j >> 2) & 7)]);
                        case 2 -> begin(time[t], tid, INNER[(int) ((j >> 5) & 7)]);
                        default ->
                            new RegionEnd(time[t], PID, tid, Category.USER, List.of(), RegionMetrics.NONE, false);
                    };
                    out.accept(e);
                }
                slices += end - done[t];
                done[t] = end;
                more |= end < perThread;
            }
        }
        long last = 0;
        for (long t : time) {
            last = Math.max(last, t);
        }
        out.accept(new RegionEnd(last + 100, PID, tid(0), Category.HOST, List.of(), RegionMetrics.NONE, false));
        for (int t = threads - 1; t >= 0; t--) {
            out.accept(new ThreadEnded(last + 200, PID, tid(t), false));
        }
        out.accept(new ProcessEnded(last + 300, PID, ProcessEnd.EXITED, 0));
        endNs = last + 300;
        return slices;
    }

    /** CLOCK_MONOTONIC of the last event of the latest {@link #emit}. */
    long endNs() {
        return endNs;
    }

    private static RegionBegin begin(long ns, int tid, String name) {
        return new RegionBegin(ns, PID, tid, name, Category.USER, List.of(), RegionMetrics.NONE);
    }

    private static int tid(int t) {
        return PID + t + (t == 0 ? 0 : 1);
    }

    /** Log-uniform in [50 ns, 50 µs], from a table so that drawing costs little. */
    private static long gap(SplittableRandom rnd) {
        return GAPS[rnd.nextInt(GAPS.length)];
    }

    private static final long[] GAPS = new long[1 << 16];

    static {
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < GAPS.length; i++) {
            GAPS[i] = (long) (50.0 * Math.pow(1000.0, r.nextDouble()));
        }
    }
}
