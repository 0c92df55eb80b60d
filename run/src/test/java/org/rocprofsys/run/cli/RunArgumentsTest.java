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
    /** {@code NAME=value} lines, in order (a value may hold spaces and '='). */
    static Map<String, String> envLines(String lines) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : lines.strip().split("\n")) {
            int eq = line.indexOf('=');
            m.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        return m;
    }

    /** Each {@code NAME=value} of {@code lines} is what {@code env} holds for NAME. */
    static void assertEnv(Map<String, String> env, String lines) {
        envLines(lines).forEach((name, value) -> assertEquals(value, env.get(name), name));
    }

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

        // ROCPROFSYS_TRACE_DELAY to ROCPROFSYS_CAUSAL_DURATION: explicit options beat the WEAK -w/-d
        // whatever their position; ROCPROFSYS_USE_CUDA: this project's CUDA backend is one of -I all's;
        // ROCPROFSYS_TRACE_THREAD_*LOCKS: [quirk] actions run in alphabetical order of option names,
        // -I/--include after -E/--exclude; -I all: no OMP_TOOL_LIBRARIES / KOKKOS_TOOLS_LIBS while
        // those tool libraries are not built
        Map<String, String> expected = envLines("""
                MONOCHROME=1
                ROCPROFSYS_MONOCHROME=1
                ROCPROFSYS_DEBUG=false
                ROCPROFSYS_VERBOSE=1
                ROCPROFSYS_CONFIG_FILE=/work/rocprof-sys-tests-config/empty.cfg
                ROCPROFSYS_OUTPUT_PATH=rocprof-sys-tests-output
                ROCPROFSYS_OUTPUT_PREFIX=rocprofiler-systems-run-args-output/
                ROCPROFSYS_TRACE=true
                ROCPROFSYS_PROFILE=true
                ROCPROFSYS_USE_PROCESS_SAMPLING=true
                ROCPROFSYS_CPU_FREQ_ENABLED=true
                ROCPROFSYS_USE_AMD_SMI=true
                ROCPROFSYS_USE_SAMPLING=true
                ROCPROFSYS_SAMPLING_CPUTIME=true
                ROCPROFSYS_SAMPLING_REALTIME=true
                ROCPROFSYS_TRACE_DELAY=1e-12
                ROCPROFSYS_TRACE_DURATION=5
                ROCPROFSYS_SAMPLING_DELAY=1
                ROCPROFSYS_SAMPLING_DURATION=10
                ROCPROFSYS_CAUSAL_DELAY=1
                ROCPROFSYS_CAUSAL_DURATION=3
                ROCPROFSYS_PERFETTO_FILE=perfetto-run-args-trace.proto
                ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB=100
                ROCPROFSYS_PERFETTO_FILL_POLICY=ring_buffer
                ROCPROFSYS_TEXT_OUTPUT=true
                ROCPROFSYS_JSON_OUTPUT=true
                ROCPROFSYS_COUT_OUTPUT=true
                ROCPROFSYS_PROCESS_SAMPLING_FREQ=1000
                ROCPROFSYS_PROCESS_SAMPLING_DELAY=0
                ROCPROFSYS_PROCESS_SAMPLING_DURATION=10
                ROCPROFSYS_SAMPLING_CPUS=0-4
                ROCPROFSYS_SAMPLING_GPUS=0
                ROCPROFSYS_SAMPLING_FREQ=1000
                ROCPROFSYS_SAMPLING_TIDS=0-3
                ROCPROFSYS_SAMPLING_CPUTIME_FREQ=1000
                ROCPROFSYS_SAMPLING_CPUTIME_DELAY=1.0
                ROCPROFSYS_SAMPLING_CPUTIME_TIDS=0-3
                ROCPROFSYS_SAMPLING_REALTIME_FREQ=10
                ROCPROFSYS_SAMPLING_REALTIME_DELAY=0.5
                ROCPROFSYS_SAMPLING_REALTIME_TIDS=0-3
                ROCPROFSYS_USE_KOKKOSP=true
                ROCPROFSYS_USE_MPIP=true
                ROCPROFSYS_USE_OMPT=true
                ROCPROFSYS_USE_ROCM=true
                ROCPROFSYS_USE_RCCLP=true
                ROCPROFSYS_USE_CUDA=true
                ROCPROFSYS_TRACE_THREAD_LOCKS=true
                ROCPROFSYS_TRACE_THREAD_RW_LOCKS=true
                ROCPROFSYS_TRACE_THREAD_SPIN_LOCKS=true
                ROCPROFSYS_PAPI_EVENTS=perf::INSTRUCTIONS
                ROCPROFSYS_SAMPLING_INCLUDE_INLINES=true
                HSA_ENABLE_INTERRUPT=0
                ROCPROFSYS_USE_CAUSAL=false
                ROCPROFSYS_NUM_THREADS_HINT=4
                ROCPROFSYS_SAMPLING_ALLOCATOR_SIZE=32
                ROCPROFSYS_CI=true
                ROCPROFSYS_DL_VERBOSE=3
                ROCPROFSYS_PERFETTO_ANNOTATIONS=off
                ROCPROFSYS_KOKKOSP_KERNEL_LOGGER=true
                ROCPROFSYS_KOKKOSP_NAME_LENGTH_MAX=1024
                ROCPROFSYS_KOKKOSP_PREFIX="[kokkos]"
                ROCPROFSYS_TMPDIR=/build/rocprof-sys-tests-config/tmpdir
                ROCPROFSYS_PERFETTO_BACKEND=inprocess
                ROCPROFSYS_USE_PID=false
                ROCPROFSYS_TIME_OUTPUT=off
                ROCPROFSYS_THREAD_POOL_SIZE=0
                ROCPROFSYS_TIMEMORY_COMPONENTS=wall_clock cpu_clock peak_rss page_rss
                """);
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
        assertEnv(cluster, """
                ROCPROFSYS_TRACE=true
                ROCPROFSYS_PROFILE=true
                ROCPROFSYS_USE_AMD_SMI=true
                """);
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
            assertEnv(env, """
                    ROCPROFSYS_TRACE_DELAY=1
                    ROCPROFSYS_SAMPLING_DELAY=2
                    ROCPROFSYS_CAUSAL_DELAY=2
                    """);
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
        assertEnv(env, """
                ROCPROFSYS_PROFILE=true
                ROCPROFSYS_FLAT_PROFILE=true
                ROCPROFSYS_TEXT_OUTPUT=false
                ROCPROFSYS_JSON_OUTPUT=true
                ROCPROFSYS_COUT_OUTPUT=false
                """);
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
        assertEnv(env, """
                ROCPROFSYS_MONOCHROME=1
                MONOCHROME=1
                ROCPROFSYS_DEBUG=true
                ROCPROFSYS_VERBOSE=2
                """);
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
        assertEnv(host, """
                ROCPROFSYS_USE_PROCESS_SAMPLING=true
                ROCPROFSYS_CPU_FREQ_ENABLED=true
                ROCPROFSYS_USE_AMD_SMI=false
                """);
        Map<String, String> device = env(withCommand("-D"));
        assertEnv(device, """
                ROCPROFSYS_USE_PROCESS_SAMPLING=true
                ROCPROFSYS_CPU_FREQ_ENABLED=false
                ROCPROFSYS_USE_AMD_SMI=true
                """);
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

        // -I ompt and -I kokkosp switch the settings on; the run's threading-tools part names the tool
        // libraries in OMP_TOOL_LIBRARIES / KOKKOS_TOOLS_LIBS, whichever way the settings came (OmptIT,
        // KokkosIT)
        Map<String, String> tools = env(withCommand("-I", "ompt", "kokkosp"));
        assertEquals("true", tools.get("ROCPROFSYS_USE_OMPT"));
        assertEquals("true", tools.get("ROCPROFSYS_USE_KOKKOSP"));
        assertNull(tools.get("OMP_TOOL_LIBRARIES"));
        assertNull(tools.get("KOKKOS_TOOLS_LIBS"));

        // -I all switches every backend's setting on (the run warns about those not supported yet) but sets
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
        assertEnv(env, """
                ROCPROFSYS_PERFETTO_FILE=t.proto
                ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB=2048
                ROCPROFSYS_PERFETTO_FILL_POLICY=discard
                ROCPROFSYS_TRACE_DELAY=0.25
                ROCPROFSYS_TRACE_DURATION=1e+06
                """);
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
        assertEnv(env, """
                ROCPROFSYS_DIFF_OUTPUT=true
                ROCPROFSYS_INPUT_PATH=old
                ROCPROFSYS_INPUT_PREFIX=pre
                """);
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
        assertEnv(env, """
                ROCPROFSYS_SAMPLING_FREQ=100
                ROCPROFSYS_SAMPLING_TIDS=0, 2-4
                ROCPROFSYS_SAMPLING_DELAY=1.5
                ROCPROFSYS_SAMPLING_DURATION=20
                """);
    }

    @Test
    void samplingTimers() throws Exception {
        assertEquals(Map.of("ROCPROFSYS_SAMPLING_CPUTIME", "true"), env(withCommand("--sample-cputime")));
        Map<String, String> cpu = env(withCommand("--sample-cputime", "100", "0.5", "0", "2-4"));
        assertEnv(cpu, """
                ROCPROFSYS_SAMPLING_CPUTIME_FREQ=100
                ROCPROFSYS_SAMPLING_CPUTIME_DELAY=0.5
                ROCPROFSYS_SAMPLING_CPUTIME_TIDS=0,2-4
                """);
        Map<String, String> real = env(withCommand("--sample-realtime", "50"));
        assertEquals("true", real.get("ROCPROFSYS_SAMPLING_REALTIME"));
        assertEquals("50", real.get("ROCPROFSYS_SAMPLING_REALTIME_FREQ"));
        assertNull(real.get("ROCPROFSYS_SAMPLING_REALTIME_DELAY"));
        Map<String, String> ovf = env(withCommand("--sample-overflow", "PERF_COUNT_HW_INSTRUCTIONS", "1000000", "0"));
        assertEnv(ovf, """
                ROCPROFSYS_SAMPLING_OVERFLOW=true
                ROCPROFSYS_SAMPLING_OVERFLOW_EVENT=PERF_COUNT_HW_INSTRUCTIONS
                ROCPROFSYS_SAMPLING_OVERFLOW_FREQ=1000000
                ROCPROFSYS_SAMPLING_OVERFLOW_TIDS=0
                """);
        RunUsageException e = error(withCommand("--sample-overflow", "A", "--sampling-overflow-event", "B"));
        assertTrue(e.getMessage().contains("conflicts"), e.getMessage());
    }

    @Test
    void counterAndMiscellaneousOptions() throws Exception {
        Map<String, String> env = env(withCommand("-C", "PAPI_TOT_INS", "perf::CYCLES", "-i", "--hsa-interrupt", "1"));
        assertEnv(env, """
                ROCPROFSYS_PAPI_EVENTS=PAPI_TOT_INS,perf::CYCLES
                ROCPROFSYS_SAMPLING_INCLUDE_INLINES=true
                HSA_ENABLE_INTERRUPT=1
                """);
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
        assertEnv(env, """
                ROCPROFSYS_USE_PID=true
                ROCPROFSYS_THREAD_POOL_SIZE=4
                ROCPROFSYS_TIMEMORY_COMPONENTS=wall_clock peak_rss
                ROCPROFSYS_PERFETTO_ANNOTATIONS=off
                ROCPROFSYS_TMPDIR=/scratch
                ROCPROFSYS_PERFETTO_BACKEND=system
                ROCPROFSYS_TIME_OUTPUT=no
                ROCPROFSYS_SAMPLING_INCLUDE_INLINES=false
                ROCPROFSYS_USE_AMD_SMI=false
                ROCPROFSYS_ROCM_DOMAINS=hip_runtime_api kernel_dispatch
                """);
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
