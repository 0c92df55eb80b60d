package org.rocprofsys.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What holding the rings' records while the target runs costs a program that records at a steady
 * pace (docs/benchmarks.md, "Records held while the target runs"): {@code paced_regions} pushes
 * 2 M region pairs a second for 6 s under {@code rocprof-sys-run} with the profile on, and reports
 * the longest time it was stopped; the whole run's wall time says how much later the outputs are
 * done. Interleaved runs, medians: records decoded as they come ({@code ROCPROFSYS_COLLECTOR_HOLD_BYTES=0}, the
 * baseline), held past a 64 MiB budget (reached after about a second), and the default settings
 * (held on machines of up to 3 CPUs, within the budget for this program).
 */
final class StallBench {
    private StallBench() {}

    private record Sample(double longestStopMs, double wallS) {}

    static List<Result> run(Env env) throws Exception {
        int reps = (int) env.size(4, 1);
        double seconds = env.size(6, 2);
        Path program = env.nativeProgram("paced_regions");
        Path out = env.scratch("stall");
        try {
            Map<String, String> options = new LinkedHashMap<>();
            options.put("decoded as they come", "0");
            options.put("held past a 64 MiB budget", Long.toString(64L << 20));
            options.put("default settings", "");
            String run = env.runLauncher().toString();
            Env.run(List.of(run, "--", "/bin/true"), env.profiledEnvironment(out, Map.of()), out, null, 0)
                    .check("first run");
            env.awaitAotCache();
            System.out.printf(
                    Locale.ROOT,
                    "stall: %d CPUs (the rings' records are held by default on up to 3)%n",
                    Runtime.getRuntime().availableProcessors());
            Map<String, List<Sample>> samples = new LinkedHashMap<>();
            for (int i = 0; i < reps; i++) {
                for (Map.Entry<String, String> o : options.entrySet()) {
                    Map<String, String> settings = new LinkedHashMap<>();
                    settings.put("ROCPROFSYS_PROFILE", "ON");
                    if (!o.getValue().isEmpty()) {
                        settings.put("ROCPROFSYS_COLLECTOR_HOLD_BYTES", o.getValue());
                    }
                    Env.Outcome r = Env.run(
                                    List.of(run, "--", program.toString(), "2000000", Double.toString(seconds)),
                                    env.profiledEnvironment(out, settings),
                                    out,
                                    null,
                                    0)
                            .check(o.getKey());
                    Map<String, String> f = Main.fields(r.stdout()
                            .lines()
                            .filter(l -> l.startsWith("pairs="))
                            .findFirst()
                            .orElseThrow(() -> new IllegalStateException("no result line: " + r.stdout())));
                    samples.computeIfAbsent(o.getKey(), k -> new ArrayList<>())
                            .add(new Sample(Main.number(f, "max_gap_ms"), r.wallSeconds()));
                }
            }
            List<Sample> base = samples.get("decoded as they come");
            double baseStop = Main.median(base, Sample::longestStopMs);
            double baseWall = Main.median(base, Sample::wallS);
            List<Result> results = new ArrayList<>();
            for (Map.Entry<String, List<Sample>> e : samples.entrySet()) {
                double stop = Main.median(e.getValue(), Sample::longestStopMs);
                double wall = Main.median(e.getValue(), Sample::wallS);
                System.out.printf(
                        Locale.ROOT,
                        "stall: %-28s longest stop %7.1f ms  whole run %.2f s (medians of %d)%n",
                        e.getKey(),
                        stop,
                        wall,
                        e.getValue().size());
                if (e.getValue() == base) {
                    continue;
                }
                results.add(new Result(
                        "longest stop, " + e.getKey(),
                        stop,
                        "ms",
                        "decoded as they come",
                        baseStop,
                        "ms",
                        stop / baseStop,
                        Double.NaN,
                        false));
                results.add(new Result(
                        "  whole run, " + e.getKey(),
                        wall,
                        "s",
                        "decoded as they come",
                        baseWall,
                        "s",
                        wall / baseWall,
                        Double.NaN,
                        false));
            }
            return results;
        } finally {
            Main.deleteTree(out);
        }
    }
}
