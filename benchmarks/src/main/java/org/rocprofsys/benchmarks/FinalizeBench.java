package org.rocprofsys.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.perfetto.PerfettoSink;
import org.rocprofsys.core.timemory.TimemoryOptions;
import org.rocprofsys.core.timemory.TimemorySink;

/**
 * Benchmark 4: the time to finish a run's outputs, per 10 M events. A {@link SyntheticRun} of
 * 10 M region events (4 threads, 292 call paths each) streams through the two writers of a default
 * traced and profiled run, in the collector's order: {@link PerfettoSink} (default options:
 * annotations on) then {@link TimemorySink} (defaults: wall_clock, text + JSON + tree). Timed
 * separately: {@code accept()} of every event (streaming, done while the target runs) and
 * {@code finish()} (what is left when it has ended). Baseline in the same run: the same stream
 * into a sink that does nothing (the cost of making the events). A 1 M-event pass first warms the
 * JIT. Budget: 1 s per 10 M events for finish().
 */
final class FinalizeBench {
    static final double GOAL_S = 1.0;
    static final double PER = 10_000_000;

    private FinalizeBench() {}

    private static final class Fan implements EventSink {
        private final List<EventSink> sinks;

        Fan(List<EventSink> sinks) {
            this.sinks = sinks;
        }

        @Override
        public void accept(SinkEvent event) throws IOException {
            for (EventSink s : sinks) {
                s.accept(event);
            }
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            for (EventSink s : sinks) {
                s.finish(summary);
            }
        }
    }

    private static final class Nothing implements EventSink {
        long n;

        @Override
        public void accept(SinkEvent event) {
            n += event.timestampNs() & 1;
        }

        @Override
        public void finish(RunSummary summary) {}
    }

    static List<Result> run(Env env) throws Exception {
        // 10 M events even with --quick: finish() depends on the call graph, not linearly on the
        // events, so a smaller run scaled up would misstate it (and 10 M take a few seconds)
        long events = 10_000_000;
        Path dir = env.scratch("finalize");
        try {
            pass(dir.resolve("warm-up"), new SyntheticRun(4, Math.min(events, 1_000_000), 4096)); // JIT warm-up

            SyntheticRun run = new SyntheticRun(4, events, 4096);
            long g0 = System.nanoTime();
            long slices = run.emit(new Nothing());
            double gen = (System.nanoTime() - g0) / 1e9;

            Times t = pass(dir.resolve("measured"), run);
            double scale = PER / slices;
            double acceptNet = t.accept - gen;
            double finish = t.finishPerfetto + t.finishTimemory;
            System.out.printf(
                    Locale.ROOT,
                    "finalize: %d region events, 4 threads: making the events %.2f s; accept() into Perfetto + timemory"
                            + " %.2f s (%.2f s beyond making them); finish() %.3f s (Perfetto %.3f s, timemory %.3f s);"
                            + " trace %.1f MB, profiles %.1f kB%n",
                    slices,
                    gen,
                    t.accept,
                    acceptNet,
                    finish,
                    t.finishPerfetto,
                    t.finishTimemory,
                    t.traceBytes / 1e6,
                    t.profileBytes / 1e3);
            List<Result> r = new ArrayList<>();
            r.add(new Result(
                    "finalize: finish() per 10M events",
                    finish * scale,
                    "s",
                    "accept() streaming, same events",
                    acceptNet * scale,
                    "s",
                    finish / acceptNet,
                    GOAL_S,
                    false));
            r.add(new Result(
                    "  accept()+finish() per 10M events",
                    (acceptNet + finish) * scale,
                    "s",
                    "making the events only",
                    gen * scale,
                    "s",
                    (acceptNet + finish) / gen,
                    Double.NaN,
                    false));
            return r;
        } finally {
            Main.deleteTree(dir);
        }
    }

    private record Times(
            double accept, double finishPerfetto, double finishTimemory, long traceBytes, long profileBytes) {}

    private static Times pass(Path dir, SyntheticRun run) throws IOException {
        Files.createDirectories(dir);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        Path trace = dir.resolve("perfetto-trace.proto");
        PerfettoSink perfetto =
                new PerfettoSink(trace, new PerfettoSink.Options(true, SyntheticRun.REALTIME_OFFSET_NS, "bench_app"));
        TimemorySink timemory = new TimemorySink(TimemoryOptions.defaults(), paths(dir), quiet, quiet);
        Fan fan = new Fan(List.of(perfetto, timemory));
        long t0 = System.nanoTime();
        run.emit(fan);
        long t1 = System.nanoTime();
        RunSummary summary =
                new RunSummary(run.endNs(), SyntheticRun.REALTIME_OFFSET_NS, SyntheticRun.PID, "bench_app", Map.of());
        perfetto.finish(summary);
        long t2 = System.nanoTime();
        timemory.finish(summary);
        long t3 = System.nanoTime();
        long traceBytes = Files.size(trace);
        long profileBytes = Main.treeSize(dir) - traceBytes;
        Main.deleteTree(dir);
        return new Times((t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, traceBytes, profileBytes);
    }

    static OutputPaths paths(Path dir) {
        return BenchPaths.of(
                dir, dir, "./bench_app", SyntheticRun.PID, ZonedDateTime.of(2025, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
    }
}
