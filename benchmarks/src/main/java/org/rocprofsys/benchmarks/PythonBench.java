package org.rocprofsys.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Python profiling overhead: recursive fib(N) in one interpreter, unprofiled, with every call
 * traced, and with fib excluded (benchmarks/src/main/python/python_bench.py, run under
 * rocprof-sys-run with the distribution's rocprofsys package; the phases take turns, each keeps its
 * best round, in CPU time of the target, so the collector's own work on a small machine does not
 * count). On sys.monitoring also the floor: a C callback that does nothing, registered for the
 * same events, which is what the interpreter's dispatch alone costs. Goals on Python 3.12+
 * (sys.monitoring): traced &lt;= 2x, excluded &lt;= 1.1x; older Pythons (sys.setprofile) are
 * informational. Then the cost of call-stack sampling at 1 kHz of the same program with CPython's
 * perf trampoline (what rocprof-sys-sample turns on for Python), against the plain interpreter.
 * Interpreters: {@code python3} and the paths in ROCPROFSYS_BENCH_PYTHONS (':'-separated).
 */
final class PythonBench {
    private static final Pattern PHASE = Pattern.compile("^PHASE (\\S+) (\\S+) (\\d+)$", Pattern.MULTILINE);
    private static final Pattern ENGINE = Pattern.compile("^ENGINE (\\S+) (\\S+) (\\S+)$", Pattern.MULTILINE);

    private PythonBench() {}

    static List<Result> run(Env env) throws Exception {
        Path script = env.root().resolve("benchmarks/src/main/python/python_bench.py");
        String n = env.quick() ? "22" : "27";
        List<Result> out = new ArrayList<>();
        Path scratch = env.scratch("python");
        try {
            for (String python : interpreters()) {
                out.addAll(traced(env, scratch, python, script, n));
            }
            out.add(sampled(env, scratch, interpreters().getLast(), script, n));
        } finally {
            Main.deleteTree(scratch);
        }
        return out;
    }

    private static List<String> interpreters() throws Exception {
        List<String> names = new ArrayList<>(List.of("python3"));
        String listed = System.getenv("ROCPROFSYS_BENCH_PYTHONS");
        if (listed != null && !listed.isBlank()) {
            names.addAll(List.of(listed.split(":")));
        }
        List<String> out = new ArrayList<>();
        for (String name : names) {
            Env.Outcome o = Env.run(
                    List.of(name, "-c", "import sys; print(sys.executable)"), System.getenv(), Path.of("."), null, 0);
            String exe = o.stdout().strip();
            if (o.exitCode() == 0 && !exe.isEmpty() && !out.contains(exe)) {
                out.add(exe);
            }
        }
        return out;
    }

    private static Map<String, Double> phases(String stdout) {
        Map<String, Double> m = new HashMap<>();
        Matcher x = PHASE.matcher(stdout);
        while (x.find()) {
            m.put(x.group(1), Double.parseDouble(x.group(2)));
        }
        return m;
    }

    private static List<Result> traced(Env env, Path scratch, String python, Path script, String n) throws Exception {
        Map<String, String> settings = Map.of(
                "ROCPROFSYS_TRACE", "OFF",
                "ROCPROFSYS_PROFILE", "ON",
                "ROCPROFSYS_USE_SAMPLING", "OFF",
                "ROCPROFSYS_USE_PROCESS_SAMPLING", "OFF");
        Map<String, String> pe = env.profiledEnvironment(scratch.resolve("traced"), settings);
        pe.put("PYTHONPATH", env.dist().resolve("lib/python/site-packages").toString());
        Env.Outcome o = Env.run(
                        List.of(env.runLauncher().toString(), "--", python, script.toString(), n, "7"),
                        pe,
                        scratch,
                        null,
                        0)
                .check("rocprof-sys-run -- " + python);
        System.out.print(o.stdout());
        Map<String, Double> p = phases(o.stdout());
        Matcher e = ENGINE.matcher(o.stdout());
        String engine = e.find() ? e.group(1) + "/" + e.group(2) + " " + e.group(3) : "?";
        boolean monitoring = engine.startsWith("sys.monitoring");
        double base = p.get("unprofiled");
        List<Result> out = new ArrayList<>();
        if (p.containsKey("floor")) {
            out.add(toUnprofiled(
                    "python sys.monitoring floor (no-op C callback), " + engine, p.get("floor"), base, n, Double.NaN));
        }
        out.add(toUnprofiled("python traced, " + engine, p.get("traced"), base, n, monitoring ? 2.0 : Double.NaN));
        out.add(toUnprofiled(
                "python fib excluded, " + engine, p.get("excluded"), base, n, monitoring ? 1.1 : Double.NaN));
        return out;
    }

    /** A phase's time as a ratio to fib(n) unprofiled, the same run's baseline. */
    private static Result toUnprofiled(String name, double seconds, double base, String n, double limit) {
        return new Result(
                name, seconds / base, "x", "fib(" + n + ") unprofiled", base * 1e3, "ms", seconds / base, limit, false);
    }

    private static Result sampled(Env env, Path scratch, String python, Path script, String n) throws Exception {
        Env.Outcome plain = Env.run(
                        List.of(python, script.toString(), n, "5", "--plain"), System.getenv(), scratch, null, 0)
                .check(python);
        // no delay: fib(27) x 5 ends within the default 0.5 s, before sampling would begin
        Map<String, String> settings =
                Map.of("ROCPROFSYS_USE_PROCESS_SAMPLING", "OFF", "ROCPROFSYS_SAMPLING_DELAY", "0");
        Map<String, String> se = env.profiledEnvironment(scratch.resolve("sampled"), settings);
        Path sample = env.dist().resolve("bin/rocprof-sys-sample");
        Files.createDirectories(scratch.resolve("sampled"));
        Env.Outcome sampled = Env.run(
                        List.of(sample.toString(), "-f", "1000", "--", python, script.toString(), n, "5", "--plain"),
                        se,
                        scratch,
                        null,
                        0)
                .check("rocprof-sys-sample -- " + python);
        double base = phases(plain.stdout()).get("unprofiled");
        double with = phases(sampled.stdout()).get("unprofiled");
        return new Result(
                "python sampled 1 kHz + perf trampoline",
                with / base,
                "x",
                "fib(" + n + ") plain " + Path.of(python).getFileName(),
                base * 1e3,
                "ms",
                with / base,
                Double.NaN,
                false);
    }
}
