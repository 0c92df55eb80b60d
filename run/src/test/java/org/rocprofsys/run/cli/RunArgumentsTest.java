package org.rocprofsys.run.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** rocprof-sys-run command lines: structure, every option family, and the errors. */
class RunArgumentsTest {

    /** Upstream's list with its placeholders filled in, running {@code sleeper 5}. */
    static final List<String> UPSTREAM_RUN_ARGS = upstreamRunArgs();

    private static List<String> upstreamRunArgs() {
        List<String> l = new ArrayList<>(UpstreamRunArgs.options(
                "/work/rocprof-sys-tests-config/empty.cfg", "/build/rocprof-sys-tests-config/tmpdir"));
        l.addAll(List.of("--", "/build/bin/testing/sleeper", "5"));
        return List.copyOf(l);
    }

    static RunInvocation parse(Map<String, String> env, String... argv) throws RunUsageException {
        return RunArguments.parse(argv, env);
    }

    static RunInvocation parse(String... argv) throws RunUsageException {
        return parse(Map.of(), argv);
    }

    /** The environment the command gets when the launcher inherited nothing. */
    static Map<String, String> env(String... argv) throws RunUsageException {
        return parse(argv).environment();
    }

    static RunUsageException error(String... argv) {
        return assertThrows(RunUsageException.class, () -> parse(argv));
    }

    static String[] withCommand(String... options) {
        List<String> l = new ArrayList<>(List.of(options));
        l.add("--");
        l.add("app");
        return l.toArray(String[]::new);
    }

    @Test
    void variablesTheOptionsSetAreNamedByTheirOption() throws Exception {
        RunInvocation inv =
                parse(Map.of("ROCPROFSYS_TRACE", "true"), withCommand("-T", "--trace-clock-id", "monotonic", "-P"));
        Map<String, String> by = inv.variablesSetByOptions();
        assertEquals("--trace-clock-id", by.get("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID"), by.toString());
        assertEquals("-P/--profile", by.get("ROCPROFSYS_PROFILE"), by.toString());
        // the value the command inherited anyway is the environment's, not the option's
        assertFalse(by.containsKey("ROCPROFSYS_TRACE"), by.toString());
        assertTrue(parse(withCommand()).variablesSetByOptions().isEmpty());
    }

    // ------------------------------------------------------------------ upstream's test

