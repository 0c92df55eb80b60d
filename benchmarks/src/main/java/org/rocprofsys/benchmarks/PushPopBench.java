package org.rocprofsys.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark 1: user-API region push+pop cost per pair, with the real collector draining.
 *
 * <p>Runs {@code benchmarks/target/native/push_pop} under {@code rocprof-sys-run}, which writes
 * the Perfetto trace and the wall_clock profile ({@code ROCPROFSYS_TRACE=ON ROCPROFSYS_PROFILE=ON})
 * from what its collector drains while the loop runs. Three runs:
 * <ul>
 * <li><b>recorded</b>: the default full-ring policy (drop), with a ring large enough for one
 * repetition ({@code ROCPROFSYS_RING_BUFFER_SIZE_KB}); the program lets the collector empty the
 * ring before each repetition, so every pair is written and none dropped. The budget's case:
 * the cost of recording a pair while the collector drains on the other core.</li>
 * <li><b>default</b>: default settings (1 MiB ring; when it is full the loop waits while the
 * collector frees space, {@code ROCPROFSYS_RING_BUFFER_STALL_MS}): nothing is lost, and the figure
 * is the collector's pace.</li>
 * <li><b>no wait</b>: {@code ROCPROFSYS_RING_BUFFER_STALL_MS=0} (the default before it waited):
 * the collector cannot keep up with a loop doing nothing else, so most records are dropped (and
 * counted); the figure is mostly the drop path's cost, and the drop rate is reported.</li>
 * <li><b>lossless</b>: {@code ROCPROFSYS_RING_BUFFER_LOSSLESS=ON}, 1 MiB ring: the loop waits
 * for the collector, so nothing is lost and the figure is the collector's pace.</li>
 * </ul>
 * Figure: median over repetitions of ns per pair minus the empty loop of the same repetition;
 * budget 15 ns. The two-clock_gettime loop of the same run shows the floor that a pair stamped
 * with CLOCK_MONOTONIC cannot go below; the two-rdtsc loop, the floor with TSC stamps.
 */
final class PushPopBench {
    static final double GOAL_NS = 15;
    /** Bytes one pair takes in the ring: BEGIN (16 + "bench\0" padded to 8) + END (16). */
    static final long BYTES_PER_PAIR = 40;

    private PushPopBench() {}

    private enum Variant {
        RECORDED("recorded (ring holds a repetition)"),
        DEFAULT("default settings (wait while the collector drains)"),
        NO_WAIT("no wait (STALL_MS=0: drop when full)"),
        LOSSLESS("lossless");

        final String label;

        Variant(String label) {
            this.label = label;
        }
    }

    static List<Result> run(Env env) throws Exception {
        long pairs = env.size(2_000_000, 300_000);
        int reps = (int) env.size(7, 3);
        List<Result> results = new ArrayList<>();
        for (Variant v : Variant.values()) {
            Path out = env.scratch("pushpop");
            try {
                Map<String, String> settings = new HashMap<>(Map.of(
                        "ROCPROFSYS_TRACE", "ON",
                        "ROCPROFSYS_PROFILE", "ON",
                        "ROCPROFSYS_RING_BUFFER_LOSSLESS", v == Variant.LOSSLESS ? "ON" : "OFF"));
                if (v == Variant.NO_WAIT) {
                    settings.put("ROCPROFSYS_RING_BUFFER_STALL_MS", "0");
                }
                if (v == Variant.RECORDED) {
                    long kb = Long.highestOneBit(Math.max(1024, pairs * BYTES_PER_PAIR * 5 / 4 / 1024) - 1) << 1;
                    settings.put("ROCPROFSYS_RING_BUFFER_SIZE_KB", Long.toString(kb));
                    settings.put("ROCPROFSYS_RING_BUFFER_MAX_THREADS", "4");
                }
                Env.Outcome o = Env.run(
                                env.underRun("push_pop", Long.toString(pairs), Integer.toString(reps)),
                                env.profiledEnvironment(out, settings),
                                out,
                                null,
                                0)
                        .check("rocprof-sys-run -- push_pop");
                Map<String, String> kv = Main.keyValues(o.stdout());
                if (!"1".equals(kv.get("bound"))) {
                    throw new IllegalStateException("push_pop did not bind to the agent:\n" + o.stdout() + o.stderr());
                }
                double empty = Main.number(kv, "empty_loop_ns");
                double clock = Main.number(kv, "two_clock_gettime_ns");
                double tsc = kv.containsKey("two_rdtsc_ns") ? Main.number(kv, "two_rdtsc_ns") : Double.NaN;
                double pp = Main.number(kv, "push_pop_ns");
                double net = Main.number(kv, "push_pop_minus_empty_ns");
                double netMin = Main.number(kv, "push_pop_minus_empty_min_ns");
                double attempted = Main.number(kv, "records_attempted");
                double dropped = Main.number(kv, "records_dropped");
                System.out.printf(
                        Locale.ROOT,
                        "push_pop [%s]: %d pairs x %d reps: push+pop %.2f ns/pair, empty loop %.2f ns, "
                                + "net %.2f ns (best rep %.2f), 2x clock_gettime %.2f ns, 2x rdtsc %.2f ns; records dropped"
                                + " %.0f of %.0f (%.1f %%); run took %.1f s%n",
                        v.label,
                        pairs,
                        reps,
                        pp,
                        empty,
                        net,
                        netMin,
                        clock,
                        tsc,
                        dropped,
                        attempted,
                        100 * dropped / attempted,
                        o.wallSeconds());
                for (String l : o.stderr().split("\n")) {
                    if (l.startsWith("push_pop:") || l.contains("dropped")) {
                        System.out.println("  " + l);
                    }
                }
                String name = switch (v) {
                    case RECORDED -> "push+pop per pair, recorded";
                    case DEFAULT -> "push+pop per pair, default settings";
                    case NO_WAIT -> "push+pop per pair, no wait (STALL_MS=0)";
                    case LOSSLESS -> "push+pop per pair, lossless";
                };
                results.add(new Result(
                        name,
                        net,
                        "ns",
                        "empty loop (ns/iteration)",
                        empty,
                        "ns",
                        pp / Math.max(empty, 1e-9),
                        GOAL_NS,
                        false));
                if (v != Variant.NO_WAIT && !Double.isNaN(tsc)) {
                    // the end-to-end figure against its floor: two time stamps per pair
                    results.add(new Result(
                            "  " + v.name().toLowerCase(Locale.ROOT) + ", vs two rdtsc",
                            net,
                            "ns",
                            "2x rdtsc",
                            tsc,
                            "ns",
                            net / tsc,
                            GOAL_NS,
                            false));
                }
                if (v == Variant.RECORDED) {
                    results.add(new Result(
                            "  recorded, vs two clock_gettime",
                            net,
                            "ns",
                            "2x clock_gettime(MONOTONIC)",
                            clock,
                            "ns",
                            net / clock,
                            GOAL_NS,
                            false));
                }
                if (v != Variant.LOSSLESS) {
                    results.add(new Result(
                            "  records dropped, " + v.name().toLowerCase(Locale.ROOT),
                            100 * dropped / attempted,
                            "%",
                            "records attempted",
                            attempted,
                            "records",
                            dropped / attempted,
                            Double.NaN,
                            false));
                }
            } finally {
                Main.deleteTree(out);
            }
        }
        return results;
    }
}
