package org.rocprofsys.core.event;

/**
 * A call stack as the agent's timer sampler recorded it (wire record STACK_SAMPLE), not yet
 * unwound or symbolized: the sampler module's resolver turns it into a {@link StackSample} on the
 * collector thread; outputs never see it (it is no {@link SinkEvent}).
 *
 * @param kind        which timer fired: {@link StackSample.Kind#CPU} (thread CPU time) or
 *                    {@link StackSample.Kind#WALL} (wall clock)
 * @param threadCpuNs the thread's CPU time when the sample was taken
 * @param pcs         the frame-pointer walk, leaf first (pcs[0] is the interrupted ip)
 * @param regs        the interrupted registers in DWARF x86-64 column order (17), or empty
 * @param stack       the stack copied from the interrupted sp upwards, or empty
 * @param counters    the raw values of the thread's CPU counters at that moment (the run's counter
 *                    order; {@link RegionMetrics#ABSENT} where the thread had none), or empty
 */
public record AgentStackSample(
        long timestampNs,
        int pid,
        int tid,
        StackSample.Kind kind,
        long threadCpuNs,
        long[] pcs,
        long[] regs,
        byte[] stack,
        long[] counters)
        implements TraceEvent {
    private static final long[] NO_COUNTERS = new long[0];

    public AgentStackSample(
            long timestampNs,
            int pid,
            int tid,
            StackSample.Kind kind,
            long threadCpuNs,
            long[] pcs,
            long[] regs,
            byte[] stack) {
        this(timestampNs, pid, tid, kind, threadCpuNs, pcs, regs, stack, NO_COUNTERS);
    }

    /** The stack pointer the copy starts at (register column 7), 0 without registers. */
    public long stackPointer() {
        return regs.length > 7 ? regs[7] : 0;
    }
}
