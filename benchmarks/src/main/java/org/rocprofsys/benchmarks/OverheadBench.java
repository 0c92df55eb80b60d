package org.rocprofsys.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Call-stack sampling overhead as users run it (issue 11, item 2): the wall time of a CPU-bound
 * program of 1 and of 2 threads (about 5 s of work, timed by the program itself from main's start
 * to its last join) unprofiled, under {@code rocprof-sys-sample -f F} and under
 * {@code perf record -F F -g} where perf works, at 100 Hz and 1 kHz; the configurations are
 * interleaved within each repetition and the figure is the median. Every run goes through
 * {@code cpu_of}, which gives the CPU time of the whole process tree; minus the target's own CPU
 * time, that is the profiler's CPU time (collector JVM, or perf), reported per second of the
 * target's wall time. Samples the kernel dropped (our warning, perf's "lost" line) are counted.
 *
 * <p>Options (environment): {@code ROCPROFSYS_BENCH_SECONDS} (work per run, default 5),
 * {@code ROCPROFSYS_BENCH_REPS} (default 5), {@code ROCPROFSYS_BENCH_FREQS} (default 100,1000),
 * {@code ROCPROFSYS_BENCH_THREADS} (default 1,2), {@code ROCPROFSYS_BENCH_PERF=OFF}, and
 * {@code ROCPROFSYS_BENCH_VARIANTS="name=options;..."}: more profiled configurations, each with its
 * settings ({@code ROCPROFSYS_*=value} words, in the environment) and JVM options (the other words,
 * in {@code ROCPROFSYS_JAVA_OPTIONS}), e.g. {@code nice0=ROCPROFSYS_ANALYSIS_NICE=0}.
 */
final class OverheadBench {
    private static final Pattern OUR_LOST = Pattern.compile("kernel dropped (\\d+) sampling records");
    private static final Pattern PERF_LOST = Pattern.compile("lost (\\d+) chunks");

    private OverheadBench() {}

    /** One way of running the program: unprofiled, ours with some settings and JVM options, or perf. */
    private record Config(String name, String kind, long freq, String options) {
        boolean unprofiled() {
            return kind.equals("none");
        }
    }

    /** One run: the program's own wall and CPU time, the tree's CPU time, samples lost. */
    private record Run(double workS, double targetCpuS, double treeCpuS, double commandWallS, long lost) {
        double profilerCpuS() {
            return Math.max(0, treeCpuS - targetCpuS);
        }

        /**
         * The share of its wall time the target's threads waited for a CPU: wall / (CPU / threads)
         * - 1. A host whose speed drifts (the 16-core host: the same work took +-6 % CPU time from
         * run to run) moves wall and CPU time together, and this cancels it.
         */
        double waitedShare(int threads) {
            return workS / (targetCpuS / threads) - 1;
        }
    }

