package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Upstream's python tests (rocprof-sys-python-tests.cmake) on examples/python, checked as its
 * validate-timemory-json.py and validate-perfetto-proto.py do (labels, counts and depths in
 * order), each also with --annotate-trace; and the ways a Python run can end or be refused.
 */
class PythonEndToEndIT extends DistributionTest {
    private static final String[] PYTHON_ENV = {
        "ROCPROFSYS_TRACE", "ON",
        "ROCPROFSYS_PROFILE", "ON",
        "ROCPROFSYS_USE_SAMPLING", "OFF",
        "ROCPROFSYS_USE_PROCESS_SAMPLING", "OFF",
        "ROCPROFSYS_TREE_OUTPUT", "OFF",
        "ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock trip_count"
    };

    private static Path script(String name) {
        return REPO.resolve("examples/python").resolve(name);
    }

    /** The interpreter itself (python3 may be a wrapper script, e.g. pyenv's shim). */
    private static String interpreter() throws Exception {
        return Command.of("python3", "-c", "import sys; print(sys.executable)")
                .ok()
                .strip();
    }

    private ProcessResult python(String name, String... args) throws Exception {
        return tool("rocprof-sys-python", environment(name, PYTHON_ENV), args);
    }

    /**
     * rocprof-sys-python with {@code options}, and {@code annotateFlag} when {@code annotated}, on
     * examples/python/{@code script} -v {@code value} -n 5; the run exits 0.
     */
    private void runExample(
            String name, String script, String value, boolean annotated, String annotateFlag, String... options)
            throws Exception {
        List<String> args = new ArrayList<>(List.of(options));
        if (annotated) {
            args.add(annotateFlag);
        }
        args.addAll(List.of("--", script(script).toString(), "-v", value, "-n", "5"));
        ProcessResult r = python(name, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
    }

    /** The environment of run {@code name} under the interpreter {@code exe}. */
    private Map<String, String> pythonEnvironment(String name, String exe) {
        Map<String, String> env = environment(name, PYTHON_ENV);
        env.put("PYTHON_EXECUTABLE", exe);
        return env;
    }

    /** rocprof-sys-python with {@code args} under the interpreter {@code exe} as run {@code name}; it must succeed. */
    private void runUnder(String exe, String name, String... args) throws Exception {
        ProcessResult r = tool("rocprof-sys-python", pythonEnvironment(name, exe), args);
        assertEquals(0, r.exitCode(), exe + ": " + r.stderr());
    }

    /** The run's name: {@code base}, with "-annotated" for the annotated run. */
    private static String runName(String base, boolean annotated) {
        return base + (annotated ? "-annotated" : "");
    }

    /** {@link #runExample} as run {@link #runName}, then that run's trip_count.txt. */
    private String tripCount(
            String base, String script, String value, boolean annotated, String annotateFlag, String... options)
            throws Exception {
        String name = runName(base, annotated);
        runExample(name, script, value, annotated, annotateFlag, options);
        return Files.readString(output(name, "trip_count.txt"));
    }

    private Path output(String name, String file) {
        return outputRoot().resolve(name).resolve(file);
    }

    private static void assertAnnotated(DecodedTrace trace, String category) {
        List<DecodedTrace.Slice> slices =
                trace.slices.stream().filter(s -> category.equals(s.category)).toList();
        assertFalse(slices.isEmpty());
        for (DecodedTrace.Slice s : slices) {
            for (String key : List.of("file", "line", "lasti", "argcount", "nlocals", "stacksize")) {
                assertTrue(s.args.containsKey(key), s.name + " has no annotation " + key + ": " + s.args);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void external(boolean annotated) throws Exception {
        String text =
                tripCount("python-external", "external.py", "10", annotated, "--annotate-trace", "--label", "file");
        assertTrue(
                Pattern.compile(
                                "(\\[compile\\]).*(\\| \\|0>>> \\[run\\]\\[external.py\\])"
                                        + ".*(\\| \\|0>>> \\|_\\[fib\\]\\[external.py\\])"
                                        + ".*(\\| \\|0>>> \\|_\\[inefficient\\]\\[external.py\\])",
                                Pattern.DOTALL)
                        .matcher(text)
                        .find(),
                text);
        String name = runName("python-external", annotated);
        DecodedTrace trace = DecodedTrace.read(output(name, "perfetto-trace.proto"));
        List<String> run = PythonProfiles.perfetto(trace, Set.of("python")).stream()
                .filter(s -> s.contains("[external.py]"))
                .toList();
        assertEquals("[run][external.py] c5 d0", run.getFirst(), run.toString());
        if (annotated) {
            assertAnnotated(trace, "python");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void externalExcludeInefficient(boolean annotated) throws Exception {
        String text = tripCount(
                "python-external-exclude-inefficient", "external.py", "10", annotated, "-a", "-E", "^inefficient$");
        assertFalse(
                Pattern.compile("(\\|_inefficient).*(\\|_sum)", Pattern.DOTALL)
                        .matcher(text)
                        .find(),
                text);
        assertFalse(text.contains("inefficient"), text);
        assertTrue(text.contains("|_fib "), text);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void builtin(boolean annotated) throws Exception {
        String name = runName("python-builtin", annotated);
        runExample(name, "builtin.py", "10", annotated, "--annotate-trace", "-b", "--label", "file", "line");
        List<String> want = PythonProfiles.BUILTIN;
        assertEquals(want, PythonProfiles.timemory(output(name, "trip_count.json")));
        assertTrue(Files.readString(output(name, "trip_count.txt")).contains("[inefficient][builtin.py:14]"));
        DecodedTrace trace = DecodedTrace.read(output(name, "perfetto-trace.proto"));
        assertEquals(want, PythonProfiles.perfetto(trace, Set.of("python")));
        if (annotated) {
            assertAnnotated(trace, "python");
        }
    }

    /**
     * The interpreters installed here that answer to these names, and those listed in
     * ROCPROFSYS_TEST_PYTHONS (paths, ':'-separated); 3.12 and later use the sys.monitoring engine.
     */
    private static List<String> interpreters() {
        List<String> out = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of("python3.11", "python3.12", "python3.13"));
        String listed = System.getenv("ROCPROFSYS_TEST_PYTHONS");
        if (listed != null && !listed.isBlank()) {
            names.addAll(List.of(listed.split(":")));
        }
        for (String name : names) {
            try {
                ProcessResult r = Command.of(name, "-c", "import sys; print(sys.executable)")
                        .run();
                String exe = r.stdout().strip();
                if (r.exitCode() == 0 && !exe.isEmpty() && !out.contains(exe)) {
                    out.add(exe);
                }
            } catch (Exception notInstalled) {
                // not on PATH
            }
        }
        return out;
    }

    /** Both engines give upstream's profile: builtin.py on every interpreter found. */
    @Test
    void builtinOnEveryInstalledInterpreter() throws Exception {
        List<String> want = PythonProfiles.BUILTIN;
        List<String> found = interpreters();
        for (String exe : found) {
            String name = "python-builtin-" + Path.of(exe).getFileName();
            runUnder(
                    exe,
                    name,
                    argv("-b --label file line --", script("builtin.py").toString(), "-v", "10", "-n", "5"));
            assertEquals(want, PythonProfiles.timemory(output(name, "trip_count.json")), exe);
        }
        assertFalse(found.isEmpty());
    }

    /**
     * Upstream's excluded subtree (-E): nothing beneath skipme is recorded, its callees are where
     * they are called from elsewhere. Every interpreter found, and on 3.12+ (sys.monitoring) also
     * its Python callbacks (ctypes binding, annotations) and the sys.setprofile engine.
     */
    @Test
    void excludedSubtreeOnEveryInstalledInterpreter() throws Exception {
        List<String> want = List.of(
                "outer c1 d0",
                "helper c2 d1",
                "leaf c2 d2",
                "boom c1 d1",
                "helper c1 d2",
                "leaf c1 d3",
                "gen_sum c1 d1",
                "gen c4 d2",
                "leaf c3 d3");
        List<String> found = interpreters();
        for (String exe : found) {
            boolean monitoring = Command.of(exe, "-c", "import sys; print(hasattr(sys, 'monitoring'))")
                    .ok()
                    .strip()
                    .equals("True");
            List<List<String>> variants = new ArrayList<>();
            variants.add(List.of());
            if (monitoring) {
                variants.add(List.of("ROCPROFSYS_PYTHON_BINDING", "ctypes"));
                variants.add(List.of("-a"));
                variants.add(List.of("ROCPROFSYS_PYTHON_ENGINE", "setprofile"));
            }
            for (List<String> variant : variants) {
                String name = "python-subtree-" + Path.of(exe).getFileName() + "-" + variants.indexOf(variant);
                Map<String, String> env = pythonEnvironment(name, exe);
                List<String> args = new ArrayList<>(List.of("-E", "^skipme$"));
                if (variant.size() == 2) {
                    env.put(variant.get(0), variant.get(1));
                } else {
                    args.addAll(variant);
                }
                args.addAll(List.of("--", script("subtree.py").toString()));
                ProcessResult r = tool("rocprof-sys-python", env, args.toArray(String[]::new));
                assertEquals(0, r.exitCode(), exe + " " + variant + ": " + r.stderr());
                assertEquals(want, PythonProfiles.timemory(output(name, "trip_count.json")), exe + " " + variant);
            }
            // builtin mode: an excluded function already running when profiling starts
            String name = "python-subtree-builtin-" + Path.of(exe).getFileName();
            runUnder(
                    exe,
                    name,
                    argv("-b -E ^root$ --", script("subtree-builtin.py").toString()));
            assertEquals(
                    List.of("mid c1 d0", "leaf c1 d1"),
                    PythonProfiles.timemory(output(name, "trip_count.json")),
                    exe + " builtin");
        }
        assertFalse(found.isEmpty());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void builtinNoprofile(boolean annotated) throws Exception {
        String text = tripCount(
                "python-builtin-noprofile",
                "noprofile.py",
                "15",
                annotated,
                "--annotate-trace",
                "-b",
                "--label",
                "file");
        assertTrue(Pattern.compile(".(run)..(noprofile.py).").matcher(text).find(), text);
        assertFalse(
                Pattern.compile(".(fib|inefficient)..(noprofile.py).")
                        .matcher(text)
                        .find(),
                text);
        assertEquals(
                List.of("[run][noprofile.py] c5 d0"),
                PythonProfiles.timemory(output(runName("python-builtin-noprofile", annotated), "trip_count.json")));
    }

    /** Upstream's STANDALONE test: the script imports rocprofsys itself (no profiler options). */
    @Test
    void source() throws Exception {
        String name = "python-source";
        Map<String, String> env = environment(name, PYTHON_ENV);
        env.put("PYTHONPATH", DIST.resolve("lib/python/site-packages").toString());
        List<String> args = new ArrayList<>(List.of("--", interpreter()));
        args.addAll(List.of(script("source.py").toString(), "-v", "5", "-n", "5", "-s", "3"));
        ProcessResult r = tool("rocprof-sys-run", env, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
        List<String> want = PythonProfiles.SOURCE;
        assertEquals(want, PythonProfiles.timemory(output(name, "trip_count.json")));
        DecodedTrace trace = DecodedTrace.read(output(name, "perfetto-trace.proto"));
        assertEquals(want, PythonProfiles.perfetto(trace, Set.of("python", "user")));
    }

    @Test
    void consoleScriptHelp() throws Exception {
        ProcessResult r = tool("rocprof-sys-python", Map.of(), "--help");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("usage: rocprofsys"), r.stdout());
        assertTrue(r.stdout().contains("--annotate-trace"), r.stdout());
    }

    @ParameterizedTest
    @ValueSource(strings = {"raises.py", "os-exit.py", "killed.py"})
    void workBeforeAnAbruptEndIsKept(String file) throws Exception {
        String name = "python-end-" + file.replace(".py", "");
        ProcessResult r = python(name, "--", script(file).toString());
        int expectedExit = switch (file) {
            case "raises.py" -> 1;
            case "os-exit.py" -> 7;
            default -> 128 + 9;
        };
        assertEquals(expectedExit, r.exitCode(), r.stderr());
        if (file.equals("raises.py")) {
            assertTrue(r.stderr().contains("ValueError: raised on purpose"), r.stderr());
        }
        List<String> graph = PythonProfiles.timemory(output(name, "trip_count.json"));
        assertTrue(graph.contains("work c3 d0"), graph.toString());
        DecodedTrace trace = DecodedTrace.read(output(name, "perfetto-trace.proto"));
        assertTrue(PythonProfiles.perfetto(trace, Set.of("python")).contains("work c3 d0"));
    }

    @Test
    void threadsAndForkEachOnTheirOwnTrack() throws Exception {
        String name = "python-threads-fork";
        Map<String, String> env = environment(name, PYTHON_ENV);
        env.put("ROCPROFSYS_USE_PID", "ON");
        ProcessResult r =
                tool("rocprof-sys-python", env, "--", script("threads-fork.py").toString());
        assertEquals(0, r.exitCode(), r.stderr());
        List<Path> traces;
        try (Stream<Path> files = Files.list(outputRoot().resolve(name))) {
            traces = files.filter(f -> f.getFileName().toString().startsWith("perfetto-trace"))
                    .toList();
        }
        assertEquals(1, traces.size(), "one trace for the parent and its child: " + traces);
        DecodedTrace trace = DecodedTrace.read(traces.getFirst());
        long processes = trace.tracks.values().stream()
                .filter(DecodedTrace.Track::isProcess)
                .count();
        assertEquals(2, processes);
        List<String> all = PythonProfiles.perfetto(trace, Set.of("python"));
        // the child's own main thread starts at its first Python function (no interpreter region)
        assertTrue(all.contains("child_work c1 d0"), all.toString());
        assertTrue(all.contains("worker c1 d1"), all.toString());
        long threadTracksWithWorker = trace.tracks.values().stream()
                .filter(DecodedTrace.Track::isThread)
                .filter(track -> trace.slices.stream()
                        .anyMatch(sl -> sl.trackUuid == track.uuid() && sl.name.equals("worker") && sl.depth == 0))
                .count();
        // the two threads and the parent's main thread
        assertEquals(3, threadTracksWithWorker, all.toString());
        try (Stream<Path> files = Files.list(outputRoot().resolve(name))) {
            assertEquals(
                    2,
                    files.filter(f -> f.getFileName().toString().matches("trip_count-[0-9]+\\.json"))
                            .count());
        }
    }

    @Test
    void badInputStartsNoRunAndWritesNothing() throws Exception {
        Path syntax = cwd.resolve("syntax-error.py");
        Files.writeString(syntax, "def broken(:\n    pass\n");
        record Case(String name, String[] args, String message) {}
        List<Case> cases = List.of(
                new Case(
                        "python-no-script",
                        new String[] {"--"},
                        "RuntimeError: Could not determine input script in ''."
                                + " Use '--' before the script and its arguments to ensure correct parsing."),
                new Case(
                        "python-missing",
                        new String[] {"--", "no-such-script.py"},
                        "Could not find script no-such-script.py"),
                new Case("python-syntax", new String[] {"--", syntax.toString()}, "SyntaxError: invalid syntax"),
                new Case(
                        "python-bad-option",
                        new String[] {
                            "--label", "nope", "--", script("external.py").toString()
                        },
                        "argument --label: invalid choice: 'nope'"));
        for (Case c : cases) {
            ProcessResult r = python(c.name(), c.args());
            assertNotEquals(0, r.exitCode(), c.name());
            assertTrue(r.stderr().contains(c.message()), c.name() + ": " + r.stderr());
            assertFalse(Files.exists(outputRoot().resolve(c.name())), c.name() + " wrote its output folder");
        }
    }
}
