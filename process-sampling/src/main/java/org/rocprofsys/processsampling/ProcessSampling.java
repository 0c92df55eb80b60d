package org.rocprofsys.processsampling;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.processsampling.gpu.GpuBackend;
import org.rocprofsys.processsampling.gpu.GpuBackends;
import org.rocprofsys.processsampling.gpu.GpuOptions;

/**
 * Builds the process sampler a run's settings ask for (inventory §7): USE_PROCESS_SAMPLING turns it
 * on; CPU_FREQ_ENABLED (-H) adds the target's memory, context-switch, page-fault, CPU-time, I/O and
 * network series, and the frequency of the SAMPLING_CPUS; USE_AMD_SMI (-D) adds the GPU metrics of
 * whichever backend the machine has (NVML, AMD-SMI, amdgpu sysfs) for the SAMPLING_GPUS.
 */
public final class ProcessSampling {
    /** The collector samples at most this often (upstream's cap). */
    static final double MAX_FREQUENCY_HZ = 1000;

    private ProcessSampling() {}

    public static List<EventSource> sources(Settings settings, PrintStream log) {
        return sources(settings, log, Path.of("/"));
    }

    static List<EventSource> sources(Settings settings, PrintStream log, Path root) {
        if (!settings.bool("ROCPROFSYS_USE_PROCESS_SAMPLING")) {
            return List.of();
        }
        boolean cpu = settings.bool("ROCPROFSYS_CPU_FREQ_ENABLED");
        List<Integer> cpus = cpu
                ? CpuSelection.parse(
                        settings.get("ROCPROFSYS_SAMPLING_CPUS"),
                        Runtime.getRuntime().availableProcessors())
                : List.of();
        GpuOptions gpuOptions = GpuOptions.from(settings); // bad GPU settings fail the run here
        boolean gpuWanted = GpuBackends.wanted(gpuOptions);
        if (!cpu && !gpuWanted) {
            return List.of();
        }
        // the GPUs are found while the run starts; a sampler that finds none and reads no CPU
        // metrics ends at once and writes nothing, as if there were none
        CompletableFuture<List<GpuBackend>> gpus =
                gpuWanted ? GpuBackends.detectSoon(gpuOptions, log) : CompletableFuture.completedFuture(List.of());
        ProcessSampler sampler = new ProcessSampler(
                frequency(settings),
                duration(settings),
                pid -> {
                    List<MetricReader> readers = new ArrayList<>();
                    if (cpu) {
                        readers.add(new ProcessTreeReader(root, pid));
                        if (!cpus.isEmpty()) {
                            readers.add(new CpuFrequencyReader(root, cpus));
                        }
                    }
                    for (GpuBackend gpu : gpus.join()) {
                        readers.add(gpu::sample);
                    }
                    return readers;
                },
                log,
                // closed once found: a run shorter than the detection does not wait for it
                () -> gpus.thenAccept(GpuBackends::closeAll));
        return List.of(sampler);
    }

    /** PROCESS_SAMPLING_FREQ; 0 means min(SAMPLING_FREQ, 100); never above 1000 Hz. */
    static double frequency(Settings settings) {
        double f = settings.number("ROCPROFSYS_PROCESS_SAMPLING_FREQ");
        if (f <= 0) {
            f = Math.min(settings.number("ROCPROFSYS_SAMPLING_FREQ"), 100);
        }
        return Math.min(Math.max(f, 0.001), MAX_FREQUENCY_HZ);
    }

    /** PROCESS_SAMPLING_DURATION; negative means SAMPLING_DURATION; 0 means until the end. */
    static double duration(Settings settings) {
        double d = settings.number("ROCPROFSYS_PROCESS_SAMPLING_DURATION");
        return d < 0 ? settings.number("ROCPROFSYS_SAMPLING_DURATION") : d;
    }
}
