package org.rocprofsys.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.perfetto.PerfettoSink;

/**
 * Benchmark 3: bytes of {@code perfetto-trace.proto} per slice event (a region begin or end),
 * written by the real {@link PerfettoSink} for a {@link SyntheticRun} (4 threads, nested regions,
 * 50 ns to 50 µs apart). Baseline: the same events as Chrome JSON ({@link ChromeJsonSize}), in the
 * same run. Two variants: debug annotations off (the slices alone: the budget's case) and on
 * ({@code ROCPROFSYS_PERFETTO_ANNOTATIONS}'s default, which adds begin_ns / end_ns to every event).
 * Budget: 12 B per event (OTF2's ~24 B per enter+leave).
 */
final class PerfettoSizeBench {
    static final double GOAL_BYTES = 12;

    private PerfettoSizeBench() {}

    static List<Result> run(Env env) throws Exception {
        long events = env.size(4_000_000, 400_000);
        List<Result> results = new ArrayList<>();
        Path dir = env.scratch("perfetto");
        try {
            for (boolean annotations : new boolean[] {false, true}) {
                SyntheticRun run = new SyntheticRun(4, events, 4096);
                Path file = dir.resolve("perfetto-trace-" + annotations + ".proto");
                PerfettoSink sink = new PerfettoSink(
                        file, new PerfettoSink.Options(annotations, SyntheticRun.REALTIME_OFFSET_NS, "bench_app"));
                long slices = run.emit(sink);
                RunSummary summary = new RunSummary(
                        run.endNs(), SyntheticRun.REALTIME_OFFSET_NS, SyntheticRun.PID, "bench_app", Map.of());
                sink.finish(summary);
                long pb = Files.size(file);
                Files.delete(file);

                ChromeJsonSize json = new ChromeJsonSize(annotations, SyntheticRun.REALTIME_OFFSET_NS);
                long jsonSlices = run.emit(json);
                json.finish(summary);
                if (jsonSlices != slices) {
                    throw new IllegalStateException("event streams differ: " + slices + " vs " + jsonSlices);
                }
                double perEvent = (double) pb / slices;
                double jsonPerEvent = (double) json.bytes() / slices;
                String variant = annotations ? "annotations on (default)" : "annotations off";
                System.out.printf(
                        Locale.ROOT,
                        "perfetto [%s]: %d slice events, %d bytes = %.2f B/event; Chrome JSON %d bytes = %.2f B/event;"
                                + " ratio %.3f%n",
                        variant,
                        slices,
                        pb,
                        perEvent,
                        json.bytes(),
                        jsonPerEvent,
                        perEvent / jsonPerEvent);
                results.add(new Result(
                        "Perfetto bytes/slice event, " + (annotations ? "annot. on" : "annot. off"),
                        perEvent,
                        "B",
                        "Chrome JSON, same events",
                        jsonPerEvent,
                        "B",
                        perEvent / jsonPerEvent,
                        GOAL_BYTES,
                        false));
            }
        } finally {
            Main.deleteTree(dir);
        }
        return results;
    }
}