    @Test
    void upstreamRunArgsListParses() throws Exception {
        RunInvocation inv = parse(UPSTREAM_RUN_ARGS.toArray(String[]::new));
        assertEquals(RunInvocation.Request.EXECUTE, inv.request());
        assertEquals(List.of("/build/bin/testing/sleeper", "5"), inv.command());
        assertTrue(inv.fork());
        assertEquals(1, inv.verbose());
        assertTrue(inv.monochrome());
        assertEquals(List.of(), inv.ignoredArguments());

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("MONOCHROME", "1");
        expected.put("ROCPROFSYS_MONOCHROME", "1");
        expected.put("ROCPROFSYS_DEBUG", "false");
        expected.put("ROCPROFSYS_VERBOSE", "1");
        expected.put("ROCPROFSYS_CONFIG_FILE", "/work/rocprof-sys-tests-config/empty.cfg");
        expected.put("ROCPROFSYS_OUTPUT_PATH", "rocprof-sys-tests-output");
        expected.put("ROCPROFSYS_OUTPUT_PREFIX", "rocprofiler-systems-run-args-output/");
        expected.put("ROCPROFSYS_TRACE", "true");
        expected.put("ROCPROFSYS_PROFILE", "true");
        expected.put("ROCPROFSYS_USE_PROCESS_SAMPLING", "true");
        expected.put("ROCPROFSYS_CPU_FREQ_ENABLED", "true");
        expected.put("ROCPROFSYS_USE_AMD_SMI", "true");
        expected.put("ROCPROFSYS_USE_SAMPLING", "true");
        expected.put("ROCPROFSYS_SAMPLING_CPUTIME", "true");
        expected.put("ROCPROFSYS_SAMPLING_REALTIME", "true");
        // explicit options beat the WEAK -w/-d whatever their position
        expected.put("ROCPROFSYS_TRACE_DELAY", "1e-12");
        expected.put("ROCPROFSYS_TRACE_DURATION", "5");
        expected.put("ROCPROFSYS_SAMPLING_DELAY", "1");
        expected.put("ROCPROFSYS_SAMPLING_DURATION", "10");
        expected.put("ROCPROFSYS_CAUSAL_DELAY", "1");
        expected.put("ROCPROFSYS_CAUSAL_DURATION", "3");
        expected.put("ROCPROFSYS_PERFETTO_FILE", "perfetto-run-args-trace.proto");
        expected.put("ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB", "100");
        expected.put("ROCPROFSYS_PERFETTO_FILL_POLICY", "ring_buffer");
        expected.put("ROCPROFSYS_TEXT_OUTPUT", "true");
        expected.put("ROCPROFSYS_JSON_OUTPUT", "true");
        expected.put("ROCPROFSYS_COUT_OUTPUT", "true");
        expected.put("ROCPROFSYS_PROCESS_SAMPLING_FREQ", "1000");
        expected.put("ROCPROFSYS_PROCESS_SAMPLING_DELAY", "0");
        expected.put("ROCPROFSYS_PROCESS_SAMPLING_DURATION", "10");
        expected.put("ROCPROFSYS_SAMPLING_CPUS", "0-4");
        expected.put("ROCPROFSYS_SAMPLING_GPUS", "0");
        expected.put("ROCPROFSYS_SAMPLING_FREQ", "1000");
        expected.put("ROCPROFSYS_SAMPLING_TIDS", "0-3");
        expected.put("ROCPROFSYS_SAMPLING_CPUTIME_FREQ", "1000");
        expected.put("ROCPROFSYS_SAMPLING_CPUTIME_DELAY", "1.0");
        expected.put("ROCPROFSYS_SAMPLING_CPUTIME_TIDS", "0-3");
        expected.put("ROCPROFSYS_SAMPLING_REALTIME_FREQ", "10");
        expected.put("ROCPROFSYS_SAMPLING_REALTIME_DELAY", "0.5");
        expected.put("ROCPROFSYS_SAMPLING_REALTIME_TIDS", "0-3");
        expected.put("ROCPROFSYS_USE_KOKKOSP", "true");
        expected.put("ROCPROFSYS_USE_MPIP", "true");
        expected.put("ROCPROFSYS_USE_OMPT", "true");
        expected.put("ROCPROFSYS_USE_ROCM", "true");
        expected.put("ROCPROFSYS_USE_RCCLP", "true");
        expected.put("ROCPROFSYS_USE_CUDA", "true"); // this project's CUDA backend is one of -I all's
        // [quirk] actions run in alphabetical order of option names: -I/--include after -E/--exclude
        expected.put("ROCPROFSYS_TRACE_THREAD_LOCKS", "true");
        expected.put("ROCPROFSYS_TRACE_THREAD_RW_LOCKS", "true");
        expected.put("ROCPROFSYS_TRACE_THREAD_SPIN_LOCKS", "true");
        // -I all: no OMP_TOOL_LIBRARIES / KOKKOS_TOOLS_LIBS while those tool libraries are not built
        expected.put("ROCPROFSYS_PAPI_EVENTS", "perf::INSTRUCTIONS");
        expected.put("ROCPROFSYS_SAMPLING_INCLUDE_INLINES", "true");
        expected.put("HSA_ENABLE_INTERRUPT", "0");
        expected.put("ROCPROFSYS_USE_CAUSAL", "false");
        expected.put("ROCPROFSYS_NUM_THREADS_HINT", "4");
        expected.put("ROCPROFSYS_SAMPLING_ALLOCATOR_SIZE", "32");
        expected.put("ROCPROFSYS_CI", "true");
        expected.put("ROCPROFSYS_DL_VERBOSE", "3");
        expected.put("ROCPROFSYS_PERFETTO_ANNOTATIONS", "off");
        expected.put("ROCPROFSYS_KOKKOSP_KERNEL_LOGGER", "true");
        expected.put("ROCPROFSYS_KOKKOSP_NAME_LENGTH_MAX", "1024");
        expected.put("ROCPROFSYS_KOKKOSP_PREFIX", "\"[kokkos]\"");
        expected.put("ROCPROFSYS_TMPDIR", "/build/rocprof-sys-tests-config/tmpdir");
        expected.put("ROCPROFSYS_PERFETTO_BACKEND", "inprocess");
        expected.put("ROCPROFSYS_USE_PID", "false");
        expected.put("ROCPROFSYS_TIME_OUTPUT", "off");
        expected.put("ROCPROFSYS_THREAD_POOL_SIZE", "0");
        expected.put("ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock cpu_clock peak_rss page_rss");
        assertEquals(new TreeMap<>(expected), new TreeMap<>(inv.environment()));
    }

    @Test
    void upstreamRunArgsListPrintsEveryUpdatedVariable() throws Exception {
        RunInvocation inv = parse(UPSTREAM_RUN_ARGS.toArray(String[]::new));
        List<String> lines = inv.reportLines();
        assertEquals(inv.environment().size(), lines.size());
        List<String> sorted = new ArrayList<>(lines);
        sorted.sort(null);
        assertEquals(sorted, lines);
        assertTrue(lines.contains("ROCPROFSYS_TRACE_DELAY=1e-12"), lines::toString);
    }

