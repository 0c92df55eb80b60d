package org.rocprofsys.core.gpu;

/**
 * A scratch-memory operation of the ROCm runtime on a device queue (rocprofiler-sdk's
 * {@code SCRATCH_MEMORY} buffer records): an allocation, a free or an asynchronous reclaim.
 *
 * @param operation the SDK's operation name ({@code SCRATCH_MEMORY_ALLOC}, {@code SCRATCH_MEMORY_FREE},
 *                  {@code SCRATCH_MEMORY_ASYNC_RECLAIM})
 * @param bytes     the allocation size the SDK reported
 */
public record RocmScratchMemory(
        int pid, int tid, int device, long queueId, long beginNs, long endNs, String operation, long bytes)
        implements GpuEvent {
    @Override
    public long timestampNs() {
        return beginNs;
    }
}
