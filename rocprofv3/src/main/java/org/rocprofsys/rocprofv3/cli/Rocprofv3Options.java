package org.rocprofsys.rocprofv3.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * rocprofv3's command line (seed 004 Table 1, seed 001's sections) mapped onto the settings of the
 * shared session: the tracing options onto the ROCm and CUDA backends' domains and the per-event
 * files, the output options onto the output path and the ROCPROFSYS_ROCPROFV3_* settings. Errors
 * are argparse's, as rocprofv3's: {@code rocprofv3: error: ...}, exit 2.
 *
 * <p>On NVIDIA the same options pick CUPTI's domains: --hip-trace (and --hip-runtime-trace) the
 * CUDA runtime and driver APIs (cuda_api_trace.csv, domains CUDA_RUNTIME_API and
 * CUDA_DRIVER_API), --marker-trace NVTX, the others their namesakes.
 */
public final class Rocprofv3Options {
    private Rocprofv3Options() {}

    public static final String USAGE = "usage: rocprofv3 [options] -- <application> [application options]";

    /** A tracing option: the per-event file it asks for and the backends' domains it turns on. */
    private record Tracing(String trace, List<String> rocm, List<String> cuda) {}

    /** The on/off options that set one setting each (true, or the value given). */
    private static final Map<String, String> SWITCHES = Map.ofEntries(
            Map.entry("--stats", "ROCPROFSYS_ROCPROFV3_STATS"),
            Map.entry("-S", "ROCPROFSYS_ROCPROFV3_SUMMARY"),
            Map.entry("--summary", "ROCPROFSYS_ROCPROFV3_SUMMARY"),
            Map.entry("-D", "ROCPROFSYS_ROCPROFV3_SUMMARY_PER_DOMAIN"),
            Map.entry("--summary-per-domain", "ROCPROFSYS_ROCPROFV3_SUMMARY_PER_DOMAIN"),
            Map.entry("-T", "ROCPROFSYS_ROCPROFV3_TRUNCATE_KERNELS"),
            Map.entry("--truncate-kernels", "ROCPROFSYS_ROCPROFV3_TRUNCATE_KERNELS"),
            Map.entry("-M", "ROCPROFSYS_ROCPROFV3_MANGLED_KERNELS"),
            Map.entry("--mangled-kernels", "ROCPROFSYS_ROCPROFV3_MANGLED_KERNELS"));

    private static final Map<String, Tracing> TRACING = new LinkedHashMap<>();

    static {
        TRACING.put(
                "--kernel-trace", new Tracing("kernel_trace", List.of("kernel_dispatch"), List.of("kernel_dispatch")));
        TRACING.put(
                "--hip-trace",
                new Tracing(
                        "hip_api",
                        List.of("hip_runtime_api", "hip_compiler_api"),
                        List.of("cuda_runtime_api", "cuda_driver_api")));
        TRACING.put(
                "--hip-runtime-trace",
                new Tracing("hip_api", List.of("hip_runtime_api"), List.of("cuda_runtime_api", "cuda_driver_api")));
        TRACING.put("--hip-compiler-trace", new Tracing("hip_api", List.of("hip_compiler_api"), List.of()));
        TRACING.put(
                "--hsa-trace",
                new Tracing(
                        "hsa_api",
                        List.of("hsa_core_api", "hsa_amd_ext_api", "hsa_image_ext_api", "hsa_finalize_ext_api"),
                        List.of()));
        TRACING.put("--hsa-core-trace", new Tracing("hsa_api", List.of("hsa_core_api"), List.of()));
        TRACING.put("--hsa-amd-trace", new Tracing("hsa_api", List.of("hsa_amd_ext_api"), List.of()));
        TRACING.put("--hsa-image-trace", new Tracing("hsa_api", List.of("hsa_image_ext_api"), List.of()));
        TRACING.put("--hsa-finalizer-trace", new Tracing("hsa_api", List.of("hsa_finalize_ext_api"), List.of()));
        TRACING.put("--marker-trace", new Tracing("marker_api", List.of("marker_api"), List.of("nvtx")));
        TRACING.put("--memory-copy-trace", new Tracing("memory_copy", List.of("memory_copy"), List.of("memory_copy")));
        TRACING.put(
                "--memory-allocation-trace",
                new Tracing("memory_allocation", List.of("memory_allocation"), List.of("memory_allocation")));
        TRACING.put("--scratch-memory-trace", new Tracing("scratch_memory", List.of("scratch_memory"), List.of()));
        TRACING.put("--rccl-trace", new Tracing("rccl_api", List.of("rccl_api"), List.of()));
    }