    static List<Result> run(Env env) throws Exception {
        double seconds = Double.parseDouble(option("SECONDS", env.quick() ? "1" : "5"));
        int reps = Integer.parseInt(option("REPS", env.quick() ? "2" : "5"));
        List<Long> freqs = Arrays.stream(option("FREQS", "100,1000").split(","))
                .map(Long::parseLong)
                .toList();
        List<Integer> threadCounts = Arrays.stream(option("THREADS", "1,2").split(","))
                .map(Integer::parseInt)
                .toList();
        Path work = env.nativeProgram("overhead_work");
        Path cpuOf = env.nativeProgram("cpu_of");
        Path perf = Path.of("/usr/bin/perf");
        Path out = env.scratch("overhead");
        List<Result> results = new ArrayList<>();
        try {
            boolean perfWorks = !option("PERF", "ON").equalsIgnoreCase("OFF") && perfWorks(perf, cpuOf, work, out);
            List<Config> configs = new ArrayList<>();
            configs.add(new Config("unprofiled", "none", 0, ""));
            for (long f : freqs) {
                configs.add(new Config("rocprof-sys-sample -f " + f, "ours", f, ""));
                for (String v : option("VARIANTS", "").split(";")) {
                    int eq = v.indexOf('=');
                    if (eq > 0) {
                        configs.add(new Config(
                                "rocprof-sys-sample -f " + f + " [" + v.substring(0, eq) + "]",
                                "ours",
                                f,
                                v.substring(eq + 1)));
                    }
                }
                if (perfWorks) {
                    configs.add(new Config("perf record -F " + f + " -g", "perf", f, ""));
                }
            }
            long rounds = calibrate(work, seconds, out);
            System.out.printf(
                    Locale.ROOT,
                    "overhead: %d rounds per thread (~%.1f s of CPU work each), %d repetitions, configurations"
                            + " interleaved: %s%n",
                    rounds,
                    seconds,
                    reps,
                    configs.stream().map(Config::name).toList());
            // the first profiled run of a fresh install records the collector's AOT cache: not measured
            runOnce(env, configs.get(1), cpuOf, work, perf, 1, Math.max(1, rounds / 20), out);
            env.awaitAotCache();
            for (int threads : threadCounts) {
                Map<Config, List<Run>> runs = new LinkedHashMap<>();
                for (int rep = 0; rep < reps; rep++) {
                    for (Config c : configs) {
                        runs.computeIfAbsent(c, k -> new ArrayList<>())
                                .add(runOnce(env, c, cpuOf, work, perf, threads, rounds, out));
                    }
                }
                results.addAll(report(threads, runs));
            }
        } finally {
            Main.deleteTree(out);
        }
        return results;
    }

    private static String option(String name, String dflt) {
        String v = System.getenv("ROCPROFSYS_BENCH_" + name);
        return v == null || v.isBlank() ? dflt : v.trim();
    }

    private static Map<String, String> plainEnvironment() {
        Map<String, String> plain = new HashMap<>(System.getenv());
        plain.keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
        return plain;
    }

    /**
     * Rounds per thread that give about {@code seconds} of work on this machine, by CPU time: on a
     * loaded machine the wall time of a run is longer, the work the same.
     */
    private static long calibrate(Path work, double seconds, Path out) throws Exception {
        long probe = 100;
        Env.Outcome o = Env.run(List.of(work.toString(), "1", Long.toString(probe)), plainEnvironment(), out, null, 0)
                .check("calibration");
        double s = CallStackSamplingBench.field(o, "cpu_ns=") / 1e9;
        return Math.max(10, Math.round(probe * seconds / s));
    }

    private static boolean perfWorks(Path perf, Path cpuOf, Path work, Path out) throws Exception {
        if (!Files.isExecutable(perf)) {
            System.out.println("overhead: no " + perf + ": perf's rows are left out");
            return false;
        }
        Env.Outcome o = Env.run(
                List.of(
                        perf.toString(),
                        "record",
                        "-F",
                        "100",
                        "-g",
                        "-o",
                        out.resolve("probe.data").toString(),
                        "--",
                        work.toString(),
                        "1",
                        "1"),
                plainEnvironment(),
                out,
                null,
                0);
        if (o.exitCode() != 0) {
            System.out.println(
                    "overhead: perf record does not work here (" + o.stderr().strip() + "): perf's rows are left out");
            return false;
        }
        return true;
    }

