package org.rocprofsys.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the performance-budget benchmarks of docs/benchmarks.md and prints, for each, its figure,
 * a baseline measured in the same run with the ratio between them, and the ratio to the budget.
 *
 * <pre>
 * benchmarks/run.sh [--quick] [pushpop] [ingest] [perfetto] [finalize] [rss] [procsampling] [sampling]
 *                   [instrument] [overhead] [fixedcost] [rocpd] [python] [floor]
 * </pre>
 *
 * With no name every benchmark runs, in that order. {@code --quick} shrinks the sizes (a smoke
 * test of the harness, not figures to quote). The repository root is the system property
 * {@code rocprofsys.root} or found from the working directory; the end-to-end benchmarks run the
 * distribution in {@code run/target/dist} and the C programs in {@code benchmarks/target/native}.
 */
public final class Main {
    static final List<String> ALL = List.of(
            "pushpop",
            "ingest",
            "perfetto",
            "finalize",
            "rss",
            "procsampling",
            "sampling",
            "instrument",
            "overhead",
            "fixedcost",
            "rocpd",
            "python",
            "floor",
            "stall");

    private Main() {}

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        List<String> names = new ArrayList<>();
        for (String a : args) {
            switch (a) {
                case "--quick" -> quick = true;
                case "-h", "--help" -> {
                    System.out.println("usage: benchmarks/run.sh [--quick] [" + String.join("] [", ALL) + "]");
                    return;
                }
                default -> {
                    if (!ALL.contains(a)) {
                        System.err.println("unknown benchmark '" + a + "'; choose from " + ALL);
                        System.exit(2);
                    }
                    names.add(a);
                }
            }
        }
        if (names.isEmpty()) {
            names.addAll(ALL);
        }
        Env env = Env.find(quick);
        System.out.println(
                "# rocprof-sys benchmarks: " + names + (quick ? " (quick: sizes cut, not figures to quote)" : ""));
        System.out.println("# machine: " + env.machine());
        List<Result> results = new ArrayList<>();
        for (String n : names) {
            System.out.println();
            System.out.println("== " + n + " == (load average before: " + Env.loadAverage() + ")");
            long t0 = System.nanoTime();
            List<Result> r = switch (n) {
                case "pushpop" -> PushPopBench.run(env);
                case "ingest" -> IngestBench.run(env);
                case "perfetto" -> PerfettoSizeBench.run(env);
                case "finalize" -> FinalizeBench.run(env);
                case "rss" -> RssBench.run(env);
                case "procsampling" -> ProcessSamplingBench.run(env);
                case "sampling" -> CallStackSamplingBench.run(env);
                case "instrument" -> InstrumentBench.run(env);
                case "overhead" -> OverheadBench.run(env);
                case "fixedcost" -> FixedCostBench.run(env);
                case "rocpd" -> RocpdBench.run(env);
                case "python" -> PythonBench.run(env);
                case "floor" -> IngestFloorBench.run(env);
                case "stall" -> StallBench.run(env);
                default -> throw new IllegalStateException(n);
            };
            for (Result x : r) {
                System.out.println("RESULT " + x.line());
            }
            System.out.printf(Locale.ROOT, "(%s took %.1f s)%n", n, (System.nanoTime() - t0) / 1e9);
            results.addAll(r);
        }
        System.out.println();
        System.out.println("== summary (figure | same-run baseline | figure/baseline | budget | figure/budget) ==");
        for (Result r : results) {
            System.out.println(r.line());
        }
    }

    /** A number with three significant decimals, without exponent for the usual ranges. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.3gM", v / 1e6).replace("e+0", "e");
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 0.1 || a == 0) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** Parses the {@code key=value} lines of a C benchmark's output (the last value of a key wins). */
    static Map<String, String> keyValues(String output) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.indexOf(' ') < 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1).trim());
            }
        }
        return m;
    }

    /** Parses {@code key=value} pairs separated by spaces on one line (after a leading word). */
    /** The median of {@code v} (the mean of the middle two for an even count). */
    static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The median of {@code f} over {@code items}. */
    static <T> double median(List<T> items, java.util.function.ToDoubleFunction<T> f) {
        return median(items.stream().mapToDouble(f).toArray());
    }

    static Map<String, String> fields(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String w : line.trim().split("\\s+")) {
            int eq = w.indexOf('=');
            if (eq > 0) {
                m.put(w.substring(0, eq), w.substring(eq + 1));
            }
        }
        return m;
    }

    static double number(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalStateException("benchmark output has no '" + key + "': " + kv);
        }
        return Double.parseDouble(v);
    }

    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long treeSize(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            long total = 0;
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                total += Files.size(p);
            }
            return total;
        }
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }
}
