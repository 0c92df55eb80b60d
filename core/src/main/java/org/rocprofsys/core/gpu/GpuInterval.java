package org.rocprofsys.core.gpu;

/**
 * A GPU event with a begin and an end (CLOCK_MONOTONIC ns): an API call, a marker range, device
 * work, a migration or fault group, a counter sample over its kernel. It is ordered by its begin.
 */
public sealed interface GpuInterval extends GpuEvent
        permits GpuApiCall,
                GpuMarker,
                GpuKernel,
                GpuMemoryCopy,
                GpuMemorySet,
                GpuScratchMemory,
                GpuSynchronization,
                GpuPageMigration,
                GpuPageFault,
                GpuCounterSample {
    long beginNs();

    long endNs();

    @Override
    default long timestampNs() {
        return beginNs();
    }

    default long durationNs() {
        return endNs() - beginNs();
    }
}
