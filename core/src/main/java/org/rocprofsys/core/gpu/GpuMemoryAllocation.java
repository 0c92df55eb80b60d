package org.rocprofsys.core.gpu;

/**
 * An allocation ({@code free} false) or release ({@code free} true) of {@code bytes} at
 * {@code address} on a device (or of host memory the runtime manages for it).
 *
 * @param domain the vendor's allocation domain (its category is the rocpd event's)
 */
public record GpuMemoryAllocation(
        int pid,
        int device,
        long stream,
        long correlationId,
        long timestampNs,
        boolean free,
        MemoryKind memory,
        long address,
        long bytes,
        GpuDomain domain)
        implements GpuEvent {}
