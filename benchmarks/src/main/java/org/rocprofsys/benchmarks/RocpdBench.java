package org.rocprofsys.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.perfetto.PerfettoSink;
import org.rocprofsys.core.rocpd.RocpdSink;

/**
 * Benchmark 9: region events into the rocpd database. 10 M region events of a {@link SyntheticRun}
 * (4 threads, 292 call paths) stream into {@link RocpdSink} as the collector hands them over;
 * timed: accept() of every event plus finish() (the last commit, the journal removed), on the
 * wall clock and in the process's CPU time (the sink's SQLite thread included).
 * Figures: events per second, bytes of database per event, and the writer's memory: the JVM heap
 * in use after a full GC at every 2 M events of a second pass (last / first). Baseline in the same
 * run: the same events into {@link PerfettoSink}. Goal: >= 2 M events/s.
 */
final class RocpdBench {
    static final double GOAL_EVENTS_PER_S = 2_000_000;

    private RocpdBench() {}

    /** Passes events on and takes the heap in use after a GC every {@code every} events. */
    private static final class HeapProbe implements EventSink {
        private final EventSink next;
        private final long every;
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        final List<Long> heap = new ArrayList<>();
        private long n;

        HeapProbe(EventSink next, long every) {
            this.next = next;
            this.every = every;
        }

        @Override
        public void accept(SinkEvent event) throws IOException {
            next.accept(event);
            if (++n % every == 0) {
                System.gc();
                heap.add(memory.getHeapMemoryUsage().getUsed());
            }
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            next.finish(summary);
        }
    }

    static List<Result> run(Env env) throws Exception {
        long events = env.size(10_000_000, 1_000_000);
        Path dir = env.scratch("rocpd");
        try {
            // JIT warm-up of both writers
            rocpd(dir.resolve("warm.db"), new SyntheticRun(4, Math.min(events, 1_000_000), 4096), null);
            perfetto(dir.resolve("warm.proto"), new SyntheticRun(4, Math.min(events, 1_000_000), 4096));

            SyntheticRun run = new SyntheticRun(4, events, 4096);
            Path db = dir.resolve("rocpd.db");
            long c0 = processCpuNs();
            long t0 = System.nanoTime();
            long slices = rocpd(db, run, null);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (processCpuNs() - c0) / 1e9;
            long bytes = Files.size(db);
            Files.delete(db);

            long pc0 = processCpuNs();
            long p0 = System.nanoTime();
            perfetto(dir.resolve("perfetto.proto"), run);
            double perfettoSeconds = (System.nanoTime() - p0) / 1e9;
            double perfettoCpuSeconds = (processCpuNs() - pc0) / 1e9;

            List<Long> heap = new ArrayList<>();
            rocpd(dir.resolve("memory.db"), run, heap);
            double growth = heap.size() < 2 ? 1 : (double) heap.getLast() / heap.getFirst();

            double rate = slices / seconds;
            double perfettoRate = slices / perfettoSeconds;
            System.out.printf(
                    Locale.ROOT,
                    "rocpd: %d region events, 4 threads: %.2f s (%.2f M events/s, process CPU %.2f s), %.1f MB"
                            + " (%.1f B/event); Perfetto %.2f s (%.2f M events/s, process CPU %.2f s); heap after"
                            + " GC every 2 M events: %s MB%n",
                    slices,
                    seconds,
                    rate / 1e6,
                    cpuSeconds,
                    bytes / 1e6,
                    (double) bytes / slices,
                    perfettoSeconds,
                    perfettoRate / 1e6,
                    perfettoCpuSeconds,
                    heap.stream()
                            .map(h -> String.format(Locale.ROOT, "%.1f", h / 1e6))
                            .toList());
            List<Result> r = new ArrayList<>();
            r.add(new Result(
                    "rocpd: region events/s into SQLite",
                    rate,
                    "ev/s",
                    "the same events into Perfetto",
                    perfettoRate,
                    "ev/s",
                    rate / perfettoRate,
                    GOAL_EVENTS_PER_S,
                    true));
            r.add(new Result(
                    "  rocpd: events per process CPU second",
                    slices / cpuSeconds,
                    "ev/s",
                    "the same events into Perfetto",
                    slices / perfettoCpuSeconds,
                    "ev/s",
                    (slices / cpuSeconds) / (slices / perfettoCpuSeconds),
                    Double.NaN,
                    true));
            r.add(new Result(
                    "  rocpd: bytes per region event",
                    (double) bytes / slices,
                    "B",
                    "events",
                    slices,
                    "",
                    Double.NaN,
                    Double.NaN,
                    false));
            r.add(new Result(
                    "  rocpd: writer heap, last / first checkpoint",
                    growth,
                    "x",
                    "heap at the first checkpoint",
                    heap.isEmpty() ? 0 : heap.getFirst() / 1e6,
                    "MB",
                    growth,
                    1.10,
                    false));
            return r;
        } finally {
            Main.deleteTree(dir);
        }
    }

    /** CPU time of the whole process (the writer's SQLite thread included), in ns. */
    private static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long rocpd(Path db, SyntheticRun run, List<Long> heap) throws IOException {
        RocpdSink sink = RocpdSink.create(db, SyntheticRun.PID);
        EventSink target = sink;
        HeapProbe probe = null;
        if (heap != null) {
            probe = new HeapProbe(sink, 2_000_000);
            target = probe;
        }
        long slices = run.emit(target);
        target.finish(summary(run));
        if (probe != null) {
            heap.addAll(probe.heap);
        }
        return slices;
    }

    private static void perfetto(Path file, SyntheticRun run) throws IOException {
        PerfettoSink sink =
                new PerfettoSink(file, new PerfettoSink.Options(false, SyntheticRun.REALTIME_OFFSET_NS, "bench_app"));
        run.emit(sink);
        sink.finish(summary(run));
        Files.delete(file);
    }

    private static RunSummary summary(SyntheticRun run) {
        return new RunSummary(run.endNs(), SyntheticRun.REALTIME_OFFSET_NS, SyntheticRun.PID, "bench_app", Map.of());
    }
}
