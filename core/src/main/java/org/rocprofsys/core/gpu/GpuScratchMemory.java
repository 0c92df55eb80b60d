package org.rocprofsys.core.gpu;

/**
 * A scratch-memory operation of a GPU runtime on a device queue (rocprofiler-sdk's
 * {@code SCRATCH_MEMORY} buffer records): an allocation, a free or an asynchronous reclaim.
 *
 * @param tid       the thread whose work caused it
 * @param operation the runtime's operation name (the slice's name)
 * @param bytes     the allocation size the runtime reported
 * @param domain    the vendor's scratch-memory domain
 * @param placement its track, category and annotations in the trace
 */
public record GpuScratchMemory(
        int pid,
        int tid,
        int device,
        long beginNs,
        long endNs,
        String operation,
        long bytes,
        GpuDomain domain,
        DevicePlacement placement)
        implements GpuInterval {}
