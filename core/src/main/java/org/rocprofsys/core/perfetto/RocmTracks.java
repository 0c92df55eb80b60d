package org.rocprofsys.core.perfetto;

import org.rocprofsys.core.event.Category;

/**
 * Names of the trace's ROCm device tracks, as upstream's rocprofiler-sdk backend names them
 * (inventory §4.3): kernels and copies on {@code HIP Activity Stream <stream>} (category
 * {@code rocm_hip_stream}), or, grouped by queue (or with no stream), kernels on
 * {@code GPU Kernel Dispatch [<device>] Queue <queue>} ({@code rocm_kernel_dispatch}) and copies on
 * {@code GPU Memory Copy to Agent [<dst agent>] Thread <n>} ({@code rocm_memory_copy}). Scratch
 * memory, which upstream's buffer handler does not place, goes on
 * {@code GPU Scratch Memory [<device>] Queue <queue>} ({@code rocm_scratch_memory}).
 */
final class RocmTracks {
    static final String STREAM_CATEGORY = Category.ROCM_HIP_STREAM.label();
    static final String KERNEL_CATEGORY = Category.ROCM_KERNEL_DISPATCH.label();
    static final String COPY_CATEGORY = Category.ROCM_MEMORY_COPY.label();
    static final String SCRATCH_CATEGORY = Category.ROCM_SCRATCH_MEMORY.label();

    private RocmTracks() {}

    static String stream(long stream) {
        return "HIP Activity Stream " + stream;
    }

    static String kernelQueue(int device, long queue) {
        return "GPU Kernel Dispatch [" + device + "] Queue " + queue;
    }

    static String copyThread(int dstNode, int threadSequence) {
        return "GPU Memory Copy to Agent [" + dstNode + "] Thread " + threadSequence;
    }

    static String scratchQueue(int device, long queue) {
        return "GPU Scratch Memory [" + device + "] Queue " + queue;
    }
}