    // ------------------------------------------------------------------ structure

    @Test
    void noArgumentsIsAUsageError() {
        RunUsageException e = error();
        assertTrue(e.usageOnly());
        assertEquals(1, e.exitCode());
        assertEquals("Usage: rocprof-sys-run <OPTIONS> -- <COMMAND> <ARGS>", e.getMessage());
    }

    @Test
    void optionsWithoutACommandAreAUsageError() {
        assertTrue(error("-T").usageOnly());
        assertTrue(error("-T", "--").usageOnly());
    }

    @Test
    void wholeArgumentListIsTheCommandWhenItDoesNotStartWithAnOption() throws Exception {
        RunInvocation inv = parse("./app", "-T", "--trace-wait", "x");
        assertEquals(List.of("./app", "-T", "--trace-wait", "x"), inv.command());
        assertEquals(List.of(), inv.updates());
        assertFalse(inv.fork());
        assertEquals(RunInvocation.Request.EXECUTE, inv.request());
    }

    @Test
    void doubleDashOrHelpAnywhereTurnsParsingOn() throws Exception {
        RunInvocation inv = parse("./app", "--", "./real", "x");
        assertEquals(List.of("./real", "x"), inv.command());
        assertEquals(List.of("./app"), inv.ignoredArguments());
        assertEquals(RunInvocation.Request.HELP, parse("./app", "--help").request());
        assertEquals(RunInvocation.Request.HELP, parse("./app", "-h").request());
        assertEquals(RunInvocation.Request.HELP, parse("./app", "-?").request());
        assertEquals(RunInvocation.Request.VERSION, parse("./app", "--version").request());
    }

    @Test
    void aLeadingDoubleDashMakesEverythingAfterItTheCommand() throws Exception {
        RunInvocation inv = parse("--", "app", "--help", "-T", "--");
        assertEquals(RunInvocation.Request.EXECUTE, inv.request());
        assertEquals(List.of("app", "--help", "-T", "--"), inv.command());
        assertEquals(List.of(), inv.updates());
        assertEquals(List.of(), inv.ignoredArguments());
        assertFalse(inv.fork());
        assertEquals(0, inv.verbose());
        assertEquals(java.util.Optional.empty(), inv.launcher());
        assertTrue(error("--").usageOnly());
    }

    @Test
    void everythingAfterTheFirstDoubleDashIsTheCommand() throws Exception {
        RunInvocation inv = parse("-T", "--", "app", "-P", "--", "--help");
        assertEquals(List.of("app", "-P", "--", "--help"), inv.command());
        assertEquals(Map.of("ROCPROFSYS_TRACE", "true"), inv.environment());
    }

    @Test
    void helpAndVersion() throws Exception {
        assertEquals(RunInvocation.Request.HELP, parse("--help").request());
        assertEquals(RunInvocation.Request.HELP, parse("-T", "-h").request());
        assertEquals(RunInvocation.Request.VERSION, parse("--version").request());
        assertEquals(RunInvocation.Request.HELP, parse("--version", "--help").request());
        // help wins over conflicts, as upstream (checked after the help action exits)
        assertEquals(RunInvocation.Request.HELP, parse("-P", "-F", "--help").request());
    }

    @Test
    void optionSyntax() throws Exception {
        assertEquals("2", env("-v=2", "--", "a").get("ROCPROFSYS_VERBOSE"));
        assertEquals("3", env("--v", "3", "--", "a").get("ROCPROFSYS_VERBOSE"));
        assertEquals("-1", env("-v", "-1", "--", "a").get("ROCPROFSYS_VERBOSE"));
        assertEquals("-0.001", env("--trace-wait", "-1e-3", "--", "a").get("ROCPROFSYS_TRACE_DELAY"));
        assertEquals("a:b", env("-c", "a", "-c", "b", "--", "x").get("ROCPROFSYS_CONFIG_FILE"));
        Map<String, String> cluster = env("-TPHD", "--", "a");
        assertEquals("true", cluster.get("ROCPROFSYS_TRACE"));
        assertEquals("true", cluster.get("ROCPROFSYS_PROFILE"));
        assertEquals("true", cluster.get("ROCPROFSYS_USE_AMD_SMI"));
    }

    @Test
    void surplusValuesAreDroppedLikeUpstream() throws Exception {
        RunInvocation inv = parse("-v", "1", "2", "-T", "false", "extra", "--", "a");
        assertEquals("1", inv.environment().get("ROCPROFSYS_VERBOSE"));
        assertEquals("false", inv.environment().get("ROCPROFSYS_TRACE"));
        assertEquals(List.of("2", "extra"), inv.ignoredArguments());
    }