    /** --sys-trace: HIP, HSA, marker, kernels, copies, allocations and scratch memory (seed 001). */
    private static final List<String> SYS_TRACE = List.of(
            "--hip-trace",
            "--hsa-trace",
            "--marker-trace",
            "--kernel-trace",
            "--memory-copy-trace",
            "--memory-allocation-trace",
            "--scratch-memory-trace");

    /** --runtime-trace: as --sys-trace without HSA, and the HIP runtime API only (seed 001). */
    private static final List<String> RUNTIME_TRACE = List.of(
            "--hip-runtime-trace",
            "--marker-trace",
            "--kernel-trace",
            "--memory-copy-trace",
            "--memory-allocation-trace",
            "--scratch-memory-trace");

    /** Accepted options that do nothing yet, with whether they take a value (each says so once). */
    private static final Map<String, Integer> NOT_YET = new LinkedHashMap<>();

    static {
        for (String flag : List.of(
                "--rocdecode-trace",
                "--rocjpeg-trace",
                "--kokkos-trace",
                "--output-config",
                "-L",
                "--list-avail",
                "--list-metrics",
                "--group-by-queue",
                "--hip-stream-display",
                "--minimum-output-data",
                "--disable-signal-handlers",
                "--pc-sampling-beta-enabled",
                "--advanced-thread-trace",
                "--kernel-rename")) {
            NOT_YET.put(flag, 0);
        }
        for (String valued : List.of(
                "-i",
                "--input",
                "--pmc",
                "--kernel-names",
                "--collection-period",
                "--collection-period-unit",
                "-E",
                "--extra-counters",
                "-p",
                "--pid",
                "--attach",
                "--attach-duration-msec",
                "--agent-index",
                "--summary-groups",
                "--pc-sampling-unit",
                "--pc-sampling-method",
                "--pc-sampling-interval",
                "--perfetto-backend",
                "--perfetto-buffer-size",
                "--perfetto-buffer-fill-policy",
                "--perfetto-shmem-size-hint",
                "--att-target-cu",
                "--att-shader-engine-mask",
                "--att-simd-select",
                "--att-buffer-size",
                "--att-perfcounter-ctrl",
                "--att-perfcounters",
                "--att-library-path",
                "--att-serialize-all",
                "--marker-names")) {
            NOT_YET.put(valued, 1);
        }
    }

    private static final Set<String> FORMATS = Set.of("csv", "json", "pftrace", "rocpd", "otf2");
    private static final List<String> UNITS = List.of("sec", "msec", "usec", "nsec");
    private static final Map<String, String> LOG_LEVELS = new LinkedHashMap<>();

    static {
        LOG_LEVELS.put("fatal", "0");
        LOG_LEVELS.put("error", "0");
        LOG_LEVELS.put("warning", "0");
        LOG_LEVELS.put("info", "1");
        LOG_LEVELS.put("trace", "2");
        LOG_LEVELS.put("env", null);
    }

