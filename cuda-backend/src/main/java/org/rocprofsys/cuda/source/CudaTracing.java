package org.rocprofsys.cuda.source;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;
import org.rocprofsys.cuda.counters.MetricCatalog;
import org.rocprofsys.cuda.decode.CudaDecoder;
import org.rocprofsys.cuda.decode.CudaGpu;
import org.rocprofsys.cuda.decode.CudaWireRecord;
import org.rocprofsys.elf.Demangler;

/**
 * CUDA tracing as a source of the run: names the injection library in the target's environment
 * ({@code CUDA_INJECTION64_PATH}, which the CUDA driver loads inside {@code cuInit}, and
 * {@code NVTX_INJECTION64_PATH}, which the NVTX stubs load at the first NVTX call; programs that
 * use neither load nothing), and decodes the records the library writes into the agent's rings
 * with {@link CudaDecoder}. It runs nothing beside the target.
 */
public final class CudaTracing implements TargetEnvironmentContribution, RecordDecoder {
    /** cuda-backend's bundle: the vendor and this source, one line in the registration list. */
    public static final Plugin PLUGIN = Plugin.gpuVendor(
            "cuda-backend",
            CudaGpu.VENDOR,
            context -> (settings, targetEnvironment, log) ->
                    sources(settings, context.libraryDirectory().resolve("librocprof-sys-cuda.so"), log));

    public static final String USE_SETTING = "ROCPROFSYS_USE_CUDA";
    /** What the injection library reads (cuda-backend/src/main/c/rsys_cuda.c). */
    static final String AGENT_DOMAINS = "ROCPROFSYS_AGENT_CUDA_DOMAINS";

    /** Turns CUPTI's unified-memory counters on, whatever the CUDA domains (seed 000). */
    static final String UNIFIED_MEMORY_SETTING = "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING";
    /** The injection library's name of the unified-memory counters (not a CUDA_DOMAINS choice). */
    static final String AGENT_UNIFIED_MEMORY = "unified_memory";

    private final Path library;
    private final Set<GpuDomain> domains;
    private final boolean unifiedMemory;
    private final List<String> events;

    CudaTracing(Path library, Set<GpuDomain> domains) {
        this(library, domains, false, List.of());
    }

    CudaTracing(Path library, Set<GpuDomain> domains, boolean unifiedMemory) {
        this(library, domains, unifiedMemory, List.of());
    }

    CudaTracing(Path library, Set<GpuDomain> domains, boolean unifiedMemory, List<String> events) {
        this.library = library;
        this.unifiedMemory = unifiedMemory;
        this.events = List.copyOf(events);
        this.domains = CudaGpu.inModelOrder(domains);
    }

    /**
     * The CUDA source a run's settings ask for: none when {@code ROCPROFSYS_USE_CUDA} is off, when
     * no domain is asked for, or when the distribution has no injection library (one notice).
     *
     * @param library the distribution's {@code lib/librocprof-sys-cuda.so}
     * @throws IllegalArgumentException for an unknown {@code ROCPROFSYS_CUDA_DOMAINS} value, or a
     *                                  {@code ROCPROFSYS_CUDA_EVENTS} metric no GPU here knows
     */
    public static List<CudaTracing> sources(Settings settings, Path library, PrintStream log) {
        Set<GpuDomain> domains = CudaDomains.parse(settings.get(CudaDomains.SETTING));
        List<String> events = settings.registry().find(CudaEvents.SETTING).isPresent()
                ? CudaEvents.parse(settings.get(CudaEvents.SETTING))
                : List.of();
        boolean unifiedMemory =
                settings.registry().find(UNIFIED_MEMORY_SETTING).isPresent() && settings.bool(UNIFIED_MEMORY_SETTING);
        if (!settings.bool(USE_SETTING) || (domains.isEmpty() && !unifiedMemory && events.isEmpty())) {
            return List.of();
        }
        if (!Files.isRegularFile(library)) {
            log.println("[rocprof-sys][cuda] " + library + " is missing: CUDA is not traced");
            return List.of();
        }
        if (!events.isEmpty()) {
            // the GPUs' catalog (a cuInit in this JVM) only when counters are asked for
            CudaEvents.unknown(events, MetricCatalog.read(library, Optional.empty()))
                    .ifPresent(message -> {
                        throw new IllegalArgumentException(message);
                    });
        }
        return List.of(new CudaTracing(library, domains, unifiedMemory, events));
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CUDA_INJECTION64_PATH", library.toString());
        if (domains.contains(CudaGpu.NVTX)) {
            env.put("NVTX_INJECTION64_PATH", library.toString());
        }
        String agentDomains = CudaDomains.agentList(domains);
        if (unifiedMemory) {
            agentDomains = agentDomains.isEmpty() ? AGENT_UNIFIED_MEMORY : agentDomains + "," + AGENT_UNIFIED_MEMORY;
        }
        env.put(AGENT_DOMAINS, agentDomains);
        if (!events.isEmpty()) {
            env.put(CudaEvents.AGENT_EVENTS, String.join(",", events));
        }
        return env;
    }

    @Override
    public BackendRecords open(int pid, Consumer<TraceEvent> out) {
        return records(pid, out);
    }

    /**
     * The decoder of one process image's CUDA records, its events handed on as {@link GpuActivity}.
     * The decoder (its CUPTI layouts, the demangler's libstdc++ binding) is made at the image's
     * first CUDA record: most images have none, and every run would pay for it at start
     * (docs/benchmarks.md, "Fixed cost per run").
     */
    public static BackendRecords records(int pid, Consumer<TraceEvent> out) {
        return BackendRecords.decoding(
                pid,
                CudaWireRecord::isCuda,
                () -> new CudaDecoder(
                        pid, name -> Demangler.shared().demangle(name), e -> out.accept(new GpuActivity(e))));
    }
}