    @Test
    void optionEffectsFollowTheAlphabeticalOrderOfNames() throws Exception {
        for (String[] argv :
                List.of(withCommand("--trace-wait", "1", "-w", "2"), withCommand("-w", "2", "--trace-wait", "1"))) {
            Map<String, String> env = env(argv);
            assertEquals("1", env.get("ROCPROFSYS_TRACE_DELAY"));
            assertEquals("2", env.get("ROCPROFSYS_SAMPLING_DELAY"));
            assertEquals("2", env.get("ROCPROFSYS_CAUSAL_DELAY"));
        }
        assertEquals("true", env(withCommand("-E", "mutex-locks", "-I", "all")).get("ROCPROFSYS_TRACE_THREAD_LOCKS"));
        assertEquals("true", env(withCommand("-I", "all", "-E", "mutex-locks")).get("ROCPROFSYS_TRACE_THREAD_LOCKS"));
    }

    // ------------------------------------------------------------------ errors

    @Test
    void profileConflictsWithFlatProfile() {
        RunUsageException e = error(withCommand("-P", "-F"));
        assertTrue(e.getMessage().contains("conflicts"), e.getMessage());
        assertTrue(e.option().orElseThrow().contains("profile"), e.getMessage());
        assertTrue(error(withCommand("-PF")).getMessage().contains("conflicts"));
        assertTrue(
                error(withCommand("--flat-profile", "--profile")).getMessage().contains("conflicts"));
    }

    @Test
    void profileFormatRequiresAProfile() throws Exception {
        RunUsageException e = error(withCommand("--profile-format", "json"));
        assertEquals("--profile-format", e.option().orElseThrow());
        assertTrue(
                e.getMessage().contains("-P/--profile") && e.getMessage().contains("-F/--flat-profile"),
                e.getMessage());
        Map<String, String> env = env(withCommand("-F", "--profile-format", "json"));
        assertEquals("true", env.get("ROCPROFSYS_PROFILE"));
        assertEquals("true", env.get("ROCPROFSYS_FLAT_PROFILE"));
        assertEquals("false", env.get("ROCPROFSYS_TEXT_OUTPUT"));
        assertEquals("true", env.get("ROCPROFSYS_JSON_OUTPUT"));
        assertEquals("false", env.get("ROCPROFSYS_COUT_OUTPUT"));
    }

    @Test
    void cpusRequireHostAndGpusRequireDevice() {
        assertEquals("--cpus", error(withCommand("--cpus", "0")).option().orElseThrow());
        assertEquals("--gpus", error(withCommand("-H", "--gpus", "0")).option().orElseThrow());
    }

    @Test
    void unknownOptionsAreNamed() {
        RunUsageException e = error(withCommand("--no-such-option", "1"));
        assertEquals("--no-such-option", e.option().orElseThrow());
        assertTrue(e.getMessage().contains("--no-such-option"));
        assertEquals("-X", error(withCommand("-TX")).option().orElseThrow());
        assertTrue(error(withCommand("--use_pid")).getMessage().contains("use_pid"));
        assertTrue(error(withCommand("--trace-wait:5")).getMessage().contains("malformed"));
    }

    @Test
    void wrongValueCountsAreNamed() {
        assertEquals("-v/--verbose", error(withCommand("-v")).option().orElseThrow());
        assertEquals("-v/--verbose", error(withCommand("-Tv", "1")).option().orElseThrow());
        assertEquals("-o/--output", error(withCommand("-o")).option().orElseThrow());
        assertEquals("-c/--config", error(withCommand("-c")).option().orElseThrow());
        assertEquals("-t/--tids", error(withCommand("-t")).option().orElseThrow());
    }

    @Test
    void badValuesAreNamed() {
        String[][] cases = {
            {"--trace-wait", "abc"},
            {"-w", "soon"},
            {"-v", "x"},
            {"-T", "maybe"},
            {"--trace-buffer-size", "1.5"},
            {"--trace-fill-policy", "fill"},
            {"--trace-clock-id", "3"},
            {"--hsa-interrupt", "2"},
            {"-S", "walltime"},
            {"-I", "opencl"},
            {"-t", "main"},
            {"--sample-cputime", "fast"},
            {"--sample-realtime", "10", "later"},
            {"--process-freq", "1,5"},
            {"-l", "("},
        };
        for (String[] c : cases) {
            RunUsageException e = assertThrows(RunUsageException.class, () -> parse(withCommand(c)), c[0]);
            assertTrue(e.option().isPresent(), c[0]);
            assertTrue(e.getMessage().contains(c[0].startsWith("--") ? c[0] : c[0] + "/"), e.getMessage());
        }
    }

