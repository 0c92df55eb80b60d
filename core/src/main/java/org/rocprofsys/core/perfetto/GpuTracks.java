package org.rocprofsys.core.perfetto;

import org.rocprofsys.core.event.Category;

/**
 * Names of the trace's GPU tracks and slices: upstream's ROCm layout (inventory §4.3) in CUDA's
 * words. API calls and NVTX ranges go on the calling thread's track; kernels, copies and memsets
 * on one track per device and stream, {@code CUDA Activity Stream <stream> [<device>]}; the bytes
 * allocated on a device on a counter track, {@code GPU Memory Allocated [<device>]}.
 */
final class GpuTracks {
    static final String KERNEL_CATEGORY = Category.CUDA_KERNEL_DISPATCH.label();
    static final String COPY_CATEGORY = Category.CUDA_MEMORY_COPY.label();
    static final String MEMSET_CATEGORY = Category.CUDA_MEMORY_SET.label();
    static final String NVTX_CATEGORY = Category.CUDA_NVTX.label();
    static final String MEMSET_NAME = "MEMORY_SET";
    static final String MEMORY_UNIT = "MB";
    static final double BYTES_PER_UNIT = 1024.0 * 1024.0;

    private GpuTracks() {}

    static String streamTrackName(int device, long stream) {
        return "CUDA Activity Stream " + stream + " [" + device + "]";
    }

    static String memoryTrackName(int device) {
        return "GPU Memory Allocated [" + device + "]";
    }

    static String streamKey(int pid, int device, long stream) {
        return pid + "/" + device + "/" + stream;
    }

    static long deviceKey(int pid, int device) {
        return ((long) pid << 32) | (device & 0xffffffffL);
    }

    /**
     * A process-scoped flow id from a correlation id (upstream: {@code Flow::ProcessScoped}); the
     * runtime call, the driver calls it made and the device work share it.
     */
    static long flowId(int pid, long correlationId) {
        return ((long) pid << 32) ^ correlationId;
    }

    /**
     * Whether an API function launches device work (a kernel, copy or memset) that its
     * correlation id leads to: only those start a flow, so no flow dangles from a cudaMalloc.
     */
    static boolean launchesDeviceWork(String function) {
        return function.contains("Launch") || function.contains("Memcpy") || function.contains("Memset");
    }
}
