package org.rocprofsys.core.gpu;

/**
 * Pages of unified (managed, XNACK) memory that the driver moved between host and device memory
 * (KFD page-migration events on AMD, CUPTI unified-memory transfers on NVIDIA).
 *
 * @param device     the GPU whose memory the pages left or reached (for device to device, the
 *                   destination)
 * @param address    the first byte of the range that moved
 * @param bytes      how many bytes moved
 * @param trigger    why the driver moved them
 * @param faultGroup the fault that caused this migration (one fault can move several ranges), or
 *                   0 when the migration stands alone; the report counts a trigger once per group
 */
public record GpuPageMigration(
        int pid,
        int device,
        long beginNs,
        long endNs,
        MigrationDirection direction,
        long address,
        long bytes,
        MigrationTrigger trigger,
        long faultGroup)
        implements GpuInterval {}