    @Test
    void badValuesOfGeneratedOptionsAreReportedByType() {
        String[][] cases = {
            {"--thread-pool-size", "-3"}, {"--thread-pool-size", "many"}, {"--use-pid", "maybe"},
            {"--dl-verbose", "x"}, {"--num-threads-hint", "4", "5"}, {"--perfetto-backend", "remote"},
            {"--mode", "fast"}, {"--sampling-cputime-freq", "often"}, {"--kokkosp-name-length-max", "1.5"},
        };
        for (String[] c : cases) {
            RunUsageException e = assertThrows(RunUsageException.class, () -> parse(withCommand(c)), c[0]);
            assertEquals(c[0], e.option().orElseThrow());
            assertTrue(e.getMessage().contains("ROCPROFSYS_") || e.getMessage().contains("not one of"), e.getMessage());
        }
    }

    @Test
    void generatedNonBooleanOptionsNeedAValue() {
        RunUsageException e = error(withCommand("--tmpdir"));
        assertEquals("--tmpdir", e.option().orElseThrow());
        assertTrue(e.getMessage().contains("requires a value"), e.getMessage());
    }

    // ------------------------------------------------------------------ option families

    @Test
    void debugOptions() throws Exception {
        Map<String, String> env = env(withCommand("--monochrome", "--debug", "-v", "2"));
        assertEquals("1", env.get("ROCPROFSYS_MONOCHROME"));
        assertEquals("1", env.get("MONOCHROME"));
        assertEquals("true", env.get("ROCPROFSYS_DEBUG"));
        assertEquals("2", env.get("ROCPROFSYS_VERBOSE"));
        RunInvocation off = parse(withCommand("--monochrome", "off"));
        assertEquals("0", off.environment().get("MONOCHROME"));
        assertFalse(off.monochrome());
    }

    @Test
    void generalOptions() throws Exception {
        Map<String, String> env = env(withCommand("-c", "a.cfg", "b.json", "-o", "out"));
        assertEquals("a.cfg:b.json", env.get("ROCPROFSYS_CONFIG_FILE"));
        assertEquals("out", env.get("ROCPROFSYS_OUTPUT_PATH"));
        assertNull(env.get("ROCPROFSYS_OUTPUT_PREFIX"));
        assertEquals("pre-", env(withCommand("-o", "out", "pre-")).get("ROCPROFSYS_OUTPUT_PREFIX"));
        assertEquals("false", env(withCommand("-T", "off")).get("ROCPROFSYS_TRACE"));
        assertEquals("true", env(withCommand("--trace")).get("ROCPROFSYS_TRACE"));
        Map<String, String> flat = env(withCommand("-F"));
        assertEquals("true", flat.get("ROCPROFSYS_PROFILE"));
        assertEquals("true", flat.get("ROCPROFSYS_FLAT_PROFILE"));
        assertEquals(Map.of("ROCPROFSYS_PROFILE", "true"), env(withCommand("-P")));
    }

    @Test
    void sampleOption() throws Exception {
        assertEquals(Map.of("ROCPROFSYS_USE_SAMPLING", "true"), env(withCommand("-S")));
        RunInvocation inv = parse(withCommand("-S", "realtime"));
        assertEquals(
                List.of(
                        EnvUpdate.replace("ROCPROFSYS_USE_SAMPLING", "true"),
                        EnvUpdate.weak("ROCPROFSYS_SAMPLING_CPUTIME", "false"),
                        EnvUpdate.weak("ROCPROFSYS_SAMPLING_REALTIME", "true")),
                inv.updates());
        // WEAK: an inherited value is replaced ...
        Map<String, String> inherited = Map.of("ROCPROFSYS_SAMPLING_CPUTIME", "true");
        assertEquals("false", inv.applyTo(inherited).get("ROCPROFSYS_SAMPLING_CPUTIME"));
        // ... but not one another option changed (--sample-cputime runs after -S)
        assertEquals(
                "true", env(withCommand("-S", "realtime", "--sample-cputime")).get("ROCPROFSYS_SAMPLING_CPUTIME"));
    }

    @Test
    void hostAndDevice() throws Exception {
        Map<String, String> host = env(withCommand("-H"));
        assertEquals("true", host.get("ROCPROFSYS_USE_PROCESS_SAMPLING"));
        assertEquals("true", host.get("ROCPROFSYS_CPU_FREQ_ENABLED"));
        assertEquals("false", host.get("ROCPROFSYS_USE_AMD_SMI"));
        Map<String, String> device = env(withCommand("-D"));
        assertEquals("true", device.get("ROCPROFSYS_USE_PROCESS_SAMPLING"));
        assertEquals("false", device.get("ROCPROFSYS_CPU_FREQ_ENABLED"));
        assertEquals("true", device.get("ROCPROFSYS_USE_AMD_SMI"));
        Map<String, String> both = env(withCommand("-H", "-D"));
        assertEquals("true", both.get("ROCPROFSYS_CPU_FREQ_ENABLED"));
        assertEquals("true", both.get("ROCPROFSYS_USE_AMD_SMI"));
        assertEquals("0-3,5", env(withCommand("-H", "--cpus", "0-3", "5")).get("ROCPROFSYS_SAMPLING_CPUS"));
        assertEquals("", env(withCommand("-H", "--cpus")).get("ROCPROFSYS_SAMPLING_CPUS"));
        assertEquals("0,1", env(withCommand("-D", "--gpus", "0", "1")).get("ROCPROFSYS_SAMPLING_GPUS"));
    }

