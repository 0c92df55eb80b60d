package org.rocprofsys.run.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingType;
import org.rocprofsys.config.SettingsRegistry;

/**
 * The option table of rocprof-sys-run, built in the order of upstream's {@code add_core_arguments}
 * and {@code add_extended_arguments} ({@code source/lib/core/argparse.cpp}), because the order
 * decides which settings get a generated {@code --<setting-name>} option: a setting is skipped once
 * an explicit option has claimed its name, but only if that explicit option came earlier (so
 * {@code --sampling-include-inlines} exists beside {@code -i/--inlines}, while {@code
 * --sampling-delay} does not, {@code --sampling-wait} having claimed {@code sampling_delay} first).
 */
final class RunOptions {
    /** The backends of {@code -I/--include} and {@code -E/--exclude} and the settings they switch. */
    static final Map<String, String> BACKENDS;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kokkosp", "ROCPROFSYS_USE_KOKKOSP");
        m.put("mpip", "ROCPROFSYS_USE_MPIP");
        m.put("ompt", "ROCPROFSYS_USE_OMPT");
        m.put("rocm", "ROCPROFSYS_USE_ROCM");
        m.put("rcclp", "ROCPROFSYS_USE_RCCLP");
        m.put("amd-smi", "ROCPROFSYS_USE_AMD_SMI");
        m.put("cuda", "ROCPROFSYS_USE_CUDA");
        m.put("mutex-locks", "ROCPROFSYS_TRACE_THREAD_LOCKS");
        m.put("rw-locks", "ROCPROFSYS_TRACE_THREAD_RW_LOCKS");
        m.put("spin-locks", "ROCPROFSYS_TRACE_THREAD_SPIN_LOCKS");
        BACKENDS = Collections.unmodifiableMap(m);
    }

    /**
     * Settings of category {@code causal} that still get a generated option. The project rule is
     * "no generated options for causal settings" (causal runs go through rocprof-sys-causal), but
     * upstream's own {@code rocprofiler-systems-run-args} test passes {@code --use-causal=false}, so
     * the on/off switch of the backend group is kept.
     */
    static final Set<String> CAUSAL_EXCEPTIONS = Set.of("ROCPROFSYS_USE_CAUSAL");

    /** Categories that never name an extended group (upstream's regex in add_extended_arguments). */
    private static final Pattern NOT_A_GROUP =
            Pattern.compile("rocprofsys|timemory|^(native|custom|advanced|analysis)$");

    private static final String CPUTIME_DESC = "Sample based on a CPU-clock timer (default). Accepts zero or more"
            + " arguments: (1) interrupts per second, e.g. 100 == sample every 10 milliseconds of CPU-time;"
            + " (2) delay in seconds of CPU-clock time, i.e. how long each thread waits before its first sample;"
            + " (3+) thread IDs to sample, starting at 0 (the main thread), as indices or ranges: '0 2-4' samples"
            + " the main thread and the 2nd, 3rd and 4th child threads but not the 1st";
    private static final String REALTIME_DESC = "Sample based on a real-clock timer. Accepts zero or more"
            + " arguments: (1) interrupts per second, e.g. 100 == sample every 10 milliseconds of realtime;"
            + " (2) delay in seconds of real-clock time before each thread takes its first sample;"
            + " (3+) thread IDs to sample, starting at 0 (the main thread), as indices or ranges, e.g. '0 2-4'."
            + " Note that threads which are mostly idle consume more resources with a real-clock timer, since"
            + " real time keeps running while they are idle whereas CPU time does not";
    private static final String OVERFLOW_DESC = "Sample based on an overflow event. Accepts zero or more"
            + " arguments: (1) the overflow metric, e.g. PERF_COUNT_HW_INSTRUCTIONS; (2) the overflow value, e.g."
            + " 10000000 with PERF_COUNT_HW_INSTRUCTIONS == sample every 10,000,000 instructions;"
            + " (3+) thread IDs to sample, starting at 0 (the main thread), as indices or ranges, e.g. '0 2-4'";
    private static final String HSA_INTERRUPT_DESC = "Set the value of the HSA_ENABLE_INTERRUPT environment"
            + " variable. ROCm 5.2 and older can deadlock when a sample is taken while waiting for the signal that a"
            + " kernel completed, which happens when sampling with a real-clock timer. Values: 0 = avoid triggering"
            + " the bug, possibly at the cost of performance; 1 = do not change how ROCm is notified about kernel"
            + " completion";
    private static final String LAUNCHER_DESC = "For MPI jobs, where the '--' of this executable normally goes right"
            + " before the target (`mpirun -n 2 <THIS_EXE> -- <TARGET_EXE> <ARGS...>`), this option allows prefixing"
            + " the whole command (i.e. before `mpirun`, `srun`, etc.). Pass the name of the target executable (or a"
            + " regex matching it) and this executable inserts itself a second time in the right place: `<THIS_EXE>"
            + " --launcher sleep -- mpirun -n 2 sleep 10` is equivalent to `mpirun -n 2 <THIS_EXE> -- sleep 10`";

    /** The help groups: key (shown as {@code [KEY OPTIONS]}) -> description. */
    final Map<String, String> groups = new LinkedHashMap<>();
    /** Every option in help order (help and version excluded). */
    final List<OptionDef> options = new ArrayList<>();
    /** Every option by key (name without dashes), help and version included. */
    final Map<String, OptionDef> byKey = new TreeMap<>();

    private final SettingsRegistry registry;
    private final Set<String> processedEnvirons = new HashSet<>();
    private final Set<String> processedSettings = new HashSet<>();
    private final Set<String> processedGroups = new HashSet<>();
    private String group;

    private RunOptions(SettingsRegistry registry) {
        this.registry = registry;
    }

    private static final class Standard {
        static final RunOptions TABLE = build(SettingsRegistry.standard());
    }

    static RunOptions standard() {
        return Standard.TABLE;
    }

    static RunOptions build(SettingsRegistry registry) {
        RunOptions t = new RunOptions(registry);
        t.populate();
        return t;
    }

    // ---------------------------------------------------------------- the table, in upstream order

    private void populate() {
        special("h", "?", "help");
        special("version");
        // rocprof-sys-run: "disable options related to causal profiling"
        processedGroups.add("causal");

        startGroup("debug", "");
        explicit(
                flag("Disable colorized output", "--monochrome"),
                (c, o, v) -> {
                    boolean mono = ParseContext.bool(o, v);
                    c.monochrome = mono;
                    c.set(o, "ROCPROFSYS_MONOCHROME", mono ? "1" : "0");
                    c.set(o, "MONOCHROME", mono ? "1" : "0");
                },
                "monochrome");
        explicit(
                flag("Debug output", "--debug"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_DEBUG", Boolean.toString(ParseContext.bool(o, v))),
                "debug");
        explicit(
                valued("integral", 1, OptionDef.ANY, OptionDef.ANY, "Verbose output", "-v", "--verbose"),
                (c, o, v) -> {
                    String n = ParseContext.integer(o, v, Integer.MIN_VALUE, Integer.MAX_VALUE);
                    c.verbose = Integer.parseInt(n);
                    c.set(o, "ROCPROFSYS_VERBOSE", n);
                },
                "verbose");
        autoGroup("debugging", false);
        autoGroup("mode", true);

        startGroup("general", "These are options which are ubiquitously applied");
        explicit(
                valued("filepath", OptionDef.ANY, 1, OptionDef.ANY, "Configuration file", "-c", "--config"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_CONFIG_FILE", String.join(":", v)),
                "config",
                "config_file");
        explicit(
                valued(
                        "path [prefix]",
                        OptionDef.ANY,
                        1,
                        2,
                        "Output path. Accepts 1-2 parameters corresponding to the output path and the output prefix",
                        "-o",
                        "--output"),
                (c, o, v) -> {
                    c.set(o, "ROCPROFSYS_OUTPUT_PATH", v.get(0));
                    if (v.size() > 1) {
                        c.set(o, "ROCPROFSYS_OUTPUT_PREFIX", v.get(1));
                    }
                },
                "output",
                "output_path",
                "output_prefix");
        explicit(
                flag("Generate a detailed trace (perfetto output)", "-T", "--trace"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_TRACE", Boolean.toString(ParseContext.bool(o, v))),
                "trace");
        explicit(
                flag("Generate a call-stack-based profile (conflicts with --flat-profile)", "-P", "--profile")
                        .conflicts("flat-profile"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PROFILE", Boolean.toString(ParseContext.bool(o, v))),
                "profile");
        explicit(
                flag("Generate a flat profile (conflicts with --profile)", "-F", "--flat-profile")
                        .conflicts("profile"),
                (c, o, v) -> {
                    String b = Boolean.toString(ParseContext.bool(o, v));
                    c.set(o, "ROCPROFSYS_PROFILE", b);
                    c.set(o, "ROCPROFSYS_FLAT_PROFILE", b);
                },
                "flat_profile");
        // [quirk, kept] upstream marks "cpu_freq" (not "sampling") as processed here
        explicit(
                valued("timer-type", OptionDef.ANY, 0, 2, "Enable statistical sampling of call-stack", "-S", "--sample")
                        .choices("cputime", "realtime"),
                (c, o, v) -> {
                    c.set(o, "ROCPROFSYS_USE_SAMPLING", "true");
                    if (!v.isEmpty()) {
                        c.weak(o, "ROCPROFSYS_SAMPLING_CPUTIME", Boolean.toString(v.contains("cputime")));
                        c.weak(o, "ROCPROFSYS_SAMPLING_REALTIME", Boolean.toString(v.contains("realtime")));
                    }
                },
                "cpu_freq");
        explicit(
                flag(
                        "Enable sampling host-based metrics for the process. E.g. CPU frequency, memory usage, etc.",
                        "-H",
                        "--host"),
                (c, o, v) -> hostOrDevice(c, o, true),
                "host",
                "cpu_freq");
        explicit(
                flag(
                        "Enable sampling device-based metrics for the process. E.g. GPU temperature, memory usage, etc.",
                        "-D",
                        "--device"),
                (c, o, v) -> hostOrDevice(c, o, false),
                "device",
                "amd_smi");
        explicit(
                oneValue(
                        "seconds",
                        "This option is a combination of '--trace-wait'"
                                + " and '--sampling-wait'. See the descriptions for those two options.",
                        "-w",
                        "--wait"),
                (c, o, v) -> traceSamplingAndCausal(c, o, v, "DELAY"),
                "wait");
        explicit(
                oneValue(
                        "seconds",
                        "This option is a combination of"
                                + " '--trace-duration' and '--sampling-duration'. See the descriptions for those two options.",
                        "-d",
                        "--duration"),
                (c, o, v) -> traceSamplingAndCausal(c, o, v, "DURATION"),
                "duration");
        explicit(
                valued(
                        "period-spec(s)",
                        OptionDef.ANY,
                        1,
                        OptionDef.ANY,
                        "Similar to specifying delay and/or"
                                + " duration except in the form <DELAY>:<DURATION>, <DELAY>:<DURATION>:<REPEAT>, and/or"
                                + " <DELAY>:<DURATION>:<REPEAT>:<CLOCK_ID>",
                        "--periods"),
                (c, o, v) -> c.weak(o, "ROCPROFSYS_TRACE_PERIODS", String.join(" ", v)),
                "periods");

        startGroup("backend", "These options control region information captured w/o sampling or instrumentation");
        String[] backendChoices = backendChoices();
        explicit(
                valued(
                                "[backend...]",
                                OptionDef.ANY,
                                1,
                                backendChoices.length,
                                "Include data from these backends",
                                "-I",
                                "--include")
                        .choices(backendChoices),
                (c, o, v) -> include(c, o, v, false),
                "include");
        explicit(
                valued(
                                "[backend...]",
                                OptionDef.ANY,
                                1,
                                backendChoices.length,
                                "Exclude data from these backends",
                                "-E",
                                "--exclude")
                        .choices(backendChoices),
                RunOptions::exclude,
                "exclude");
        autoGroup("backend", false);
        autoGroup("parallelism", true);
        // upstream adds it after the PARALLELISM group has ended; it is listed in that group here
        explicit(
                valued("target-exe", 1, OptionDef.ANY, OptionDef.ANY, LAUNCHER_DESC, "-l", "--launcher"),
                (c, o, v) -> {
                    String regex = String.join(" ", v);
                    try {
                        Pattern.compile(regex);
                    } catch (java.util.regex.PatternSyntaxException e) {
                        throw new RunUsageException(
                                o.label(),
                                "invalid regex '" + regex + "' for " + o.label() + ": " + e.getDescription());
                    }
                    c.launcher = java.util.Optional.of(regex);
                },
                "launcher");

        startGroup("tracing", "Specific options controlling tracing (i.e. deterministic measurements of every event)");
        explicit(
                oneValue(
                        "filepath",
                        "Specify the trace output filename. Relative"
                                + " filepath will be with respect to output path and output prefix.",
                        "--trace-file"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PERFETTO_FILE", String.join(" ", v)),
                "trace_file",
                "perfetto_file");
        explicit(
                oneValue("KB", "Size limit for the trace output (in KB)", "--trace-buffer-size"),
                (c, o, v) -> c.set(
                        o,
                        "ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB",
                        ParseContext.integer(o, v, Long.MIN_VALUE, Long.MAX_VALUE)),
                "trace_buffer_size",
                "perfetto_buffer_size_kb");
        explicit(
                oneValue(
                                "policy",
                                "Policy for new data when the buffer size limit is"
                                        + " reached: 'discard' (new data is ignored) or 'ring_buffer' (new data overwrites oldest data)",
                                "--trace-fill-policy")
                        .choices("discard", "ring_buffer"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PERFETTO_FILL_POLICY", String.join(" ", v)),
                "trace_fill_policy",
                "perfetto_fill_policy");
        explicit(
                oneValue(
                        "seconds",
                        "Set the wait time (in seconds) before collecting"
                                + " trace and/or profiling data. By default, the duration is in seconds of realtime but that can be"
                                + " changed via --trace-clock-id.",
                        "--trace-wait"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_TRACE_DELAY", ParseContext.dbl(o, v)),
                "trace_delay");
        explicit(
                oneValue(
                        "seconds",
                        "Set the duration of the trace and/or profile data"
                                + " collection (in seconds). By default, the duration is in seconds of realtime but that can be"
                                + " changed via --trace-clock-id.",
                        "--trace-duration"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_TRACE_DURATION", ParseContext.dbl(o, v)),
                "trace_duration");
        // [quirk, kept] joined with ',' (the library splits TRACE_PERIODS only on space/';'/tab/newline)
        explicit(
                valued(
                        "period-spec(s)",
                        OptionDef.ANY,
                        1,
                        OptionDef.ANY,
                        "More powerful version of specifying"
                                + " trace delay and/or duration. Format is one or more groups of: <DELAY>:<DURATION>,"
                                + " <DELAY>:<DURATION>:<REPEAT>, and/or <DELAY>:<DURATION>:<REPEAT>:<CLOCK_ID>.",
                        "--trace-periods"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_TRACE_PERIODS", String.join(",", v)),
                "trace_periods");
        explicit(
                oneValue(
                                "clock-id",
                                "Set the default clock ID for trace"
                                        + " delay/duration. Note: \"cputime\" is the *process* CPU time and might need to be scaled by the"
                                        + " number of threads, i.e. 4 seconds of CPU-time for an application with 4 fully active threads"
                                        + " equate to ~1 second of realtime.",
                                "--trace-clock-id")
                        .choices("0", "1", "2", "4", "5", "6", "7")
                        .aliases(clockAliases()),
                (c, o, v) -> c.set(o, "ROCPROFSYS_TRACE_PERIOD_CLOCK_ID", ParseContext.dbl(o, v)),
                "trace_clock_id",
                "trace_period_clock_id");

        startGroup(
                "profile",
                "Specific options controlling profiling (i.e. deterministic measurements which are"
                        + " aggregated into a summary)");
        explicit(
                valued("string", OptionDef.ANY, 1, 3, "Data formats for profiling results", "--profile-format")
                        .choices("text", "json", "console")
                        .requires("profile", "flat-profile"),
                (c, o, v) -> {
                    c.set(o, "ROCPROFSYS_PROFILE", "true");
                    c.set(o, "ROCPROFSYS_TEXT_OUTPUT", Boolean.toString(v.contains("text")));
                    c.set(o, "ROCPROFSYS_JSON_OUTPUT", Boolean.toString(v.contains("json")));
                    c.set(o, "ROCPROFSYS_COUT_OUTPUT", Boolean.toString(v.contains("console")));
                },
                "profile_format",
                "text_output",
                "json_output",
                "cout_output");
        explicit(
                valued(
                        "path [prefix]",
                        OptionDef.ANY,
                        1,
                        2,
                        "Generate a diff output b/t the profile collected and an"
                                + " existing profile from another run. Accepts 1-2 parameters corresponding to the input path and"
                                + " the input prefix",
                        "--profile-diff"),
                (c, o, v) -> {
                    c.set(o, "ROCPROFSYS_DIFF_OUTPUT", "true");
                    c.set(o, "ROCPROFSYS_INPUT_PATH", v.get(0));
                    if (v.size() > 1) {
                        c.set(o, "ROCPROFSYS_INPUT_PREFIX", v.get(1));
                    }
                },
                "profile_diff",
                "diff_output",
                "input_path",
                "input_prefix");

        startGroup(
                "host/device (process sampling)",
                "Process sampling is background measurements for resources"
                        + " available to the entire process. These samples are not tied to specific lines/regions of code");
        explicit(
                oneValue(
                        "floating-point",
                        "Set the default host/device sampling" + " frequency (number of interrupts per second)",
                        "--process-freq"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PROCESS_SAMPLING_FREQ", ParseContext.dbl(o, v)),
                "process_freq",
                "process_sampling_freq");
        // [quirk, kept] no setting reads ROCPROFSYS_PROCESS_SAMPLING_DELAY: the option has no effect
        explicit(
                oneValue(
                        "seconds",
                        "Set the default wait time (i.e. delay) before"
                                + " taking first host/device sample (in seconds of realtime)",
                        "--process-wait"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PROCESS_SAMPLING_DELAY", ParseContext.dbl(o, v)),
                "process_wait",
                "process_sampling_delay");
        // deviation: upstream writes ROCPROFSYS_SAMPLING_PROCESS_DURATION, which nothing reads
        explicit(
                oneValue(
                        "seconds",
                        "Set the duration of the host/device sampling" + " (in seconds of realtime)",
                        "--process-duration"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PROCESS_SAMPLING_DURATION", ParseContext.dbl(o, v)),
                "process_duration",
                "process_sampling_duration");
        explicit(
                anyValues(
                                "int and/or range",
                                "CPU IDs for frequency" + " sampling. Supports integers and/or ranges",
                                "--cpus")
                        .requires("host"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_SAMPLING_CPUS", String.join(",", v)),
                "cpus",
                "sampling_cpus");
        explicit(
                anyValues("int and/or range", "GPU IDs for SMI queries." + " Supports integers and/or ranges", "--gpus")
                        .requires("device"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_SAMPLING_GPUS", String.join(",", v)),
                "gpus",
                "sampling_gpus");

        startGroup("general sampling", "General options for timer-based sampling per-thread");
        explicit(
                oneValue(
                        "floating-point",
                        "Set the default sampling frequency" + " (number of interrupts per second)",
                        "-f",
                        "--sampling-freq"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_SAMPLING_FREQ", ParseContext.dbl(o, v)),
                "sampling_freq");
        explicit(
                valued(
                        "int and/or range",
                        OptionDef.ANY,
                        1,
                        OptionDef.ANY,
                        "Specify the default thread IDs for"
                                + " sampling, where 0 (zero) is the main thread and each thread created by the target application is"
                                + " assigned an atomically incrementing value.",
                        "-t",
                        "--tids"),
                (c, o, v) -> {
                    for (String value : v) {
                        for (String token : value.split("[ ,]+")) {
                            if (!token.isEmpty() && !token.matches("\\d+(-\\d+)?")) {
                                throw new RunUsageException(
                                        o.label(),
                                        "invalid value '" + value + "' for " + o.label()
                                                + ": thread IDs are integers or ranges (e.g. 0 2-4)");
                            }
                        }
                    }
                    c.set(o, "ROCPROFSYS_SAMPLING_TIDS", String.join(", ", v));
                },
                "tids",
                "sampling_tids");
        explicit(
                oneValue(
                        "seconds",
                        "Set the default wait time (i.e. delay) before"
                                + " taking first sample (in seconds). This delay time is based on the clock of the sampler, i.e., a"
                                + " delay of 1 second for CPU-clock sampler may not equal 1 second of realtime",
                        "--sampling-wait"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_SAMPLING_DELAY", ParseContext.dbl(o, v)),
                "sampling_wait",
                "sampling_delay");
        explicit(
                oneValue(
                        "seconds",
                        "Set the duration of the sampling (in seconds of"
                                + " realtime). I.e., it is possible (currently) to set a CPU-clock time delay that exceeds the"
                                + " real-time duration... resulting in zero samples being taken",
                        "--sampling-duration"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_SAMPLING_DURATION", ParseContext.dbl(o, v)),
                "sampling_duration");

        startGroup("sampling timer", "These options determine the heuristic for deciding when to take a sample");
        explicit(
                valued("[freq] [delay] [tids...]", OptionDef.ANY, 0, OptionDef.ANY, CPUTIME_DESC, "--sample-cputime"),
                (c, o, v) -> timer(c, o, v, "CPUTIME", "FREQ", "DELAY"),
                "sampling_cputime");
        explicit(
                valued("[freq] [delay] [tids...]", OptionDef.ANY, 0, OptionDef.ANY, REALTIME_DESC, "--sample-realtime"),
                (c, o, v) -> timer(c, o, v, "REALTIME", "FREQ", "DELAY"),
                "sampling_realtime");
        explicit(
                valued("[event] [freq] [tids...]", OptionDef.ANY, 0, OptionDef.ANY, OVERFLOW_DESC, "--sample-overflow"),
                (c, o, v) -> {
                    if (!v.isEmpty() && c.exists("sampling-overflow-event")) {
                        String event = String.join(" ", c.values("sampling-overflow-event"));
                        if (!v.get(0).equals(event)) {
                            throw new RunUsageException(
                                    o.label(),
                                    "'--sample-overflow " + v.get(0)
                                            + " ...' conflicts with '--sampling-overflow-event " + event + "' option");
                        }
                    }
                    timer(c, o, v, "OVERFLOW", "EVENT", "FREQ");
                },
                "sampling_overflow");

        startGroup("advanced sampling", "These options determine the heuristic for deciding when to take a sample");
        autoGroup("sampling", false);

        startGroup("hardware counter", "See also: rocprof-sys-avail -H");
        explicit(
                valued(
                        "[EVENT ...]",
                        OptionDef.ANY,
                        1,
                        OptionDef.ANY,
                        "Set the CPU hardware counter events to" + " record (ref: `rocprof-sys-avail -H -c CPU`)",
                        "-C",
                        "--cpu-events"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_PAPI_EVENTS", String.join(",", v)),
                "cpu_events",
                "papi_events");

        autoGroup("category", true);
        autoGroup("io", true);
        autoGroup("perfetto", true);
        autoGroup("timemory", true);
        autoGroup("rocm", true);

        startGroup("miscellaneous", "");
        explicit(
                flag("Include inline info in output when available", "-i", "--inlines"),
                (c, o, v) -> c.set(o, "ROCPROFSYS_SAMPLING_INCLUDE_INLINES", Boolean.toString(ParseContext.bool(o, v))),
                "inlines",
                "sampling_include_inlines");
        explicit(
                valued("int", 1, OptionDef.ANY, OptionDef.ANY, HSA_INTERRUPT_DESC, "--hsa-interrupt")
                        .choices("0", "1"),
                (c, o, v) -> c.set(
                        o, "HSA_ENABLE_INTERRUPT", ParseContext.integer(o, v, Integer.MIN_VALUE, Integer.MAX_VALUE)),
                "hsa_interrupt");

        extendedGroups();

        startGroup("execution", "");
        explicit(
                valued("boolean", OptionDef.ANY, 0, 1, "Execute via fork + execvpe instead of execvpe", "--fork"),
                (c, o, v) -> c.fork = ParseContext.bool(o, v));
    }

    private static void timer(ParseContext c, OptionDef o, List<String> v, String kind, String first, String second)
            throws RunUsageException {
        String prefix = "ROCPROFSYS_SAMPLING_" + kind;
        c.set(o, prefix, "true");
        if (!v.isEmpty()) {
            c.set(o, prefix + "_" + first, v.get(0));
        }
        if (v.size() > 1) {
            c.set(o, prefix + "_" + second, v.get(1));
        }
        if (v.size() > 2) {
            c.set(o, prefix + "_TIDS", String.join(",", v.subList(2, v.size())));
        }
    }

    private static String[] backendChoices() {
        // upstream drops the GPU backends (rcclp, amd-smi, rocm) when gpu::device_count() == 0 and forces
        // USE_AMD_SMI / USE_ROCM off; this launcher cannot count GPUs, so they are always offered
        List<String> c = new ArrayList<>();
        c.add("all");
        c.addAll(BACKENDS.keySet());
        Collections.sort(c);
        return c.toArray(String[]::new);
    }

    /** clock id -> {short name, CLOCK_NAME}, as upstream's get_clock_id_choices. */
    private static Map<String, List<String>> clockAliases() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("0", List.of("realtime", "CLOCK_REALTIME"));
        m.put("1", List.of("monotonic", "CLOCK_MONOTONIC"));
        m.put("2", List.of("cputime", "CLOCK_PROCESS_CPUTIME_ID"));
        m.put("4", List.of("monotonic_raw", "CLOCK_MONOTONIC_RAW"));
        m.put("5", List.of("realtime_coarse", "CLOCK_REALTIME_COARSE"));
        m.put("6", List.of("monotonic_coarse", "CLOCK_MONOTONIC_COARSE"));
        m.put("7", List.of("boottime", "CLOCK_BOOTTIME"));
        return m;
    }

    /** -I: switch the backends on. */
    private static void include(ParseContext c, OptionDef o, List<String> v, boolean append) throws RunUsageException {
        boolean all = v.contains("all");
        for (Map.Entry<String, String> b : BACKENDS.entrySet()) {
            if (all || v.contains(b.getKey())) {
                c.set(o, b.getValue(), "true");
            }
        }
    }

    private static void exclude(ParseContext c, OptionDef o, List<String> v) throws RunUsageException {
        boolean all = v.contains("all");
        for (Map.Entry<String, String> b : BACKENDS.entrySet()) {
            if (all || v.contains(b.getKey())) {
                c.set(o, b.getValue(), "false");
            }
        }
        if (all || v.contains("ompt")) {
            c.add(o, EnvUpdate.remove("OMP_TOOL_LIBRARIES"));
        }
        if (all || v.contains("kokkosp")) {
            c.add(o, EnvUpdate.remove("KOKKOS_TOOLS_LIBS"));
        }
    }

    // ---------------------------------------------------------------- rocprof-sys-sample's table

    /** Options rocprof-sys-sample takes from run unchanged (inventory §1.3), by long name. */
    private static final Set<String> SAMPLE_SHARED = Set.of(
            "monochrome",
            "debug",
            "verbose",
            "output",
            "trace",
            "profile",
            "flat-profile",
            "host",
            "device",
            "trace-file",
            "trace-buffer-size",
            "trace-fill-policy",
            "trace-wait",
            "trace-duration",
            "trace-periods",
            "trace-clock-id",
            "profile-format",
            "profile-diff",
            "process-freq",
            "process-wait",
            "process-duration",
            "cpus",
            "gpus",
            "sampling-wait",
            "sampling-duration",
            "tids",
            "exclude",
            "cpu-events",
            "inlines",
            "hsa-interrupt");

    private static final class SampleTable {
        static final RunOptions TABLE = sampleOf(standard());
    }

    /** rocprof-sys-sample's option table (its own parser upstream, see {@link #sampleOf}). */
    static RunOptions sample() {
        return SampleTable.TABLE;
    }

    /**
     * rocprof-sys-sample's options, derived from run's in run's order: the shared ones unchanged,
     * {@code -c} that may come without files, {@code -w}/{@code -d} that set the trace and sampling
     * delay/duration outright (no weak set, no causal), {@code -f/--freq}, {@code --cputime},
     * {@code --realtime}, an {@code -I} that appends the tool libraries; no generated setting options,
     * no {@code -S}, {@code --periods}, {@code --launcher}, {@code --fork} or {@code --sample-overflow}.
     */
    static RunOptions sampleOf(RunOptions run) {
        RunOptions t = new RunOptions(run.registry);
        t.special("h", "?", "help");
        t.special("version");
        for (OptionDef o : run.options) {
            if (o.setting() != null) {
                continue;
            }
            String key = o.keys().getLast();
            OptionDef s = switch (key) {
                case "config" ->
                    new OptionDef(
                            o.names(),
                            o.group(),
                            o.dtype(),
                            OptionDef.ANY,
                            0,
                            OptionDef.ANY,
                            o.choices(),
                            o.choiceAliases(),
                            o.requires(),
                            o.conflicts(),
                            o.description(),
                            null,
                            (c, self, v) -> {
                                if (!v.isEmpty()) {
                                    o.action().run(c, self, v);
                                }
                            });
                case "wait", "duration" -> {
                    String what = key.equals("wait") ? "DELAY" : "DURATION";
                    yield renamed(
                            o,
                            o.names(),
                            "Set the " + (key.equals("wait") ? "wait time (delay)" : "duration")
                                    + " of tracing and sampling (in seconds)",
                            (c, self, v) -> {
                                String sec = ParseContext.dbl(self, v);
                                c.set(self, "ROCPROFSYS_TRACE_" + what, sec);
                                c.set(self, "ROCPROFSYS_SAMPLING_" + what, sec);
                            });
                }
                case "sampling-freq" -> renamed(o, List.of("-f", "--freq"), o.description(), o.action());
                case "sample-cputime" -> renamed(o, List.of("--cputime"), o.description(), o.action());
                case "sample-realtime" -> renamed(o, List.of("--realtime"), o.description(), o.action());
                case "include" -> renamed(o, o.names(), o.description(), (c, self, v) -> include(c, self, v, true));
                default -> SAMPLE_SHARED.contains(key) ? o : null;
            };
            if (s != null) {
                t.startGroup(o.group(), run.groups.getOrDefault(o.group(), ""));
                t.add(s);
            }
        }
        return t;
    }

    private static OptionDef renamed(OptionDef o, List<String> names, String description, OptionDef.Action action) {
        return new OptionDef(
                names,
                o.group(),
                o.dtype(),
                o.count(),
                o.min(),
                o.max(),
                o.choices(),
                o.choiceAliases(),
                o.requires(),
                o.conflicts(),
                description,
                null,
                action);
    }

    // ---------------------------------------------------------------- generated options

    private boolean candidate(SettingDefinition d) {
        return d.inCategory("rocprofsys")
                && !d.deprecated()
                && !d.hidden()
                && !d.legacy()
                && !processedSettings.contains(d.envName())
                && !processedEnvirons.contains(d.name())
                && !processedEnvirons.contains(d.envName())
                && (!d.inCategory("causal") || CAUSAL_EXCEPTIONS.contains(d.envName()));
    }

    /** Upstream add_group_arguments: every remaining setting of the category, sorted, as --name options. */
    private void autoGroup(String category, boolean header) {
        if (processedGroups.contains(category)) {
            return;
        }
        List<SettingDefinition> settings = new ArrayList<>();
        for (SettingDefinition d : registry.all()) {
            if (d.inCategory(category) && candidate(d)) {
                settings.add(d);
            }
        }
        upstreamSort(settings);
        if (header) {
            startGroup(category.toLowerCase(Locale.ROOT), "");
        }
        for (SettingDefinition d : settings) {
            processedSettings.add(d.envName());
            boolean isBool = d.type() == SettingType.BOOL;
            OptionDef o = new OptionDef(
                    List.of("--" + d.name().replace('_', '-')),
                    group,
                    d.type().displayName(),
                    OptionDef.ANY,
                    OptionDef.ANY,
                    isBool ? 1 : OptionDef.ANY,
                    List.of(),
                    Map.of(),
                    List.of(),
                    List.of(),
                    d.description(),
                    d,
                    RunOptions::settingAction);
            add(o);
        }
    }

    /**
     * -H/--host and -D/--device: process sampling when either is given; the option's own setting
     * (CPU frequency for -H, AMD SMI for -D) follows it, and the other one's only when it is on.
     */
    private static void hostOrDevice(ParseContext c, OptionDef o, boolean host) throws RunUsageException {
        boolean h = c.flag("host");
        boolean d = c.flag("device");
        String cpuFreq = "ROCPROFSYS_CPU_FREQ_ENABLED";
        String amdSmi = "ROCPROFSYS_USE_AMD_SMI";
        c.set(o, "ROCPROFSYS_USE_PROCESS_SAMPLING", Boolean.toString(h || d));
        c.set(o, host ? cpuFreq : amdSmi, Boolean.toString(host ? h : d));
        if (host ? h : d) {
            c.set(o, host ? amdSmi : cpuFreq, Boolean.toString(host ? d : h));
        }
    }

    /** -w/--wait and -d/--duration: one value, weakly, for the trace, the sampling and causal. */
    private static void traceSamplingAndCausal(ParseContext c, OptionDef o, List<String> v, String what)
            throws RunUsageException {
        String s = ParseContext.dbl(o, v);
        for (String part : List.of("TRACE", "SAMPLING", "CAUSAL")) {
            c.weak(o, "ROCPROFSYS_" + part + "_" + what, s);
        }
    }

    /** A generated option sets its variable to its values joined with spaces; a bool alone means true. */
    private static void settingAction(ParseContext c, OptionDef o, List<String> v) throws RunUsageException {
        String value = String.join(" ", v);
        if (value.isEmpty()) {
            if (o.setting().type() != SettingType.BOOL) {
                throw new RunUsageException(
                        o.label(),
                        o.label() + " requires a value (" + o.setting().type().displayName() + ")");
            }
            value = "true";
        }
        c.set(o, o.setting().envName(), value);
    }

    /**
     * Upstream add_extended_arguments: the settings no group took so far, grouped by their most common
     * category (most settings first, ties by name); each group then takes every remaining setting of
     * its category.
     */
    private void extendedGroups() {
        List<SettingDefinition> remaining = new ArrayList<>();
        Map<String, Integer> counts = new HashMap<>();
        for (SettingDefinition d : registry.all()) {
            if (!candidate(d)) {
                continue;
            }
            remaining.add(d);
            for (String c : d.categories()) {
                if (!NOT_A_GROUP.matcher(c).find()) {
                    counts.merge(c, 1, Integer::sum);
                }
            }
        }
        List<String> order = new ArrayList<>(counts.keySet());
        order.sort((a, b) -> counts.get(a).equals(counts.get(b)) ? a.compareTo(b) : counts.get(b) - counts.get(a));
        List<String> nonEmpty = new ArrayList<>();
        for (String c : order) {
            if (remaining.removeIf(d -> d.inCategory(c))) {
                nonEmpty.add(c);
            }
        }
        for (String c : nonEmpty) {
            autoGroup(c, true);
        }
    }

    /**
     * Upstream's order within a group: by name when both names share their first four characters,
     * else shorter names first. That order is not transitive, so it is applied with a plain
     * insertion sort (stable, never fails) rather than a library sort.
     */
    private static void upstreamSort(List<SettingDefinition> list) {
        for (int i = 1; i < list.size(); i++) {
            SettingDefinition x = list.get(i);
            int j = i - 1;
            while (j >= 0 && upstreamLess(x.name(), list.get(j).name())) {
                list.set(j + 1, list.get(j));
                j--;
            }
            list.set(j + 1, x);
        }
    }

    private static boolean upstreamLess(String l, String r) {
        if (l.length() > 4 && r.length() > 4 && l.substring(0, 4).equals(r.substring(0, 4))) {
            return l.compareTo(r) < 0;
        }
        return l.length() < r.length();
    }

    // ---------------------------------------------------------------- builders

    private void startGroup(String key, String description) {
        group = key;
        groups.putIfAbsent(key, description);
    }

    private void special(String... keys) {
        OptionDef o = new OptionDef(
                List.of(keys),
                null,
                "bool",
                0,
                OptionDef.ANY,
                OptionDef.ANY,
                List.of(),
                Map.of(),
                List.of(),
                List.of(),
                "",
                null,
                (c, self, v) -> {});
        for (String k : keys) {
            byKey.put(k, o);
        }
    }

    private void explicit(Spec s, OptionDef.Action action, String... processed) {
        add(new OptionDef(
                List.of(s.names),
                group,
                s.dtype,
                s.count,
                s.min,
                s.max,
                s.choices,
                s.aliases,
                s.requires,
                s.conflicts,
                s.description,
                null,
                action));
        processedEnvirons.addAll(List.of(processed));
    }

    private void add(OptionDef o) {
        for (String k : o.keys()) {
            if (byKey.putIfAbsent(k, o) != null) {
                throw new IllegalStateException("rocprof-sys-run: duplicate option name --" + k);
            }
        }
        options.add(o);
    }

    private static Spec flag(String description, String... names) {
        return new Spec("bool", OptionDef.ANY, OptionDef.ANY, 1, description, names);
    }

    /** An option that takes any number of values. */
    private static Spec anyValues(String dtype, String description, String... names) {
        return valued(dtype, OptionDef.ANY, OptionDef.ANY, OptionDef.ANY, description, names);
    }

    /** An option that takes exactly one value. */
    private static Spec oneValue(String dtype, String description, String... names) {
        return valued(dtype, 1, OptionDef.ANY, OptionDef.ANY, description, names);
    }

    private static Spec valued(String dtype, int count, int min, int max, String description, String... names) {
        return new Spec(dtype, count, min, max, description, names);
    }

    /** The parts of an explicit option, before its action. */
    private static final class Spec {
        final String dtype;
        final int count;
        final int min;
        final int max;
        final String description;
        final String[] names;
        List<String> choices = List.of();
        Map<String, List<String>> aliases = Map.of();
        List<String> requires = List.of();
        List<String> conflicts = List.of();

        Spec(String dtype, int count, int min, int max, String description, String[] names) {
            this.dtype = dtype;
            this.count = count;
            this.min = min;
            this.max = max;
            this.description = description;
            this.names = names;
        }

        Spec choices(String... c) {
            choices = List.of(c);
            return this;
        }

        Spec aliases(Map<String, List<String>> a) {
            aliases = a;
            return this;
        }

        /** The option needs one of these. */
        Spec requires(String... keys) {
            requires = List.of(keys);
            return this;
        }

        Spec conflicts(String... keys) {
            conflicts = List.of(keys);
            return this;
        }
    }
}
