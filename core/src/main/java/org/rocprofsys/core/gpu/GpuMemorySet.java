package org.rocprofsys.core.gpu;

/**
 * One memset on a device: {@code bytes} bytes set to {@code value}.
 *
 * @param domain    the vendor's memset domain
 * @param placement its track, category and annotations in the trace
 */
public record GpuMemorySet(
        int pid,
        int device,
        long stream,
        long correlationId,
        long beginNs,
        long endNs,
        long bytes,
        long value,
        GpuDomain domain,
        DevicePlacement placement)
        implements GpuInterval {}
