package org.rocprofsys.processsampling.gpu;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * AMD's GPUs: AMD SMI, or the amdgpu sysfs files where AMD SMI is missing or fails (saying so once
 * where the library is there but unusable).
 */
final class AmdGpus {
    private AmdGpus() {}

    /** A {@link GpuVendor}. */
    static GpuDetection detect(GpuOptions options, int firstIndex, PrintStream log) {
        AmdSmiBackend.Opened smi = AmdSmiBackend.open(
                AmdSmiBackend.libraryCandidates(options.amdSmiLibrary()),
                options.metrics(),
                options.devices(),
                firstIndex,
                log);
        if (smi.backend() != null || smi.gpus() > 0) {
            return new GpuDetection(smi.gpus(), Optional.ofNullable(smi.backend()));
        }
        List<AmdGpuSysfsBackend.Card> cards = AmdGpuSysfsBackend.scan(options.sysfsRoot());
        if (!cards.isEmpty()) {
            if (smi.libraryFound()) {
                log.println("[rocprof-sys] AMD SMI is unusable (" + smi.failure()
                        + "); reading the amdgpu sysfs files instead");
            }
            return new GpuDetection(
                    cards.size(),
                    Optional.ofNullable(
                            AmdGpuSysfsBackend.open(cards, options.metrics(), options.devices(), firstIndex, log)));
        }
        if (smi.libraryFound() && smi.failure() != null && !smi.failure().equals(AmdSmiBackend.NO_GPU)) {
            log.println("[rocprof-sys] AMD SMI is unusable (" + smi.failure() + ") and no amdgpu card is in "
                    + options.sysfsRoot().resolve("sys/class/drm") + "; no AMD GPU metrics");
        }
        return GpuDetection.NONE;
    }
}
