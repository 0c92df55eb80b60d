package org.rocprofsys.core.gpu;

/**
 * A GPU the process uses, as its runtime numbers it ({@code index}: the device id that kernels,
 * copies and allocations name).
 *
 * @param timestampNs     when the backend reported it
 * @param vendor          "NVIDIA" or "AMD"
 * @param uuid            the device's UUID as text ({@code GPU-xxxxxxxx-xxxx-...} for NVIDIA)
 * @param multiprocessors streaming multiprocessors (NVIDIA) or compute units (AMD)
 * @param memoryBytes     global memory size
 * @param computeCapability the architecture version ("9.0" for an H100, "gfx942" for an MI300)
 */
public record GpuDevice(
        int pid,
        long timestampNs,
        int index,
        String vendor,
        String name,
        String uuid,
        int multiprocessors,
        long memoryBytes,
        String computeCapability)
        implements GpuEvent {}
