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
    /** Unified-memory migrations (both vendors): upstream's page-migration category. */
    static final String MIGRATION_CATEGORY = Category.ROCM_PAGE_MIGRATION.label();
    /** Migration throughput, bytes per ns (seed 000: GB/s with GB = 10^9). */
    static final String THROUGHPUT_UNIT = "GB/s";

    private GpuTracks() {}

    static String streamTrackName(int device, long stream) {
        return "CUDA Activity Stream " + stream + " [" + device + "]";
    }

    static String memoryTrackName(int device) {
        return "GPU Memory Allocated [" + device + "]";
    }

    /** Seed 000's counter track of a device's unified-memory page faults. */
    static String pageFaultTrackName(int device) {
        // CPU faults CUPTI reports name no device
        return "Unified Memory Page Faults [" + (device < 0 ? "Host" : "Device " + device) + "]";
    }

    /** Seed 000's counter track of a device's migration throughput. */
    static String migrationThroughputTrackName(int device) {
        return "Unified Memory Migration Throughput [Device " + device + "]";
    }

    /** Upstream's counter track of one hardware counter of a device ({@code GPU SQ_WAVES [0]}). */
    static String counterTrackName(String metricKey, int device) {
        return "GPU " + metricKey + " [" + device + "]";
    }

    /** The slice track of a device's unified-memory migrations. */
    static String migrationTrackName(int device) {
        return "Unified Memory Migrations [Device " + device + "]";
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
