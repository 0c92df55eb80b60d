package org.rocprofsys.sampler.perf;

/**
 * One decoded record of a perf ring buffer. {@link #time()} is in the event's clock (CLOCK_MONOTONIC
 * ns with {@link PerfEventAttr#clockSampling}), or -1 where the record carries no time (sample_id_all
 * unset, or TIME not sampled).
 */
public sealed interface PerfRecord {

    long time();

    /** PERF_RECORD_MISC_CPUMODE values of {@link Sample#cpumode()}. */
    int CPUMODE_KERNEL = 1;

    int CPUMODE_USER = 2;
    int CPUMODE_HYPERVISOR = 3;
    int CPUMODE_GUEST_KERNEL = 4;
    int CPUMODE_GUEST_USER = 5;

    /**
     * PERF_RECORD_SAMPLE. Fields not in the event's sample_type are -1 (numbers) or empty
     * (arrays). The callchain is split at its PERF_CONTEXT_* markers: kernel frames (innermost
     * first) and user frames (innermost first; the first is the sampled user pc when the sample
     * hit user mode). Guest and hypervisor frames are dropped.
     *
     * @param cpumode         PERF_RECORD_MISC_CPUMODE_* of the interrupted context
     * @param userRegsAbi     PERF_SAMPLE_REGS_ABI (0 none: a kernel thread, 2 for 64-bit)
     * @param userRegs        the registers of sample_regs_user, in ascending bit order
     * @param userStack       the copied user stack from the sampled SP upwards, trimmed to the dyn_size
     *                        the kernel could actually copy
     * @param read            the counts of PERF_SAMPLE_READ, {@link Counts#NONE} without it
     */
    record Sample(
            long time,
            int pid,
            int tid,
            int cpu,
            long ip,
            long period,
            int cpumode,
            long[] kernelFrames,
            long[] userFrames,
            long userRegsAbi,
            long[] userRegs,
            byte[] userStack,
            Counts read)
            implements PerfRecord {
        public boolean userMode() {
            return cpumode == CPUMODE_USER || cpumode == CPUMODE_GUEST_USER;
        }
    }

    /**
     * The counts a PERF_SAMPLE_READ sample carries: one event's (PERF_FORMAT_GROUP unset) or its
     * group's, leader first then the members in the order they were opened, each with its id
     * ({@code -1} without PERF_FORMAT_ID; an inherited event reports its parent's id).
     */
    record Counts(long[] values, long[] ids) {
        public static final Counts NONE = new Counts(new long[0], new long[0]);

        public Counts {
            if (values.length != ids.length) {
                throw new IllegalArgumentException(values.length + " values, " + ids.length + " ids");
            }
        }

        public int size() {
            return values.length;
        }
    }

    /**
     * PERF_RECORD_MMAP2 (or the older PERF_RECORD_MMAP, {@code mmap2} false: no device, inode,
     * prot or flags). {@code buildId} is set when the kernel sent one instead of the inode
     * (attr.build_id), else empty. {@code data} marks a non-executable mapping (mmap_data).
     */
    record Mmap(
            long time,
            int pid,
            int tid,
            long address,
            long length,
            long pageOffset,
            int major,
            int minor,
            long inode,
            long inodeGeneration,
            byte[] buildId,
            int prot,
            int flags,
            String filename,
            boolean mmap2,
            boolean data)
            implements PerfRecord {
        public long end() {
            return address + length;
        }
    }

    /** PERF_RECORD_COMM: a thread's name, {@code exec} when the change came from execve (comm_exec). */
    record Comm(long time, int pid, int tid, String comm, boolean exec) implements PerfRecord {}

    /** PERF_RECORD_FORK: a new thread ({@code pid == ppid}) or process. */
    record Fork(long time, int pid, int ppid, int tid, int ptid) implements PerfRecord {
        public boolean isThread() {
            return pid == ppid && tid != ptid;
        }
    }

    /** PERF_RECORD_EXIT: a thread ended; {@code tid == pid} for a process's main thread. */
    record Exit(long time, int pid, int ppid, int tid, int ptid) implements PerfRecord {}

    /**
     * PERF_RECORD_LOST (the ring was full: {@code lost} records dropped, {@code id} the event's
     * id) or PERF_RECORD_LOST_SAMPLES ({@code id} -1: samples dropped before reaching the ring).
     */
    record Lost(long time, long id, long lost) implements PerfRecord {}

    /** PERF_RECORD_THROTTLE / UNTHROTTLE: the kernel limited the sample rate (perf_event_max_sample_rate). */
    record Throttle(long time, long id, boolean throttled) implements PerfRecord {}
}