    /**
     * Parses {@code args} ({@code hostname} expands the default output directory
     * {@code %hostname%/%pid%}; {@code inherited} is the environment, for --preload).
     */
    public static Rocprofv3Invocation parse(List<String> args, String hostname, Map<String, String> inherited)
            throws Rocprofv3UsageException {
        Map<String, String> s = new LinkedHashMap<>();
        Set<String> traces = new LinkedHashSet<>();
        Set<String> rocm = new LinkedHashSet<>();
        Set<String> cuda = new LinkedHashSet<>();
        Set<String> formats = new LinkedHashSet<>();
        List<String> notices = new ArrayList<>();
        List<String> command = new ArrayList<>();
        String directory = "%hostname%/%pid%";
        boolean help = false;
        List<String> unknown = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                command.addAll(args.subList(i + 1, args.size()));
                break;
            }
            String name = a;
            String inline = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                inline = a.substring(eq + 1);
            }
            if (!name.startsWith("-")) {
                command.addAll(args.subList(i, args.size())); // the application, without "--"
                break;
            }
            switch (name) {
                case "-h", "--help" -> help = true;
                case "--sys-trace", "--runtime-trace" -> {
                    if (flag(args, i, inline)) {
                        for (String o : name.equals("--sys-trace") ? SYS_TRACE : RUNTIME_TRACE) {
                            Tracing t = TRACING.get(o);
                            traces.add(t.trace);
                            rocm.addAll(t.rocm);
                            cuda.addAll(t.cuda);
                        }
                    }
                    i += boolValueTaken(args, i, inline);
                }
                case "--summary-output-file" -> {
                    s.put("ROCPROFSYS_ROCPROFV3_SUMMARY_OUTPUT_FILE", value(args, i, inline, name));
                    i += inline == null ? 1 : 0;
                }
                case "--summary-units" -> {
                    String v = value(args, i, inline, name);
                    i += inline == null ? 1 : 0;
                    if (!UNITS.contains(v)) {
                        throw invalidChoice(name, v, UNITS);
                    }
                    s.put("ROCPROFSYS_ROCPROFV3_SUMMARY_UNITS", v);
                }
                case "-d", "--output-directory" -> {
                    directory = value(args, i, inline, name);
                    i += inline == null ? 1 : 0;
                }
                case "-o", "--output-file" -> {
                    s.put("ROCPROFSYS_ROCPROFV3_OUTPUT_FILE", value(args, i, inline, name));
                    i += inline == null ? 1 : 0;
                }
                case "--output-format" -> {
                    List<String> given = values(args, i, inline, name);
                    i += inline == null ? given.size() : 0;
                    for (String g : given) {
                        for (String f : g.split(",")) {
                            String v = f.strip().toLowerCase(Locale.ROOT);
                            if (v.isEmpty()) {
                                continue;
                            }
                            if (!FORMATS.contains(v)) {
                                throw invalidChoice(name, v, List.of("csv", "json", "pftrace", "otf2", "rocpd"));
                            }
                            formats.add(v);
                        }
                    }
                }
                case "--kernel-include-regex" -> {
                    s.put("ROCPROFSYS_ROCPROFV3_KERNEL_INCLUDE_REGEX", regex(value(args, i, inline, name), name));
                    i += inline == null ? 1 : 0;
                }
                case "--kernel-exclude-regex" -> {
                    s.put("ROCPROFSYS_ROCPROFV3_KERNEL_EXCLUDE_REGEX", regex(value(args, i, inline, name), name));
                    i += inline == null ? 1 : 0;
                }
                case "--kernel-iteration-range" -> {
                    String v = value(args, i, inline, name);
                    i += inline == null ? 1 : 0;
                    try {
                        org.rocprofsys.rocprofv3.filter.KernelFilter.ranges(v);
                    } catch (IllegalArgumentException e) {
                        throw new Rocprofv3UsageException("argument " + e.getMessage());
                    }
                    s.put("ROCPROFSYS_ROCPROFV3_KERNEL_ITERATION_RANGE", v);
                }
                case "--log-level" -> {
                    String v = value(args, i, inline, name).toLowerCase(Locale.ROOT);
                    i += inline == null ? 1 : 0;
                    if (!LOG_LEVELS.containsKey(v)) {
                        throw invalidChoice(name, v, List.copyOf(LOG_LEVELS.keySet()));
                    }
                    if (LOG_LEVELS.get(v) != null) {
                        s.put("ROCPROFSYS_VERBOSE", LOG_LEVELS.get(v));
                    }
                }
                case "--preload" -> {
                    List<String> libs = values(args, i, inline, name);
                    i += inline == null ? libs.size() : 0;
                    String old = inherited.getOrDefault("LD_PRELOAD", "");
                    s.put("LD_PRELOAD", String.join(":", libs) + (old.isBlank() ? "" : ":" + old));
                }
                default -> {
                    Tracing t = TRACING.get(name);
                    if (SWITCHES.containsKey(name)) {
                        s.put(SWITCHES.get(name), Boolean.toString(flag(args, i, inline)));
                        i += boolValueTaken(args, i, inline);
                    } else if (t != null) {
                        if (flag(args, i, inline)) {
                            traces.add(t.trace);
                            rocm.addAll(t.rocm);
                            cuda.addAll(t.cuda);
                        }
                        i += boolValueTaken(args, i, inline);
                    } else if (NOT_YET.containsKey(name)) {
                        int n = NOT_YET.get(name);
                        if (n == 1 && inline == null) {
                            if (i + 1 >= args.size()) {
                                throw new Rocprofv3UsageException("argument " + name + ": expected one argument");
                            }
                            i++;
                        }
                        notices.add("rocprofv3: " + name + " is not supported yet; ignored");
                    } else {
                        unknown.add(a);
                    }
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw new Rocprofv3UsageException("unrecognized arguments: " + String.join(" ", unknown));
        }
        if (help) {
            return new Rocprofv3Invocation(Map.of(), List.of(), List.of(), true);
        }
        if (command.isEmpty()) {
            throw new Rocprofv3UsageException("no application given: rocprofv3 [options] -- <application>");
        }
        boolean stats = Boolean.parseBoolean(s.getOrDefault("ROCPROFSYS_ROCPROFV3_STATS", "false"));
        boolean summary = Boolean.parseBoolean(s.getOrDefault("ROCPROFSYS_ROCPROFV3_SUMMARY", "false"))
                || Boolean.parseBoolean(s.getOrDefault("ROCPROFSYS_ROCPROFV3_SUMMARY_PER_DOMAIN", "false"));
        if (traces.isEmpty()) {
            throw new Rocprofv3UsageException(
                    "nothing to collect: give a tracing option (--kernel-trace, --hip-trace, --sys-trace, ...)");
        }
        if (formats.isEmpty()) {
            formats.add("rocpd"); // rocprofv3's default format (seed 001, "Output formats")
        }
        if (formats.contains("otf2")) {
            notices.add("rocprofv3: --output-format otf2 is not supported yet; no OTF2 archive is written");
        }
        List<String> own = formats.stream()
                .filter(f -> f.equals("csv") || f.equals("json"))
                .toList();
        s.put("ROCPROFSYS_ROCPROFV3_FORMATS", String.join(",", own));
        s.put("ROCPROFSYS_ROCPROFV3_TRACES", String.join(",", traces));
        s.put("ROCPROFSYS_TRACE", Boolean.toString(formats.contains("pftrace")));
        if (formats.contains("pftrace")) {
            // rocprofv3's name, <prefix>_results.pftrace; rocprof-sys expands %pid% and %env{}% in it
            String prefix =
                    s.getOrDefault("ROCPROFSYS_ROCPROFV3_OUTPUT_FILE", "%pid%").replace("%hostname%", hostname);
            s.put("ROCPROFSYS_PERFETTO_FILE", (prefix.isEmpty() ? "" : prefix + "_") + "results.pftrace");
        }
        s.put("ROCPROFSYS_USE_ROCPD", Boolean.toString(formats.contains("rocpd")));
        if (stats && !formats.contains("csv") && !summary) {
            notices.add("rocprofv3: --stats writes its files with --output-format csv");
        }
        // the GPU backends: the domains the tracing options asked for, nothing else of rocprof-sys's
        s.put("ROCPROFSYS_USE_ROCM", Boolean.toString(!rocm.isEmpty()));
        s.put("ROCPROFSYS_ROCM_DOMAINS", rocm.isEmpty() ? "none" : String.join(",", rocm));
        s.put("ROCPROFSYS_USE_CUDA", Boolean.toString(!cuda.isEmpty()));
        if (!cuda.isEmpty()) {
            s.put("ROCPROFSYS_CUDA_DOMAINS", String.join(",", cuda));
        }
        s.put("ROCPROFSYS_PROFILE", "false");
        s.put("ROCPROFSYS_USE_SAMPLING", "false");
        s.put("ROCPROFSYS_USE_PROCESS_SAMPLING", "false");
        s.put("ROCPROFSYS_TIME_OUTPUT", "false");
        s.put("ROCPROFSYS_USE_PID", "false");
        s.put("ROCPROFSYS_OUTPUT_PATH", directory.replace("%hostname%", hostname));
        return new Rocprofv3Invocation(s, command, notices, false);
    }

    /** A boolean option's value: true, or the value given after it ({@code --stats False}). */
    private static boolean flag(List<String> args, int i, String inline) throws Rocprofv3UsageException {
        String v = inline != null ? inline : (boolValueTaken(args, i, null) == 1 ? args.get(i + 1) : null);
        if (v == null) {
            return true;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes", "1" -> true;
            case "false", "off", "no", "0" -> false;
            default ->
                throw new Rocprofv3UsageException("argument " + args.get(i) + ": invalid boolean value: '" + v + "'");
        };
    }

    /** 1 when the word after a boolean option is its value (a boolean word), else 0. */
    private static int boolValueTaken(List<String> args, int i, String inline) {
        if (inline != null || i + 1 >= args.size()) {
            return 0;
        }
        return switch (args.get(i + 1).toLowerCase(Locale.ROOT)) {
            case "true", "false", "on", "off", "yes", "no", "1", "0" -> 1;
            default -> 0;
        };
    }

    private static String value(List<String> args, int i, String inline, String name) throws Rocprofv3UsageException {
        if (inline != null) {
            return inline;
        }
        if (i + 1 >= args.size() || args.get(i + 1).equals("--")) {
            throw new Rocprofv3UsageException("argument " + name + ": expected one argument");
        }
        return args.get(i + 1);
    }

    /**
     * The values of an option that takes one or more (argparse's {@code nargs='+'}): its inline
     * value, or the arguments after it up to the next option.
     */
    private static List<String> values(List<String> args, int i, String inline, String name)
            throws Rocprofv3UsageException {
        List<String> given = new ArrayList<>();
        if (inline != null) {
            given.add(inline);
        } else {
            for (int j = i + 1; j < args.size() && !args.get(j).startsWith("-"); j++) {
                given.add(args.get(j));
            }
        }
        if (given.isEmpty()) {
            throw new Rocprofv3UsageException("argument " + name + ": expected at least one argument");
        }
        return given;
    }

    private static String regex(String v, String name) throws Rocprofv3UsageException {
        try {
            java.util.regex.Pattern.compile(v);
            return v;
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new Rocprofv3UsageException(
                    "argument " + name + ": invalid regular expression '" + v + "': " + e.getDescription());
        }
    }

    private static Rocprofv3UsageException invalidChoice(String name, String v, List<String> choices) {
        return new Rocprofv3UsageException("argument " + name + ": invalid choice: '" + v + "' (choose from "
                + String.join(", ", choices.stream().map(c -> "'" + c + "'").toList()) + ")");
    }

    /** rocprofv3 -h. */
    public static String help() {
        StringBuilder sb = new StringBuilder(USAGE).append("\n\nTracing options:\n");
        for (String o : TRACING.keySet()) {
            sb.append("  ").append(o).append('\n');
        }
        sb.append("  --sys-trace\n  --runtime-trace\n\nSummary and stats:\n")
                .append("  --stats\n  -S, --summary\n  -D, --summary-per-domain\n")
                .append("  --summary-output-file FILE\n  --summary-units {sec,msec,usec,nsec}\n\nOutput:\n")
                .append("  -d, --output-directory DIR   (default %hostname%/%pid%)\n")
                .append("  -o, --output-file NAME       (default %pid%; %pid%, %ppid%, %hostname%, %env{NAME}%)\n")
                .append("  --output-format {csv,json,pftrace,rocpd,otf2} [...]   (default rocpd)\n")
                .append("  -T, --truncate-kernels\n  -M, --mangled-kernels\n\nFilters:\n")
                .append("  --kernel-include-regex REGEX\n  --kernel-exclude-regex REGEX\n")
                .append("  --kernel-iteration-range RANGES   e.g. [1-3],[5]\n\nOther:\n")
                .append("  --preload LIB [LIB ...]\n  --log-level {fatal,error,warning,info,trace,env}\n\n")
                .append("Accepted, not supported yet (each says so once):\n");
        NOT_YET.forEach((o, n) ->
                sb.append("  ").append(o).append(n == 1 ? " VALUE" : "").append('\n'));
        return sb.toString();
    }
}
