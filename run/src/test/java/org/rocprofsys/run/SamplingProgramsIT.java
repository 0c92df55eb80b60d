package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Call-stack sampling of the kinds of programs users profile (issue acceptance): threads, fork
 * children, C++, a Python script, a JVM with a perf map; and upstream's sampling expectations
 * (the sampling-duration messages, the overflow test with a software event, no temporary files).
 * Skipped where perf_event_open is refused.
 */
class SamplingProgramsIT extends DistributionTest {
    /** Runs the tool; the test is skipped where call-stack sampling is refused. */
    private ProcessResult toolOrSkip(String tool, Map<String, String> env, String... args) throws Exception {
        return CallStackSampling.orSkip(tool(tool, cwd, env, args));
    }

    private ProcessResult sample(String name, String... args) throws Exception {
        return toolOrSkip("rocprof-sys-sample", environment(name), args);
    }

    /** (thread prefix "N>>>" , label, depth) of every entry of a sampled profile's ranks[0].graph. */
    private static List<String[]> entries(Path json, String metric) throws Exception {
        List<String[]> out = new ArrayList<>();
        for (JsonNode e : ProfileGraph.graph(json, metric)) {
            Matcher m = Pattern.compile("\\|(\\d+)>>> ").matcher(e.get("prefix").asText());
            String thread = m.find() ? m.group(1) : "?";
            out.add(new String[] {thread, ProfileGraph.label(e), e.get("depth").asText()});
        }
        return out;
    }

    /** The entries of the sampled wall-clock profile of run {@code name}. */
    private List<String[]> wallClock(String name) throws Exception {
        return entries(cwd.resolve("out/" + name + "/sampling_wall_clock.json"), "sampling_wall_clock");
    }

    /** Samples {@code args} as run {@code name}, which must succeed, and returns its wall-clock entries. */
    private List<String[]> sampledWallClock(String name, String... args) throws Exception {
        var r = sample(name, args);
        assertEquals(0, r.exitCode(), r::toString);
        return wallClock(name);
    }

    private static boolean has(List<String[]> entries, String thread, String label) {
        return entries.stream().anyMatch(e -> (thread == null || e[0].equals(thread)) && e[1].equals(label));
    }

    private static String show(List<String[]> entries) {
        return entries.stream()
                .map(e -> e[0] + ":" + e[2] + ":" + e[1])
                .toList()
                .toString();
    }

    /** The threads ("Thread N") that have a sampled track ("Thread N (S) <tid>"), sorted. */
    private static List<String> sampledThreads(DecodedTrace trace) {
        return trace.tracks.values().stream()
                .map(t -> t.descriptor().getName())
                .filter(n -> n.matches("Thread \\d+ \\(S\\) \\d+"))
                .map(n -> n.substring(0, n.indexOf(" (S)")))
                .sorted()
                .toList();
    }

    /** One row of sampling_percent: its function, COUNT (samples holding it) and percent. */
    private record PercentRow(String function, long count, double percent) {}

    /** sampling_percent.json's rows per thread ("0", "1", ...), in file order. */
    private static Map<String, Map<String, PercentRow>> percentRows(Path json) throws Exception {
        List<String[]> labels = entries(json, "sampling_percent");
        List<JsonNode> graph = ProfileGraph.graph(json, "sampling_percent");
        Map<String, Map<String, PercentRow>> out = new TreeMap<>();
        for (int i = 0; i < labels.size(); i++) {
            JsonNode entry = graph.get(i).get("entry");
            String function = labels.get(i)[1];
            out.computeIfAbsent(labels.get(i)[0], k -> new LinkedHashMap<>())
                    .put(
                            function,
                            new PercentRow(
                                    function,
                                    entry.get("laps").asLong(),
                                    entry.get("repr_data").asDouble()));
        }
        return out;
    }

    /**
     * rocprof-sys's sampling_percent (sampling.cpp, post_process_timemory): each frame of each
     * sample of a thread adds 100 / (frames of all that thread's samples). So each thread's rows
     * add up to 100 (not to its share of the process), and a function's percent is its COUNT over
     * the thread's frame total: a function on every sample of its thread shows its thread root's
     * (main's) percent, a function on fewer samples less.
     */
    private static void assertUpstreamPercentages(Map<String, Map<String, PercentRow>> threads) {
        threads.forEach((thread, rows) -> {
            double frames = rows.values().stream().mapToLong(PercentRow::count).sum();
            double sum = rows.values().stream().mapToDouble(PercentRow::percent).sum();
            assertEquals(100.0, sum, 1e-3, () -> "thread " + thread + ": " + rows.values());
            for (PercentRow row : rows.values()) {
                assertEquals(100.0 * row.count() / frames, row.percent(), 1e-4, () -> thread + ": " + rows.values());
            }
        });
    }