    @Test
    void waitDurationAndPeriodsAreWeak() throws Exception {
        RunInvocation inv = parse(withCommand("-w", "1.5", "-d", "10", "--periods", "1:2", "3:4"));
        assertTrue(inv.updates().stream().allMatch(u -> u.mode() == EnvUpdate.Mode.WEAK), inv.updates()::toString);
        Map<String, String> env = inv.environment();
        for (String v : List.of("TRACE", "SAMPLING", "CAUSAL")) {
            assertEquals("1.5", env.get("ROCPROFSYS_" + v + "_DELAY"));
            assertEquals("10", env.get("ROCPROFSYS_" + v + "_DURATION"));
        }
        assertEquals("1:2 3:4", env.get("ROCPROFSYS_TRACE_PERIODS"));
        // an inherited value is overridden; a value changed by another option is not
        assertEquals("1.5", inv.applyTo(Map.of("ROCPROFSYS_TRACE_DELAY", "9")).get("ROCPROFSYS_TRACE_DELAY"));
        assertEquals("7", env(withCommand("-w", "1", "--sampling-wait", "7")).get("ROCPROFSYS_SAMPLING_DELAY"));
    }

    @Test
    void includeBackends() throws Exception {
        RunInvocation inv = parse(withCommand("-I", "rocm", "mpip"));
        Map<String, String> env = inv.environment();
        assertEquals("true", env.get("ROCPROFSYS_USE_ROCM"));
        assertEquals("true", env.get("ROCPROFSYS_USE_MPIP"));
        assertNull(env.get("ROCPROFSYS_USE_OMPT"));
        assertNull(env.get("OMP_TOOL_LIBRARIES"));

        // the OMPT and Kokkos tool libraries are not built: naming them is refused, not pointed at a
        // library without the tool entry points
        for (String backend : List.of("ompt", "kokkosp")) {
            RunUsageException e =
                    assertThrows(RunUsageException.class, () -> parse(withCommand("-I", "rocm", backend)));
            assertTrue(e.getMessage().startsWith("-I/--include " + backend + " is not supported yet"), e.getMessage());
        }

        // -I all switches every backend's setting on (the run warns about those not supported) but sets
        // no tool library variable
        Map<String, String> all = env(withCommand("-I", "all"));
        for (String var : RunOptions.BACKENDS.values()) {
            assertEquals("true", all.get(var), var);
        }
        assertNull(all.get("OMP_TOOL_LIBRARIES"));
        assertNull(all.get("KOKKOS_TOOLS_LIBS"));
    }

    @Test
    void excludeBackends() throws Exception {
        Map<String, String> all = env(withCommand("-E", "all"));
        for (String var : RunOptions.BACKENDS.values()) {
            assertEquals("false", all.get(var), var);
        }
        assertNull(all.get("OMP_TOOL_LIBRARIES"));
        RunInvocation inv = parse(withCommand("-E", "ompt", "kokkosp"));
        assertEquals(
                List.of(
                        EnvUpdate.replace("ROCPROFSYS_USE_KOKKOSP", "false"),
                        EnvUpdate.replace("ROCPROFSYS_USE_OMPT", "false"),
                        EnvUpdate.remove("OMP_TOOL_LIBRARIES"),
                        EnvUpdate.remove("KOKKOS_TOOLS_LIBS")),
                inv.updates());
        // removing only undoes changes: an inherited value stays
        assertEquals(
                "/opt/tool.so",
                inv.applyTo(Map.of("OMP_TOOL_LIBRARIES", "/opt/tool.so")).get("OMP_TOOL_LIBRARIES"));
        assertEquals(
                "false", env(withCommand("-E", "mutex-locks", "rw-locks")).get("ROCPROFSYS_TRACE_THREAD_RW_LOCKS"));
    }

