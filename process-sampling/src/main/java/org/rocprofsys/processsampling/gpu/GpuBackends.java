package org.rocprofsys.processsampling.gpu;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.rocprofsys.config.Settings;
import org.rocprofsys.ffm.ThreadNice;

/**
 * Chooses the GPU backends by what the machine has, asking each {@link GpuVendor} of {@link #VENDORS}
 * in turn: NVML for NVIDIA GPUs; for AMD GPUs AMD SMI, or the amdgpu sysfs files where AMD SMI is
 * missing or fails (one notice). NVIDIA GPUs are numbered first (NVML's order), AMD GPUs after them,
 * so that on a machine with one vendor the numbers are the vendor's own and ROCPROFSYS_SAMPLING_GPUS
 * means the same GPUs for both vendors.
 */
public final class GpuBackends {
    /** The GPU vendors, in numbering order: a new vendor is one line here. */
    static final List<GpuVendor> VENDORS = List.of(NvmlBackend::detect, AmdGpus::detect);

    private GpuBackends() {}

    /**
     * The backends for the settings, possibly none. A missing library or driver is not an error.
     *
     * @throws IllegalArgumentException for an unknown metric or a malformed GPU list (bad settings)
     */
    public static List<GpuBackend> detect(Settings settings, PrintStream log) {
        return detect(GpuOptions.from(settings), log);
    }

    /** As {@link #detect(Settings, PrintStream)} with explicit options (tests: fake sysfs, absent libraries). */
    public static List<GpuBackend> detect(GpuOptions options, PrintStream log) {
        return detect(VENDORS, options, log);
    }

    /** Whether the options ask for any GPU metric at all (else detection finds nothing). */
    public static boolean wanted(GpuOptions options) {
        return options.enabled()
                && !options.metrics().isEmpty()
                && !options.devices().none();
    }

    /**
     * {@link #detect(GpuOptions, PrintStream)} on a thread of its own: loading, binding and
     * initialising NVML took about 50 ms of a run's start on the 16-core GPU host, before the
     * target was spawned; the sampler takes the result when it starts sampling. The thread runs at
     * nice 19 ({@link ThreadNice}): it may still be at work when the target starts, and on a busy
     * machine the target comes first (nothing but the sampler's first tick waits for it). A failure
     * no backend caught itself is said once on {@code log} and leaves no GPU.
     */
    public static CompletableFuture<List<GpuBackend>> detectSoon(GpuOptions options, PrintStream log) {
        CompletableFuture<List<GpuBackend>> found = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("rocprof-sys-gpu-detect").start(() -> {
            try {
                ThreadNice.lowerCurrentThread();
            } catch (RuntimeException | LinkageError e) {
                // detection at normal priority then; the future must complete whatever happens,
                // or the sampler would wait for it for ever
            }
            try {
                found.complete(detect(options, log));
            } catch (RuntimeException | Error e) {
                log.println("[rocprof-sys] warning: GPU detection failed (" + e + "); no GPU metrics");
                found.complete(List.of());
            }
        });
        return found;
    }

    /** Asks each vendor in turn, numbering its GPUs after those of the vendors before it. */
    static List<GpuBackend> detect(List<GpuVendor> vendors, GpuOptions options, PrintStream log) {
        List<GpuBackend> out = new ArrayList<>();
        if (!wanted(options)) {
            return out;
        }
        int total = 0;
        for (GpuVendor vendor : vendors) {
            GpuDetection found = vendor.detect(options, total, log);
            found.backend().ifPresent(out::add);
            total += found.gpus();
        }

        if (!options.devices().all()) {
            TreeSet<Integer> absent = new TreeSet<>();
            for (int i : options.devices().indices()) {
                if (i >= total) {
                    absent.add(i);
                }
            }
            if (!absent.isEmpty()) {
                log.println("[rocprof-sys] warning: ROCPROFSYS_SAMPLING_GPUS names GPU(s) " + absent
                        + " but this machine has " + total + " GPU(s); ignoring them");
            }
        }
        return out;
    }

    /** Closes each backend. */
    public static void closeAll(List<GpuBackend> backends) {
        for (GpuBackend b : backends) {
            b.close();
        }
    }
}
