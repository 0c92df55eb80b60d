package org.rocprofsys.rocm.source;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;
import org.rocprofsys.elf.Demangler;
import org.rocprofsys.rocm.decode.RocmDecodeOptions;
import org.rocprofsys.rocm.decode.RocmDecoder;
import org.rocprofsys.rocm.decode.RocmGpu;
import org.rocprofsys.rocm.decode.RocmWireRecord;

/**
 * ROCm tracing as a source of the run: names the tool library in the target's environment
 * ({@code ROCP_TOOL_LIBRARIES}, which rocprofiler-sdk reads when a HIP or HSA runtime loads it; a
 * program that loads neither loads nothing of ours), passes the domains the tool configures, and
 * decodes the records the tool writes into the agent's rings with {@link RocmDecoder}. It runs
 * nothing beside the target.
 */
public final class RocmTracing implements TargetEnvironmentContribution, RecordDecoder {
    /** rocm-backend's bundle: the vendor and this source, one line in the registration list. */
    public static final Plugin PLUGIN = Plugin.gpuVendor(
            "rocm-backend",
            RocmGpu.VENDOR,
            context -> (settings, targetEnvironment, log) ->
                    sources(settings, context.libraryDirectory().resolve("librocprof-sys-rocm.so"), log));

    public static final String USE_SETTING = "ROCPROFSYS_USE_ROCM";
    static final String USE_RCCLP = "ROCPROFSYS_USE_RCCLP";
    static final String GROUP_BY_QUEUE = "ROCPROFSYS_ROCM_GROUP_BY_QUEUE";
    /** What the tool library reads (rocm-backend/src/main/c/rsys_rocm.c). */
    static final String AGENT_DOMAINS = "ROCPROFSYS_AGENT_ROCM_DOMAINS";

    static final String AGENT_ARGS = "ROCPROFSYS_AGENT_ROCM_ARGS";
    /** The counters per kernel, ROCPROFSYS_ROCM_EVENTS checked for syntax. */
    static final String AGENT_EVENTS = "ROCPROFSYS_AGENT_ROCM_EVENTS";

    static final String TOOL_LIBRARIES = "ROCP_TOOL_LIBRARIES";

    /** upstream's per-domain operation filters: the include and exclude regex settings of a domain. */
    private record OperationSettings(String include, String exclude, GpuDomain domain) {}