    private static Run runOnce(Env env, Config c, Path cpuOf, Path work, Path perf, int threads, long rounds, Path out)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(cpuOf.toString()));
        Map<String, String> environment = plainEnvironment();
        switch (c.kind()) {
            case "ours" -> {
                cmd.addAll(List.of(
                        env.dist().resolve("bin/rocprof-sys-sample").toString(), "-f", Long.toString(c.freq()), "--"));
                environment = env.profiledEnvironment(out.resolve("ours"), Map.of());
                List<String> javaOptions = new ArrayList<>();
                for (String word : c.options().strip().split("\\s+")) {
                    int eq = word.indexOf('=');
                    if (word.startsWith("ROCPROFSYS_") && eq > 0) {
                        environment.put(word.substring(0, eq), word.substring(eq + 1));
                    } else if (!word.isEmpty()) {
                        javaOptions.add(word);
                    }
                }
                if (!javaOptions.isEmpty()) {
                    environment.put("ROCPROFSYS_JAVA_OPTIONS", String.join(" ", javaOptions));
                }
            }
            case "perf" ->
                cmd.addAll(List.of(
                        perf.toString(),
                        "record",
                        "-q",
                        "-F",
                        Long.toString(c.freq()),
                        "-g",
                        "-o",
                        out.resolve("perf.data").toString(),
                        "--"));
            default -> {}
        }
        cmd.addAll(List.of(work.toString(), Integer.toString(threads), Long.toString(rounds)));
        Env.Outcome o = Env.run(cmd, environment, out, null, 0).check(c.name());
        Map<String, String> tree = Main.fields(o.stderr()
                .lines()
                .filter(l -> l.startsWith("cpu_of:"))
                .reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("no cpu_of line:\n" + o.stderr())));
        long lost = 0;
        for (Pattern p : List.of(OUR_LOST, PERF_LOST)) {
            Matcher m = p.matcher(o.stderr() + o.stdout());
            while (m.find()) {
                lost += Long.parseLong(m.group(1));
            }
        }
        Main.deleteTree(out.resolve("ours"));
        Files.deleteIfExists(out.resolve("perf.data"));
        return new Run(
                CallStackSamplingBench.field(o, "work_ns=") / 1e9,
                CallStackSamplingBench.field(o, "cpu_ns=") / 1e9,
                Main.number(tree, "tree_cpu_ns") / 1e9,
                Main.number(tree, "wall_ns") / 1e9,
                lost);
    }

    private static List<Result> report(int threads, Map<Config, List<Run>> runs) {
        List<Result> r = new ArrayList<>();
        Config base = runs.keySet().iterator().next();
        double baseWork = Main.median(runs.get(base), Run::workS);
        System.out.printf(
                Locale.ROOT,
                "overhead, %d thread%s (load average now %s):%n",
                threads,
                threads == 1 ? "" : "s",
                Env.loadAverage());
        for (Map.Entry<Config, List<Run>> e : runs.entrySet()) {
            Config c = e.getKey();
            List<Run> rs = e.getValue();
            double work = Main.median(rs, Run::workS);
            double cpuPerS = Main.median(rs, x -> x.profilerCpuS() / x.workS());
            double waited = Main.median(rs, x -> x.waitedShare(threads));
            long lost = rs.stream().mapToLong(Run::lost).sum();
            System.out.printf(
                    Locale.ROOT,
                    "  %-44s work %.3f s (x%.4f, %+.2f %%)  waited for a CPU %+.2f %%  profiler CPU %.3f s per target s"
                            + "  command wall %.2f s  lost %d  runs %s%n",
                    c.name(),
                    work,
                    work / baseWork,
                    (work / baseWork - 1) * 100,
                    waited * 100,
                    c.unprofiled() ? 0.0 : cpuPerS,
                    Main.median(rs, Run::commandWallS),
                    lost,
                    rs.stream()
                            .map(x -> String.format(Locale.ROOT, "%.3f", x.workS()))
                            .toList());
            if (c.unprofiled()) {
                continue;
            }
            String label = threads + "T "
                    + c.name().replace("rocprof-sys-sample", "ours").replace("perf record", "perf");
            r.add(new Result(
                    "overhead " + label,
                    (work / baseWork - 1) * 100,
                    "%",
                    "unprofiled " + threads + "T, same run",
                    baseWork,
                    "s",
                    work / baseWork,
                    c.kind().equals("ours") && c.freq() >= 1000 ? 1 : Double.NaN,
                    false));
            r.add(new Result(
                    "  waited for a CPU, " + label,
                    waited * 100,
                    "%",
                    "unprofiled " + threads + "T, same run",
                    Main.median(runs.get(base), x -> x.waitedShare(threads)) * 100,
                    "%",
                    Double.NaN,
                    Double.NaN,
                    false));
            r.add(new Result(
                    "  profiler CPU per target s, " + label,
                    cpuPerS,
                    "s/s",
                    "target wall " + threads + "T",
                    work,
                    "s",
                    cpuPerS,
                    Double.NaN,
                    false));
        }
        return r;
    }
}
