package org.rocprofsys.core.gpu;

/**
 * Page faults on unified memory: one fault as KFD reports it (begin and end known, {@code count}
 * 1), or a group the runtime counted together (CUPTI reports GPU faults in groups and CPU faults
 * as a count).
 *
 * @param device   the GPU that faulted, or the GPU whose memory a CPU fault touched
 * @param side     whether the GPU or the CPU faulted
 * @param address  the faulting address (the group's first, 0 when unknown)
 * @param write    whether the access was a write (false when unknown)
 * @param migrated whether the fault was served by migrating pages (KFD's {@code M}, against
 *                 {@code U}: the mapping was only updated)
 * @param count    how many faults this event stands for
 */
public record GpuPageFault(
        int pid,
        int device,
        long beginNs,
        long endNs,
        FaultSide side,
        long address,
        boolean write,
        boolean migrated,
        long count)
        implements GpuInterval {
    /** Which processor took the fault. */
    public enum FaultSide {
        GPU,
        CPU
    }
}