    private static final List<OperationSettings> OPERATION_SETTINGS = List.of(
            new OperationSettings(
                    "ROCPROFSYS_ROCM_MARKER_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_MARKER_API_OPERATIONS_EXCLUDE",
                    RocmGpu.MARKER_CORE_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_HSA_CORE_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_HSA_CORE_API_OPERATIONS_EXCLUDE",
                    RocmGpu.HSA_CORE_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_HSA_AMD_EXT_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_HSA_AMD_EXT_API_OPERATIONS_EXCLUDE",
                    RocmGpu.HSA_AMD_EXT_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_HSA_IMAGE_EXT_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_HSA_IMAGE_EXT_API_OPERATIONS_EXCLUDE",
                    RocmGpu.HSA_IMAGE_EXT_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_HSA_FINALIZE_EXT_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_HSA_FINALIZE_EXT_API_OPERATIONS_EXCLUDE",
                    RocmGpu.HSA_FINALIZE_EXT_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_HIP_RUNTIME_API_OPERATIONS_EXCLUDE",
                    RocmGpu.HIP_RUNTIME_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_HIP_COMPILER_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_HIP_COMPILER_API_OPERATIONS_EXCLUDE",
                    RocmGpu.HIP_COMPILER_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_MEMORY_COPY_OPERATIONS",
                    "ROCPROFSYS_ROCM_MEMORY_COPY_OPERATIONS_EXCLUDE",
                    RocmGpu.MEMORY_COPY),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_RCCL_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_RCCL_API_OPERATIONS_EXCLUDE",
                    RocmGpu.RCCL_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_ROCDECODE_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_ROCDECODE_API_OPERATIONS_EXCLUDE",
                    RocmGpu.ROCDECODE_API),
            new OperationSettings(
                    "ROCPROFSYS_ROCM_ROCJPEG_API_OPERATIONS",
                    "ROCPROFSYS_ROCM_ROCJPEG_API_OPERATIONS_EXCLUDE",
                    RocmGpu.ROCJPEG_API));

    private final Path library;
    private final Set<String> domains;
    private final boolean arguments;
    private final RocmDecodeOptions options;
    private final List<RocmEvents.Event> events;

    RocmTracing(
            Path library,
            Set<String> domains,
            boolean arguments,
            RocmDecodeOptions options,
            List<RocmEvents.Event> events) {
        this.library = library;
        this.domains = Set.copyOf(domains);
        this.arguments = arguments;
        this.options = options;
        this.events = List.copyOf(events);
    }

    /**
     * The ROCm source a run's settings ask for: none when {@code ROCPROFSYS_USE_ROCM} is off, when
     * no traced domain is asked for, or when the distribution has no tool library (one notice).
     *
     * @param library the distribution's {@code lib/librocprof-sys-rocm.so}
     * @throws IllegalArgumentException for a {@code ROCPROFSYS_ROCM_DOMAINS} value upstream refuses,
     *                                  an operation filter that is not a regex, or a
     *                                  {@code ROCPROFSYS_ROCM_EVENTS} entry that is not
     *                                  {@code NAME[:device=N]}
     */
    public static List<RocmTracing> sources(Settings settings, Path library, PrintStream log) {
        boolean rcclp = settings.registry().find(USE_RCCLP).isPresent() && settings.bool(USE_RCCLP);
        RocmDomains.Selection selection = RocmDomains.parse(settings.get(RocmDomains.SETTING), rcclp);
        List<RocmEvents.Event> events =
                settings.registry().find(RocmEvents.SETTING).isPresent()
                        ? RocmEvents.parse(settings.get(RocmEvents.SETTING))
                        : List.of();
        if (!settings.bool(USE_SETTING) || (selection.traced().isEmpty() && events.isEmpty())) {
            return List.of();
        }
        if (!selection.notTraced().isEmpty()) {
            log.println("[rocprof-sys][rocm] " + RocmDomains.SETTING + ": " + String.join(", ", selection.notTraced())
                    + " not traced by this build (traced: " + String.join(", ", RocmDomains.TRACED) + ")");
        }
        RocmDecodeOptions options = options(settings);
        if (!Files.isRegularFile(library)) {
            log.println("[rocprof-sys][rocm] " + library + " is missing: ROCm is not traced");
            return List.of();
        }
        boolean args =
                !settings.registry().find("ROCPROFSYS_PERFETTO_ANNOTATIONS").isPresent()
                        || settings.bool("ROCPROFSYS_PERFETTO_ANNOTATIONS");
        return List.of(new RocmTracing(library, selection.traced(), args, options, events));
    }

    /**
     * GROUP_BY_QUEUE and the per-domain operation filters, applied by the decoder to the operation
     * names (the SDK still calls the tool for the others). The _ANNOTATE_BACKTRACE settings are not
     * honoured: the settings layer warns about them.
     */
    static RocmDecodeOptions options(Settings settings) {
        Map<GpuDomain, RocmDecodeOptions.Filter> filters = new HashMap<>();
        for (OperationSettings o : OPERATION_SETTINGS) {
            Optional<Pattern> include = regex(settings, o.include());
            Optional<Pattern> exclude = regex(settings, o.exclude());
            if (include.isPresent() || exclude.isPresent()) {
                filters.put(o.domain(), new RocmDecodeOptions.Filter(include, exclude));
            }
        }
        boolean byQueue = settings.registry().find(GROUP_BY_QUEUE).isPresent() && settings.bool(GROUP_BY_QUEUE);
        return new RocmDecodeOptions(byQueue, filters);
    }

    private static Optional<String> value(Settings settings, String name) {
        if (settings.registry().find(name).isEmpty()) {
            return Optional.empty();
        }
        String v = settings.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    private static Optional<Pattern> regex(Settings settings, String name) {
        return value(settings, name).map(v -> {
            try {
                return Pattern.compile(v);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(name + " is not a valid regex: " + e.getDescription(), e);
            }
        });
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(TOOL_LIBRARIES, library.toString());
        env.put(
                AGENT_DOMAINS,
                String.join(
                        ",",
                        RocmDomains.TRACED.stream().filter(domains::contains).toList()));
        env.put(AGENT_ARGS, arguments ? "1" : "0");
        if (!events.isEmpty()) {
            env.put(
                    AGENT_EVENTS,
                    String.join(",", events.stream().map(RocmEvents.Event::spec).toList()));
        }
        return env;
    }

    @Override
    public BackendRecords open(int pid, Consumer<TraceEvent> out) {
        return records(pid, options, out);
    }

    /**
     * The decoder of one process image's ROCm records, made at its first ROCm record (the
     * demangler's binding, ~20 ms, at the first kernel name).
     */
    public static BackendRecords records(int pid, RocmDecodeOptions options, Consumer<TraceEvent> out) {
        return BackendRecords.decoding(
                pid,
                RocmWireRecord::isRocm,
                () -> new RocmDecoder(pid, name -> Demangler.shared().demangle(name), options, out));
    }
}
