package org.rocprofsys.core.perfetto;

import org.rocprofsys.core.event.Category;

/**
 * Names of the trace's GPU tracks that no backend owns (upstream's layout, inventory §4.3): API
 * calls and markers go on the calling thread's track, device work on the track its backend names
 * ({@link org.rocprofsys.core.gpu.DevicePlacement}); the bytes allocated on a device on a counter
 * track, {@code GPU Memory Allocated [<device>]}; unified-memory migrations and page faults (every
 * vendor's and KFD's) and per-kernel hardware counters on upstream's tracks.
 */
final class GpuTracks {
    static final String MEMSET_NAME = "MEMORY_SET";
    static final String MEMORY_UNIT = "MB";
    static final double BYTES_PER_UNIT = 1024.0 * 1024.0;
    /** Unified-memory migrations (every source): upstream's page-migration category. */
    static final String MIGRATION_CATEGORY = Category.ROCM_PAGE_MIGRATION.label();
    /** The category of the migration and page-fault counter series (upstream's). */
    static final Category MIGRATION_COUNTERS = Category.ROCM_PAGE_MIGRATION;
    /** The category of the per-kernel hardware counter series (upstream's). */
    static final Category KERNEL_COUNTERS = Category.ROCM_COUNTER_COLLECTION;
    /** Migration throughput, bytes per ns (seed 000: GB/s with GB = 10^9). */
    static final String THROUGHPUT_UNIT = "GB/s";

    private GpuTracks() {}

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
}
