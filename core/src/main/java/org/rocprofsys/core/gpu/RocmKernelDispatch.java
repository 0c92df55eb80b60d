package org.rocprofsys.core.gpu;

/**
 * A kernel dispatch as rocprofiler-sdk reports it: the vendor-neutral kernel (its {@code stream}
 * the HIP stream id, 0 when the launch named none) with the queue it ran on and upstream's dispatch
 * annotations.
 *
 * @param byQueue  placed on its queue's track ({@code GPU Kernel Dispatch [<dev>] Queue <id>}):
 *                 {@code ROCPROFSYS_ROCM_GROUP_BY_QUEUE}, or no HIP stream known; else on
 *                 {@code HIP Activity Stream <id>}
 */
public record RocmKernelDispatch(
        GpuKernel kernel,
        long queueId,
        long dispatchId,
        long kernelId,
        long privateSegmentSize,
        long groupSegmentSize,
        boolean byQueue)
        implements GpuEvent {
    @Override
    public int pid() {
        return kernel.pid();
    }

    @Override
    public long timestampNs() {
        return kernel.beginNs();
    }
}
