package org.rocprofsys.core.gpu;

/**
 * One memory copy done by a device's copy engine (or by a kernel, for peer copies).
 *
 * @param device    the device that did the copy
 * @param srcDevice the source device, -1 for host memory
 * @param dstDevice the destination device, -1 for host memory
 * @param domain    the vendor's memory-copy domain
 * @param placement its track, category and annotations in the trace
 */
public record GpuMemoryCopy(
        int pid,
        int device,
        long stream,
        long correlationId,
        long beginNs,
        long endNs,
        CopyKind kind,
        long bytes,
        int srcDevice,
        int dstDevice,
        GpuDomain domain,
        DevicePlacement placement)
        implements GpuInterval {}