    @Test
    void launcher() throws Exception {
        RunInvocation inv = parse("--launcher", "sle+p", "--", "mpirun", "-n", "2", "sleep", "10");
        assertEquals("sle+p", inv.launcher().orElseThrow());
        assertEquals(
                List.of("mpirun", "-n", "2", "/bin/rocprof-sys-run", "--", "sleep", "10"),
                inv.commandWithLauncher("/bin/rocprof-sys-run"));
        RunInvocation miss = parse("-l", "foo", "--", "mpirun", "sleep");
        RunUsageException e = assertThrows(RunUsageException.class, () -> miss.commandWithLauncher("/x"));
        assertTrue(e.getMessage().contains("unable to match \"foo\""), e.getMessage());
        assertEquals(List.of("a", "b"), parse("--", "a", "b").commandWithLauncher("/x"));
    }

    @Test
    void tracingOptions() throws Exception {
        Map<String, String> env = env(withCommand(
                "--trace-file",
                "t.proto",
                "--trace-buffer-size",
                "2048",
                "--trace-fill-policy",
                "discard",
                "--trace-wait",
                "0.25",
                "--trace-duration",
                "1e6",
                "--trace-periods",
                "1:2",
                "3:4:5"));
        assertEquals("t.proto", env.get("ROCPROFSYS_PERFETTO_FILE"));
        assertEquals("2048", env.get("ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB"));
        assertEquals("discard", env.get("ROCPROFSYS_PERFETTO_FILL_POLICY"));
        assertEquals("0.25", env.get("ROCPROFSYS_TRACE_DELAY"));
        assertEquals("1e+06", env.get("ROCPROFSYS_TRACE_DURATION"));
        // [quirk, kept] comma-joined
        assertEquals("1:2,3:4:5", env.get("ROCPROFSYS_TRACE_PERIODS"));
    }

    @Test
    void traceClockIdAcceptsNumbersAndAliases() throws Exception {
        String[][] cases = {
            {"0", "0"},
            {"realtime", "0"},
            {"CLOCK_MONOTONIC", "1"},
            {"cputime", "2"},
            {"CLOCK_PROCESS_CPUTIME_ID", "2"},
            {"monotonic_raw", "4"},
            {"realtime_coarse", "5"},
            {"monotonic_coarse", "6"},
            {"boottime", "7"},
            {"7", "7"}
        };
        for (String[] c : cases) {
            assertEquals(
                    c[1], env(withCommand("--trace-clock-id", c[0])).get("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID"), c[0]);
        }
    }

    @Test
    void profileDiff() throws Exception {
        Map<String, String> env = env(withCommand("--profile-diff", "old", "pre"));
        assertEquals("true", env.get("ROCPROFSYS_DIFF_OUTPUT"));
        assertEquals("old", env.get("ROCPROFSYS_INPUT_PATH"));
        assertEquals("pre", env.get("ROCPROFSYS_INPUT_PREFIX"));
    }

    @Test
    void processSamplingOptions() throws Exception {
        Map<String, String> env =
                env(withCommand("--process-freq", "50.5", "--process-wait", "2", "--process-duration", "3"));
        assertEquals("50.5", env.get("ROCPROFSYS_PROCESS_SAMPLING_FREQ"));
        // [quirk, kept] a variable no setting reads
        assertEquals("2", env.get("ROCPROFSYS_PROCESS_SAMPLING_DELAY"));
        // deviation: the real setting, not upstream's ROCPROFSYS_SAMPLING_PROCESS_DURATION
        assertEquals("3", env.get("ROCPROFSYS_PROCESS_SAMPLING_DURATION"));
        assertNull(env.get("ROCPROFSYS_SAMPLING_PROCESS_DURATION"));
    }

    @Test
    void generalSamplingOptions() throws Exception {
        Map<String, String> env =
                env(withCommand("-f", "100", "-t", "0", "2-4", "--sampling-wait", "1.5", "--sampling-duration", "20"));
        assertEquals("100", env.get("ROCPROFSYS_SAMPLING_FREQ"));
        assertEquals("0, 2-4", env.get("ROCPROFSYS_SAMPLING_TIDS"));
        assertEquals("1.5", env.get("ROCPROFSYS_SAMPLING_DELAY"));
        assertEquals("20", env.get("ROCPROFSYS_SAMPLING_DURATION"));
    }

