package org.rocprofsys.processsampling.gpu;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

import org.rocprofsys.config.Settings;

/**
 * Chooses the GPU backends by what the machine has: NVML for NVIDIA GPUs; for AMD GPUs AMD SMI, or
 * the amdgpu sysfs files where AMD SMI is missing or fails (one notice). NVIDIA GPUs are numbered
 * first (NVML's order), AMD GPUs after them, so that on a machine with one vendor the numbers are
 * the vendor's own and ROCPROFSYS_SAMPLING_GPUS means the same GPUs for both vendors.
 */
public final class GpuBackends {
    private GpuBackends() {
    }

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
        List<GpuBackend> out = new ArrayList<>();
        if (!options.enabled() || options.metrics().isEmpty() || options.devices().none()) {
            return out;
        }
        int total = 0;

        int[] found = {0};
        Optional<NvmlBackend> nvml = NvmlBackend.open(options.nvmlLibrary(), options.metrics(), options.devices(), total,
                found, log);
        nvml.ifPresent(out::add);
        total += found[0];

        found[0] = 0;
        AmdSmiBackend.Opened smi = AmdSmiBackend.open(AmdSmiBackend.libraryCandidates(options.amdSmiLibrary()),
                options.metrics(), options.devices(), total, found, log);
        if (smi.backend() != null) {
            out.add(smi.backend());
            total += found[0];
        } else if (found[0] > 0) {
            total += found[0]; // AMD GPUs there, none selected
        } else {
            List<AmdGpuSysfsBackend.Card> cards = AmdGpuSysfsBackend.scan(options.sysfsRoot());
            if (!cards.isEmpty()) {
                if (smi.libraryFound()) {
                    log.println("[rocprof-sys] AMD SMI is unusable (" + smi.failure()
                            + "); reading the amdgpu sysfs files instead");
                }
                AmdGpuSysfsBackend sysfs = AmdGpuSysfsBackend.open(cards, options.metrics(), options.devices(),
                        total, log);
                if (sysfs != null) {
                    out.add(sysfs);
                }
                total += cards.size();
            } else if (smi.libraryFound() && smi.failure() != null && !smi.failure().equals(AmdSmiBackend.NO_GPU)) {
                log.println("[rocprof-sys] AMD SMI is unusable (" + smi.failure() + ") and no amdgpu card is in "
                        + options.sysfsRoot().resolve("sys/class/drm") + "; no AMD GPU metrics");
            }
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
