package org.rocprofsys.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fixed cost of a profiled run (issue 11, item 7): {@code rocprof-sys-run -- /bin/echo hi}
 * with default settings, wall time and CPU time of the whole process tree (through
 * {@code cpu_of}), medians of interleaved runs. Beside it, what the time is made of: the same run
 * without the AOT cache ({@code -XX:AOTMode=off}: the JDK's own CDS archive only) and with no
 * class-data sharing at all (the launcher's java command with {@code -Xshare:off}), a bare JVM start ({@code java -version}, the same
 * JDK and collector options) and {@code /bin/echo hi} alone (the baseline).
 */
final class FixedCostBench {
    private FixedCostBench() {}

    private record Sample(double wallS, double cpuS) {}

    static List<Result> run(Env env) throws Exception {
        int reps = (int) env.size(9, 3);
        Path cpuOf = env.nativeProgram("cpu_of");
        Path out = env.scratch("fixedcost");
        try {
            String run = env.runLauncher().toString();
            String java = ProcessHandle.current().info().command().orElse("java");
            Map<String, String> profiled = env.profiledEnvironment(out, Map.of());
            Map<String, String> noAot = new HashMap<>(profiled);
            noAot.put("ROCPROFSYS_JAVA_OPTIONS", "-XX:AOTMode=off");
            Map<String, List<String>> commands = new LinkedHashMap<>();
            Map<String, Map<String, String>> envs = new HashMap<>();
            commands.put("rocprof-sys-run -- /bin/echo hi", List.of(run, "--", "/bin/echo", "hi"));
            envs.put("rocprof-sys-run -- /bin/echo hi", profiled);
            commands.put("  same, AOT cache off (JDK CDS only)", List.of(run, "--", "/bin/echo", "hi"));
            envs.put("  same, AOT cache off (JDK CDS only)", noAot);
            // the launcher's command line by hand: -Xshare:off cannot be combined with its AOT options
            commands.put(
                    "  same, no class-data sharing",
                    List.of(
                            java,
                            "--enable-native-access=ALL-UNNAMED",
                            "-XX:+UseSerialGC",
                            "-Xshare:off",
                            "-Drocprofsys.prefix=" + env.dist(),
                            "-cp",
                            env.dist().resolve("lib") + "/*",
                            "org.rocprofsys.run.RunCommand",
                            "--",
                            "/bin/echo",
                            "hi"));
            envs.put("  same, no class-data sharing", profiled);
            commands.put(
                    "  bare JVM start (java -version)",
                    List.of(java, "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "-version"));
            envs.put("  bare JVM start (java -version)", profiled);
            commands.put("/bin/echo hi", List.of("/bin/echo", "hi"));
            envs.put("/bin/echo hi", profiled);

            // a fresh install records its AOT cache on the first run and makes it in the background
            Env.run(commands.get("rocprof-sys-run -- /bin/echo hi"), profiled, out, null, 0)
                    .check("first run");
            env.awaitAotCache();

            Map<String, List<Sample>> samples = new LinkedHashMap<>();
            for (int i = 0; i < reps; i++) {
                for (Map.Entry<String, List<String>> c : commands.entrySet()) {
                    List<String> cmd = new ArrayList<>(List.of(cpuOf.toString()));
                    cmd.addAll(c.getValue());
                    Env.Outcome o =
                            Env.run(cmd, envs.get(c.getKey()), out, null, 0).check(c.getKey());
                    Map<String, String> f = Main.fields(o.stderr()
                            .lines()
                            .filter(l -> l.startsWith("cpu_of:"))
                            .reduce((a, b) -> b)
                            .orElseThrow());
                    samples.computeIfAbsent(c.getKey(), k -> new ArrayList<>())
                            .add(new Sample(Main.number(f, "wall_ns") / 1e9, Main.number(f, "tree_cpu_ns") / 1e9));
                }
            }
            double echoWall = Main.median(samples.get("/bin/echo hi"), Sample::wallS);
            List<Result> r = new ArrayList<>();
            for (Map.Entry<String, List<Sample>> e : samples.entrySet()) {
                double wall = Main.median(e.getValue(), Sample::wallS);
                double cpu = Main.median(e.getValue(), Sample::cpuS);
                System.out.printf(
                        Locale.ROOT,
                        "fixedcost: %-40s wall %.3f s  CPU %.3f s (medians of %d)%n",
                        e.getKey(),
                        wall,
                        cpu,
                        e.getValue().size());
                if (e.getKey().equals("/bin/echo hi")) {
                    continue;
                }
                boolean headline = e.getKey().startsWith("rocprof-sys-run");
                r.add(new Result(
                        "fixed cost " + e.getKey().strip() + ", wall",
                        wall,
                        "s",
                        "/bin/echo hi alone",
                        echoWall,
                        "s",
                        wall / echoWall,
                        headline ? 0.4 : Double.NaN,
                        false));
                r.add(new Result(
                        "  CPU, " + e.getKey().strip(),
                        cpu,
                        "s",
                        "its wall time",
                        wall,
                        "s",
                        cpu / wall,
                        Double.NaN,
                        false));
            }
            return r;
        } finally {
            Main.deleteTree(out);
        }
    }
}