    @Test
    void samplingTimers() throws Exception {
        assertEquals(Map.of("ROCPROFSYS_SAMPLING_CPUTIME", "true"), env(withCommand("--sample-cputime")));
        Map<String, String> cpu = env(withCommand("--sample-cputime", "100", "0.5", "0", "2-4"));
        assertEquals("100", cpu.get("ROCPROFSYS_SAMPLING_CPUTIME_FREQ"));
        assertEquals("0.5", cpu.get("ROCPROFSYS_SAMPLING_CPUTIME_DELAY"));
        assertEquals("0,2-4", cpu.get("ROCPROFSYS_SAMPLING_CPUTIME_TIDS"));
        Map<String, String> real = env(withCommand("--sample-realtime", "50"));
        assertEquals("true", real.get("ROCPROFSYS_SAMPLING_REALTIME"));
        assertEquals("50", real.get("ROCPROFSYS_SAMPLING_REALTIME_FREQ"));
        assertNull(real.get("ROCPROFSYS_SAMPLING_REALTIME_DELAY"));
        Map<String, String> ovf = env(withCommand("--sample-overflow", "PERF_COUNT_HW_INSTRUCTIONS", "1000000", "0"));
        assertEquals("true", ovf.get("ROCPROFSYS_SAMPLING_OVERFLOW"));
        assertEquals("PERF_COUNT_HW_INSTRUCTIONS", ovf.get("ROCPROFSYS_SAMPLING_OVERFLOW_EVENT"));
        assertEquals("1000000", ovf.get("ROCPROFSYS_SAMPLING_OVERFLOW_FREQ"));
        assertEquals("0", ovf.get("ROCPROFSYS_SAMPLING_OVERFLOW_TIDS"));
        RunUsageException e = error(withCommand("--sample-overflow", "A", "--sampling-overflow-event", "B"));
        assertTrue(e.getMessage().contains("conflicts"), e.getMessage());
    }

    @Test
    void counterAndMiscellaneousOptions() throws Exception {
        Map<String, String> env = env(withCommand("-C", "PAPI_TOT_INS", "perf::CYCLES", "-i", "--hsa-interrupt", "1"));
        assertEquals("PAPI_TOT_INS,perf::CYCLES", env.get("ROCPROFSYS_PAPI_EVENTS"));
        assertEquals("true", env.get("ROCPROFSYS_SAMPLING_INCLUDE_INLINES"));
        assertEquals("1", env.get("HSA_ENABLE_INTERRUPT"));
    }

    @Test
    void forkOption() throws Exception {
        assertTrue(parse(withCommand("--fork")).fork());
        assertFalse(parse(withCommand("--fork", "false")).fork());
        assertFalse(parse(withCommand("-T")).fork());
        assertEquals(List.of(), parse(withCommand("--fork")).updates());
    }

    @Test
    void generatedOptions() throws Exception {
        Map<String, String> env = env(withCommand(
                "--use-pid",
                "--thread-pool-size",
                "4",
                "--timemory-components",
                "wall_clock",
                "peak_rss",
                "--perfetto-annotations=off",
                "--tmpdir",
                "/scratch",
                "--perfetto-backend",
                "system",
                "--time-output",
                "no",
                "--sampling-include-inlines",
                "false",
                "--use-amd-smi=false",
                "--rocm-domains",
                "hip_runtime_api",
                "kernel_dispatch"));
        assertEquals("true", env.get("ROCPROFSYS_USE_PID"));
        assertEquals("4", env.get("ROCPROFSYS_THREAD_POOL_SIZE"));
        assertEquals("wall_clock peak_rss", env.get("ROCPROFSYS_TIMEMORY_COMPONENTS"));
        assertEquals("off", env.get("ROCPROFSYS_PERFETTO_ANNOTATIONS"));
        assertEquals("/scratch", env.get("ROCPROFSYS_TMPDIR"));
        assertEquals("system", env.get("ROCPROFSYS_PERFETTO_BACKEND"));
        assertEquals("no", env.get("ROCPROFSYS_TIME_OUTPUT"));
        assertEquals("false", env.get("ROCPROFSYS_SAMPLING_INCLUDE_INLINES"));
        assertEquals("false", env.get("ROCPROFSYS_USE_AMD_SMI"));
        assertEquals("hip_runtime_api kernel_dispatch", env.get("ROCPROFSYS_ROCM_DOMAINS"));
        // a generated option runs after the explicit one whose name sorts first
        assertEquals(
                "false",
                env(withCommand("-i", "--sampling-include-inlines", "false"))
                        .get("ROCPROFSYS_SAMPLING_INCLUDE_INLINES"));
    }

    @Test
    void doublesArePrintedLikeCxxStreams() {
        String[][] cases = {
            {"1", "1"},
            {"1.0", "1"},
            {"0.5", "0.5"},
            {"1.0e-12", "1e-12"},
            {"1000", "1000"},
            {"1e6", "1e+06"},
            {"123456789", "1.23457e+08"},
            {"0.0001", "0.0001"},
            {"0.00001", "1e-05"},
            {"999999.5", "1e+06"},
            {"-2.5", "-2.5"},
            {"3.14159265", "3.14159"},
            {"100000", "100000"}
        };
        for (String[] c : cases) {
            assertEquals(c[1], ParseContext.formatDouble(Double.parseDouble(c[0])), c[0]);
        }
    }
}
