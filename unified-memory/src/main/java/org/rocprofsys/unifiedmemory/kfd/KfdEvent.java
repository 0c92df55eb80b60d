package org.rocprofsys.unifiedmemory.kfd;

/**
 * One line of a KFD SMI event file descriptor, as the kernel formats it
 * ({@code drivers/gpu/drm/amd/amdkfd/kfd_smi_events.c}, formats {@code KFD_EVENT_FMT_*} of
 * {@code uapi/linux/kfd_ioctl.h}): {@code <event id, hex> <boot-time ns> -<pid> ...}. Addresses and
 * sizes are in 4 KiB pages; nodes are KFD GPU ids, 0 standing for system memory.
 */
public sealed interface KfdEvent {
    /** CLOCK_BOOTTIME ns. */
    long timestampNs();

    int pid();

    /** {@code KFD_SMI_EVENT_MIGRATE_START}: {@code %lld -%d @%lx(%lx) %x->%x %x:%x %d}. */
    record MigrateStart(
            long timestampNs,
            int pid,
            long startPage,
            long pages,
            int fromNode,
            int toNode,
            int prefetchNode,
            int preferredNode,
            int trigger)
            implements KfdEvent {}

    /**
     * {@code KFD_SMI_EVENT_MIGRATE_END}: {@code %lld -%d @%lx(%lx) %x->%x %d %d}; kernels before the
     * error code was added end the line after the trigger ({@code errorCode} is then 0).
     */
    record MigrateEnd(
            long timestampNs, int pid, long startPage, long pages, int fromNode, int toNode, int trigger, int errorCode)
            implements KfdEvent {}

    /** {@code KFD_SMI_EVENT_PAGE_FAULT_START}: {@code %lld -%d @%lx(%x) %c}, R or W. */
    record PageFaultStart(long timestampNs, int pid, long page, int node, boolean write) implements KfdEvent {}

    /** {@code KFD_SMI_EVENT_PAGE_FAULT_END}: {@code %lld -%d @%lx(%x) %c}, M(igrated) or U(pdated). */
    record PageFaultEnd(long timestampNs, int pid, long page, int node, boolean migrated) implements KfdEvent {}

    /** {@code KFD_SMI_EVENT_QUEUE_EVICTION}: {@code %lld -%d %x %d}. */
    record QueueEviction(long timestampNs, int pid, int node, int trigger) implements KfdEvent {}

    /** {@code KFD_SMI_EVENT_QUEUE_RESTORE}: {@code %lld -%d %x %c}; {@code R} when rescheduled. */
    record QueueRestore(long timestampNs, int pid, int node, boolean rescheduled) implements KfdEvent {}

    /** {@code KFD_SMI_EVENT_UNMAP_FROM_GPU}: {@code %lld -%d @%lx(%lx) %x %d}. */
    record UnmapFromGpu(long timestampNs, int pid, long page, long pages, int node, int trigger) implements KfdEvent {}

    /** {@code KFD_SMI_EVENT_DROPPED_EVENT}: {@code %lld -%d %d}, events the kernel's FIFO lost. */
    record Dropped(long timestampNs, int pid, long count) implements KfdEvent {}
}