    @Test
    void everyThreadGetsATrackAndAProfile() throws Exception {
        List<String[]> g = sampledWallClock("threads", argv("-P -T -f 1000 -w 0 --", example("threads-hot"), "150"));
        assertTrue(has(g, "0", "main_work"), show(g));
        assertTrue(has(g, "1", "work_a") || has(g, "2", "work_a"), show(g));
        assertTrue(has(g, "1", "work_b") || has(g, "2", "work_b"), show(g));
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/threads/perfetto-trace.proto"));
        List<String> sampledTracks = sampledThreads(trace);
        assertEquals(List.of("Thread 0", "Thread 1", "Thread 2"), sampledTracks, trace.tracks::toString);
        // every worker track nests its function under its thread entry function
        List<String> names = trace.slices.stream().map(s -> s.name).distinct().toList();
        assertTrue(
                names.containsAll(List.of("thread_a", "work_a", "thread_b", "work_b", "main_work", "spin")),
                names::toString);

        var percent = percentRows(cwd.resolve("out/threads/sampling_percent.json"));
        assertUpstreamPercentages(percent);
        // main_work (main's only work) is on (nearly) every sample of thread 0: it shows main's
        // percent, not a fraction of the three threads' frames
        PercentRow main = percent.get("0").get("main");
        PercentRow mainWork = percent.get("0").get("main_work");
        assertTrue(mainWork.count() >= 0.95 * main.count(), percent::toString);
        if (mainWork.count() == main.count()) {
            assertEquals(main.percent(), mainWork.percent(), 1e-6, percent::toString);
        }
    }

    @Test
    void threadFilterKeepsTheChosenThreadsOfPerfSamples() throws Exception {
        var r = sample("tids", argv("-T -f 1000 -w 0 -t 0 2 --", example("threads-hot"), "100"));
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/tids/perfetto-trace.proto"));
        List<String> sampledTracks = sampledThreads(trace);
        assertEquals(List.of("Thread 0", "Thread 2"), sampledTracks, trace.tracks::toString);
    }

