package org.rocprofsys.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.config.proc.ProcFs;

/**
 * Benchmark 5: the collector's resident memory over a long run. {@code region_stream} writes 50 M
 * region events under {@code rocprof-sys-run} (lossless, so every event reaches the collector;
 * Perfetto trace and wall_clock profile on) and, every 5 M events, prints its parent's (the
 * collector JVM's) VmRSS and VmHWM. This harness also samples the collector's VmRSS every 200 ms
 * until it exits, which covers the output phase after the target has ended. Figure: RSS at the
 * last checkpoint over RSS at the first (the same run's baseline); budget: flat, taken as at most
 * 1.10.
 */
final class RssBench {
    static final double GOAL_RATIO = 1.10;

    private RssBench() {}

    static List<Result> run(Env env) throws Exception {
        long events = env.size(50_000_000, 5_000_000);
        long step = events / 10;
        StringBuilder cps = new StringBuilder();
        for (long c = step; c <= events; c += step) {
            cps.append(cps.isEmpty() ? "" : ",").append(c);
        }
        Path out = env.scratch("rss");
        long[] sampled = {0, 0, 0}; // samples, max VmRSS, last VmHWM
        try {
            Map<String, String> e = env.profiledEnvironment(
                    out,
                    Map.of(
                            "ROCPROFSYS_TRACE", "ON",
                            "ROCPROFSYS_PROFILE", "ON",
                            "ROCPROFSYS_RING_BUFFER_LOSSLESS", "ON"));
            Env.Outcome o = Env.run(
                            env.underRun("region_stream", Long.toString(events), cps.toString()),
                            e,
                            out,
                            pid -> {
                                long rss = statusKb(pid, "VmRSS");
                                long hwm = statusKb(pid, "VmHWM");
                                if (rss > 0) {
                                    sampled[0]++;
                                    sampled[1] = Math.max(sampled[1], rss);
                                    sampled[2] = hwm;
                                }
                            },
                            200)
                    .check("rocprof-sys-run -- region_stream");
            long outputBytes = Main.treeSize(out);
            List<Map<String, String>> points = IngestBench.checkpoints(o.stdout());
            if (points.size() < 2) {
                throw new IllegalStateException("too few checkpoints:\n" + o.stdout());
            }
            System.out.println("events      wall_s   collector VmRSS   VmHWM      (MB)");
            for (Map<String, String> p : points) {
                System.out.printf(
                        Locale.ROOT,
                        "%10.0f  %7.2f   %8.1f       %8.1f%n",
                        Main.number(p, "events"),
                        Main.number(p, "wall_s"),
                        Main.number(p, "collector_rss_kb") / 1024,
                        Main.number(p, "collector_hwm_kb") / 1024);
            }
            Map<String, String> first = points.getFirst();
            Map<String, String> mid = points.get(points.size() / 2 - 1);
            Map<String, String> last = points.getLast();
            double rssFirst = Main.number(first, "collector_rss_kb") / 1024;
            double rssMid = Main.number(mid, "collector_rss_kb") / 1024;
            double rssLast = Main.number(last, "collector_rss_kb") / 1024;
            double hwmLast = Main.number(last, "collector_hwm_kb") / 1024;
            System.out.printf(
                    Locale.ROOT,
                    "collector RSS at %.0fM / %.0fM / %.0fM events: %.1f / %.1f / %.1f MB (last/first %.3f);"
                            + " peak while writing outputs (sampled every 200 ms, %d samples): VmRSS %.1f MB, VmHWM %.1f MB;"
                            + " outputs %.0f MB; run took %.1f s%n",
                    Main.number(first, "events") / 1e6,
                    Main.number(mid, "events") / 1e6,
                    Main.number(last, "events") / 1e6,
                    rssFirst,
                    rssMid,
                    rssLast,
                    rssLast / rssFirst,
                    sampled[0],
                    sampled[1] / 1024.0,
                    sampled[2] / 1024.0,
                    outputBytes / 1e6,
                    o.wallSeconds());
            List<Result> r = new ArrayList<>();
            r.add(new Result(
                    String.format(Locale.ROOT, "collector RSS at %.0fM events", Main.number(last, "events") / 1e6),
                    rssLast,
                    "MB",
                    String.format(Locale.ROOT, "RSS at %.0fM events", Main.number(first, "events") / 1e6),
                    rssFirst,
                    "MB",
                    rssLast / rssFirst,
                    GOAL_RATIO * rssFirst,
                    false));
            r.add(new Result(
                    "  collector peak RSS (VmHWM), whole run",
                    Math.max(hwmLast, sampled[2] / 1024.0),
                    "MB",
                    "RSS at first checkpoint",
                    rssFirst,
                    "MB",
                    Math.max(hwmLast, sampled[2] / 1024.0) / rssFirst,
                    Double.NaN,
                    false));
            return r;
        } finally {
            Main.deleteTree(out);
        }
    }

    /** A {@code /proc/<pid>/status} value in kB, -1 when the process or the key is missing. */
    private static long statusKb(long pid, String key) {
        return ProcFs.system().status(pid).map(s -> s.number(key).orElse(-1)).orElse(-1L);
    }
}
