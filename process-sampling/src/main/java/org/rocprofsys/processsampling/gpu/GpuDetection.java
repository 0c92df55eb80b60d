package org.rocprofsys.processsampling.gpu;

import java.util.Optional;

/**
 * What one {@link GpuVendor} found.
 *
 * @param gpus    how many of the vendor's GPUs the machine has, selected or not: they all take a
 *                number, so the next vendor's GPUs are numbered after them
 * @param backend the backend sampling the selected ones; empty where none is selected or none can
 *                be read
 */
public record GpuDetection(int gpus, Optional<GpuBackend> backend) {
    /** Nothing of the vendor here. */
    public static final GpuDetection NONE = new GpuDetection(0, Optional.empty());

    public GpuDetection {
        if (gpus < 0) {
            throw new IllegalArgumentException("negative GPU count " + gpus);
        }
    }
}