    @Test
    void forkedChildrenAreSampledInTheirOwnProfiles() throws Exception {
        Map<String, String> env = environment("fork", "ROCPROFSYS_USE_PID", "ON");
        var r = toolOrSkip("rocprof-sys-sample", env, argv("-P -f 1000 -w 0 --", example("fork-hot"), "120"));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("child 0 done") && r.stdout().contains("child 1 done"), r::toString);
        List<Path> files;
        try (Stream<Path> s = Files.list(cwd.resolve("out/fork"))) {
            files = s.filter(p -> p.getFileName().toString().matches("sampling_wall_clock-\\d+\\.json"))
                    .toList();
        }
        assertEquals(3, files.size(), files::toString);
        int parents = 0;
        int children = 0;
        for (Path f : files) {
            List<String[]> g = entries(f, "sampling_wall_clock");
            parents += has(g, "0", "parent_work") ? 1 : 0;
            children += has(g, "0", "child_work") ? 1 : 0;
        }
        assertEquals(1, parents, files::toString);
        assertEquals(2, children, files::toString);
    }

    @Test
    void cxxFunctionsAreDemangled() throws Exception {
        List<String[]> g = sampledWallClock("cxx", argv("-P -f 1000 -w 0 --", example("cxx-hot"), "60"));
        assertTrue(has(g, "0", "compute::Accumulator<double>::run(long, long)"), show(g));
        assertTrue(has(g, "0", "compute::blend(long, double)"), show(g));
        assertTrue(g.stream().filter(e -> e[1].startsWith("compute::")).allMatch(e -> e[2].equals("1")), show(g));
    }

    @Test
    void aPythonScriptShowsTheInterpreter() throws Exception {
        Path python = Stream.of("/usr/bin/python3", "/usr/local/bin/python3")
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        assumeTrue(python != null, "no python3");
        Map<String, String> env = environment("py", "ROCPROFSYS_SAMPLING_KEEP_INTERNAL", "OFF");
        var r = toolOrSkip(
                "rocprof-sys-sample",
                env,
                argv(
                        "-P -f 1000 -w 0 --",
                        python.toString(),
                        REPO.resolve("examples/sampling-script.py").toString(),
                        "6"));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("fib total"), r::toString);
        List<String[]> g = wallClock("py");
        // the interpreter's entry at the top (main tail-calls it), the agent's frames left out
        assertTrue(g.stream().anyMatch(e -> e[2].equals("0") && e[1].matches("Py_BytesMain|Py_RunMain|main")), show(g));
        assertTrue(g.stream().noneMatch(e -> Integer.parseInt(e[2]) > 100), "no runaway stacks: " + show(g));
        assertTrue(g.stream().noneMatch(e -> e[1].startsWith("rsys_")), show(g));
        assertTrue(g.stream().anyMatch(e -> e[1].contains("EvalFrame")), show(g));
    }

    @Test
    void aJvmWithAPerfMapShowsJavaFrames() throws Exception {
        Path jdk = Path.of(System.getProperty("java.home"));
        Path classes = cwd.resolve("classes");
        ProcessResult javac = Command.of(
                        jdk.resolve("bin/javac").toString(),
                        "-d",
                        classes.toString(),
                        REPO.resolve("examples/java/HotLoop.java").toString())
                .run();
        assertEquals(0, javac.exitCode(), javac::toString);
        Map<String, String> env = environment("jvm", "ROCPROFSYS_USE_PID", "ON");
        var r = toolOrSkip(
                "rocprof-sys-sample",
                env,
                argv(
                        "-P -f 500 -w 0 --",
                        jdk.resolve("bin/java").toString(),
                        "-XX:+UnlockDiagnosticVMOptions",
                        "-XX:+DumpPerfMapAtExit",
                        "-XX:+PreserveFramePointer",
                        "-cp",
                        classes.toString(),
                        "HotLoop",
                        "1200"));
        assertEquals(0, r.exitCode(), r::toString);
        Path percent;
        try (Stream<Path> s = Files.list(cwd.resolve("out/jvm"))) {
            percent = s.filter(p -> p.getFileName().toString().matches("sampling_percent-\\d+\\.json"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(r.toString()));
        }
        String pid = percent.getFileName().toString().replaceAll("\\D", "");
        try {
            List<String[]> g = entries(percent, "sampling_percent");
            assertTrue(g.stream().anyMatch(e -> e[1].contains("HotLoop.churn")), show(g));
        } finally {
            Files.deleteIfExists(Path.of("/tmp/perf-" + pid + ".map"));
        }
    }

    @Test
    void samplingDurationMessages() throws Exception {
        // upstream's openmp-{cg,lu}-sampling-duration: CPU-time 1000 Hz and wall-time 500 Hz, delay 0.1,
        // duration 0.25; its whole expected output, in order: both trigger lines, the two duration
        // lines, then the three sampling files
        var r = sample(
                "duration",
                argv("-v 1 -P --cputime 1000 0.1 --realtime 500 0.1 -d 0.25 --", example("hot-functions"), "60"));
        assertEquals(0, r.exitCode(), r::toString);
        String all = r.stdout() + r.stderr();
        assertTrue(
                Pattern.compile(
                                "Sampler for thread 0 will be triggered 1000\\.0x per second of CPU-time"
                                        + ".*Sampler for thread 0 will be triggered 500\\.0x per second of wall-time"
                                        + ".*Sampling will be disabled after 0\\.250000 seconds"
                                        + ".*Sampling duration of 0\\.250000 seconds has elapsed\\. Shutting down sampling"
                                        + ".*/sampling_percent\\.(json|txt).*sampling_cpu_clock.*sampling_wall_clock",
                                Pattern.DOTALL)
                        .matcher(r.stderr())
                        .find(),
                r::toString);
        CallStackSampling.assertSamplingFiles(cwd.resolve("out/duration"), all, "json");
        // main is on every sample, the leaves heavy and light on some: both below main
        var percent = percentRows(cwd.resolve("out/duration/sampling_percent.json"));
        assertUpstreamPercentages(percent);
        Map<String, PercentRow> rows = percent.get("0");
        for (String leaf : List.of("heavy", "light")) {
            assertTrue(rows.get(leaf).percent() < rows.get("main").percent(), rows::toString);
        }
    }

    @Test
    void overflowSamplingWithASoftwareEvent() throws Exception {
        // upstream's overflow test: SAMPLING_OVERFLOW with PERF_COUNT_SW_CPU_CLOCK
        Map<String, String> env = environment(
                "overflow",
                "ROCPROFSYS_SAMPLING_OVERFLOW",
                "ON",
                "ROCPROFSYS_SAMPLING_OVERFLOW_EVENT",
                "PERF_COUNT_SW_CPU_CLOCK",
                "ROCPROFSYS_SAMPLING_OVERFLOW_FREQ",
                "200000",
                "ROCPROFSYS_SAMPLING_DELAY",
                "0");
        var r = toolOrSkip("rocprof-sys-run", env, "-S", "-P", "--", example("hot-functions"), "20");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue((r.stdout() + r.stderr()).contains("sampling_wall_clock.txt"), r::toString);
        List<String[]> g = wallClock("overflow");
        assertTrue(has(g, "0", "heavy"), show(g));
        var bad = toolOrSkip(
                "rocprof-sys-run",
                environment(
                        "overflow-bad",
                        "ROCPROFSYS_SAMPLING_OVERFLOW",
                        "ON",
                        "ROCPROFSYS_SAMPLING_OVERFLOW_EVENT",
                        "PERF_COUNT_SW_NOPE"),
                "-S",
                "--",
                "true");
        assertTrue(
                bad.exitCode() != 0 && bad.stderr().contains("unknown perf event 'PERF_COUNT_SW_NOPE'"), bad::toString);
    }

    @Test
    void noTemporaryFiles() throws Exception {
        Path tmp = Files.createDirectories(cwd.resolve("tmp"));
        Map<String, String> env =
                environment("notmp", "ROCPROFSYS_USE_TEMPORARY_FILES", "OFF", "ROCPROFSYS_TMPDIR", tmp.toString());
        var r = toolOrSkip("rocprof-sys-sample", env, argv("-P -f 500 -w 0 --", example("hot-functions"), "10"));
        assertEquals(0, r.exitCode(), r::toString);
        CallStackSampling.assertSamplingFiles(cwd.resolve("out/notmp"), r, "txt");
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(List.of(), s.toList(), "nothing left in the temporary directory");
        }
    }
}
