package org.rocprofsys.sampler.perf;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

/**
 * The {@code struct perf_event_attr} this sampler passes to {@code perf_event_open}, written as
 * the 128-byte PERF_ATTR_SIZE_VER7 layout (Linux 5.13+; older kernels accept it when the bytes
 * past their own size are zero, which they are unless sig_data is used, and it never is here).
 *
 * <p>Offsets (x86-64 and aarch64 alike, all little-endian, naturally aligned): type u32 @0,
 * size u32 @4, config @8, sample_period/sample_freq @16, sample_type @24, read_format @32, the
 * flag bit-field u64 @40, wakeup_events/wakeup_watermark u32 @48, bp_type u32 @52, config1 @56,
 * config2 @64, branch_sample_type @72, sample_regs_user @80, sample_stack_user u32 @88, clockid
 * s32 @92, sample_regs_intr @96, aux_watermark u32 @104, sample_max_stack u16 @108,
 * aux_sample_size u32 @112, sig_data @120.
 *
 * @param type            PERF_TYPE_* ({@link #TYPE_SOFTWARE} for cpu-clock / task-clock)
 * @param config          the event within the type ({@link #SW_CPU_CLOCK}, {@link #SW_TASK_CLOCK})
 * @param samplePeriodOrFreq samples per second when {@link #FLAG_FREQ} is set, else the period
 *                        in event units (ns for the clock events)
 * @param sampleType      PERF_SAMPLE_* bits ({@link #SAMPLE_IP} ...)
 * @param readFormat      PERF_FORMAT_* bits of what a read (and a PERF_SAMPLE_READ sample) carries
 * @param flags           the bit-field word ({@link #FLAG_DISABLED} ...)
 * @param wakeupEvents    wake a poller every n samples (0: every sample, as 1)
 * @param sampleRegsUser  PERF_SAMPLE_REGS_USER register mask (arch-specific, see
 *                        {@link #X86_64_REGS_UNWIND})
 * @param sampleStackUser bytes of user stack copied per sample (multiple of 8)
 * @param clockid         the clock of the time fields when {@link #FLAG_USE_CLOCKID} is set
 * @param sampleMaxStack  cap on callchain entries (0: the system's kernel.perf_event_max_stack)
 */
public record PerfEventAttr(
        int type,
        long config,
        long samplePeriodOrFreq,
        long sampleType,
        long readFormat,
        long flags,
        int wakeupEvents,
        long sampleRegsUser,
        int sampleStackUser,
        int clockid,
        int sampleMaxStack) {

    /** PERF_ATTR_SIZE_VER7. */
    public static final int SIZE = 128;

    // perf_type_id
    public static final int TYPE_HARDWARE = 0;
    public static final int TYPE_SOFTWARE = 1;
    // perf_sw_ids
    public static final long SW_CPU_CLOCK = 0;
    public static final long SW_TASK_CLOCK = 1;
    // perf_hw_id
    public static final long HW_CPU_CYCLES = 0;
    public static final long HW_INSTRUCTIONS = 1;

    // perf_event_sample_format
    public static final long SAMPLE_IP = 1L << 0;
    public static final long SAMPLE_TID = 1L << 1;
    public static final long SAMPLE_TIME = 1L << 2;
    public static final long SAMPLE_ADDR = 1L << 3;
    public static final long SAMPLE_READ = 1L << 4;
    public static final long SAMPLE_CALLCHAIN = 1L << 5;
    public static final long SAMPLE_ID = 1L << 6;
    public static final long SAMPLE_CPU = 1L << 7;
    public static final long SAMPLE_PERIOD = 1L << 8;
    public static final long SAMPLE_STREAM_ID = 1L << 9;
    public static final long SAMPLE_RAW = 1L << 10;
    public static final long SAMPLE_BRANCH_STACK = 1L << 11;
    public static final long SAMPLE_REGS_USER = 1L << 12;
    public static final long SAMPLE_STACK_USER = 1L << 13;
    public static final long SAMPLE_IDENTIFIER = 1L << 16;

    // perf_event_read_format
    public static final long FORMAT_TOTAL_TIME_ENABLED = 1L << 0;
    public static final long FORMAT_TOTAL_TIME_RUNNING = 1L << 1;
    public static final long FORMAT_ID = 1L << 2;
    public static final long FORMAT_GROUP = 1L << 3;
    public static final long FORMAT_LOST = 1L << 4;

    /** What the sampler asks for by default: IP, TID, TIME, CALLCHAIN, CPU, PERIOD. */
    public static final long SAMPLE_DEFAULT =
            SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_CPU | SAMPLE_PERIOD;

    // The bit-field word at offset 40, in declaration order from bit 0.
    public static final long FLAG_DISABLED = 1L << 0;
    public static final long FLAG_INHERIT = 1L << 1;
    public static final long FLAG_PINNED = 1L << 2;
    public static final long FLAG_EXCLUSIVE = 1L << 3;
    public static final long FLAG_EXCLUDE_USER = 1L << 4;
    public static final long FLAG_EXCLUDE_KERNEL = 1L << 5;
    public static final long FLAG_EXCLUDE_HV = 1L << 6;
    public static final long FLAG_EXCLUDE_IDLE = 1L << 7;
    public static final long FLAG_MMAP = 1L << 8;
    public static final long FLAG_COMM = 1L << 9;
    public static final long FLAG_FREQ = 1L << 10;
    public static final long FLAG_INHERIT_STAT = 1L << 11;
    public static final long FLAG_ENABLE_ON_EXEC = 1L << 12;
    public static final long FLAG_TASK = 1L << 13;
    public static final long FLAG_WATERMARK = 1L << 14;
    // precise_ip is 2 bits: 15-16
    public static final long FLAG_MMAP_DATA = 1L << 17;
    public static final long FLAG_SAMPLE_ID_ALL = 1L << 18;
    public static final long FLAG_EXCLUDE_HOST = 1L << 19;
    public static final long FLAG_EXCLUDE_GUEST = 1L << 20;
    public static final long FLAG_EXCLUDE_CALLCHAIN_KERNEL = 1L << 21;
    public static final long FLAG_EXCLUDE_CALLCHAIN_USER = 1L << 22;
    public static final long FLAG_MMAP2 = 1L << 23;
    public static final long FLAG_COMM_EXEC = 1L << 24;
    public static final long FLAG_USE_CLOCKID = 1L << 25;
    public static final long FLAG_CONTEXT_SWITCH = 1L << 26;

    /** The side-band records the sampler needs: MMAP2 (executable maps), COMM (+exec), FORK/EXIT, ids on all. */
    public static final long FLAGS_SIDEBAND =
            FLAG_MMAP | FLAG_MMAP2 | FLAG_COMM | FLAG_COMM_EXEC | FLAG_TASK | FLAG_SAMPLE_ID_ALL;

    public static final int CLOCK_MONOTONIC = 1;

    // x86-64 perf_regs indices (arch/x86/include/uapi/asm/perf_regs.h).
    public static final int X86_REG_BP = 6;
    public static final int X86_REG_SP = 7;
    public static final int X86_REG_IP = 8;
    /** AX..DI, BP, SP, IP and R8..R15 (DWARF CFI can name any of them); no flags or segment registers. */
    public static final long X86_64_REGS_UNWIND = 0xffL | (1L << X86_REG_IP) | (0xffL << 16);

    public PerfEventAttr {
        if (sampleStackUser % 8 != 0 || sampleStackUser < 0) {
            throw new IllegalArgumentException(
                    "sample_stack_user must be a non-negative multiple of 8: " + sampleStackUser);
        }
        if ((sampleType & SAMPLE_REGS_USER) == 0 && sampleRegsUser != 0) {
            throw new IllegalArgumentException("sample_regs_user given without PERF_SAMPLE_REGS_USER");
        }
        if ((sampleType & SAMPLE_STACK_USER) != 0 && sampleStackUser == 0) {
            throw new IllegalArgumentException("PERF_SAMPLE_STACK_USER needs sample_stack_user > 0");
        }
    }

    /**
     * A software clock event sampling {@code freqHz} times per CPU-second of each thread, with
     * {@link #SAMPLE_DEFAULT}, inheritance to threads and children, the side-band records,
     * CLOCK_MONOTONIC times and exclude_hv; disabled until enabled (or until exec with
     * {@link #enableOnExec()}).
     *
     * @param taskClock task-clock instead of cpu-clock
     */
    public static PerfEventAttr clockSampling(boolean taskClock, long freqHz) {
        return new PerfEventAttr(
                TYPE_SOFTWARE,
                taskClock ? SW_TASK_CLOCK : SW_CPU_CLOCK,
                freqHz,
                SAMPLE_DEFAULT,
                0,
                FLAG_DISABLED | FLAG_INHERIT | FLAG_FREQ | FLAG_EXCLUDE_HV | FLAGS_SIDEBAND | FLAG_USE_CLOCKID,
                1,
                0,
                0,
                CLOCK_MONOTONIC,
                0);
    }

    /**
     * Overflow sampling (SAMPLING_OVERFLOW): one sample every {@code period} occurrences of the
     * event (for the software clocks: nanoseconds), otherwise as {@link #clockSampling}.
     */
    public static PerfEventAttr overflowSampling(int type, long config, long period) {
        if (period <= 0) {
            throw new IllegalArgumentException("overflow period must be above 0, not " + period);
        }
        return new PerfEventAttr(
                type,
                config,
                period,
                SAMPLE_DEFAULT,
                0,
                FLAG_DISABLED | FLAG_INHERIT | FLAG_EXCLUDE_HV | FLAGS_SIDEBAND | FLAG_USE_CLOCKID,
                1,
                0,
                0,
                CLOCK_MONOTONIC,
                0);
    }

    /**
     * Each sample carries the counts of the event's group (PERF_SAMPLE_READ with
     * PERF_FORMAT_GROUP | PERF_FORMAT_ID): the leader's, then each member's, with their ids. With
     * inherit the kernel (Linux 6.12+, which also wants PERF_SAMPLE_TID) gives the sampled
     * thread's own counts, not the sum over the inherited events.
     */
    public PerfEventAttr withGroupRead() {
        return new PerfEventAttr(
                type,
                config,
                samplePeriodOrFreq,
                sampleType | SAMPLE_READ | SAMPLE_TID,
                FORMAT_GROUP | FORMAT_ID,
                flags,
                wakeupEvents,
                sampleRegsUser,
                sampleStackUser,
                clockid,
                sampleMaxStack);
    }

    /**
     * This counting event as a member of {@code leader}'s group: counting whenever the leader is
     * (enabled itself, the leader alone is disabled or enabled on exec), inherited as the leader is,
     * on the leader's clock (the kernel refuses a group of mixed clocks: EINVAL), and never sampling
     * or writing records of its own.
     */
    public PerfEventAttr asMemberOf(PerfEventAttr leader) {
        long keep = flags
                & ~(FLAG_DISABLED | FLAG_ENABLE_ON_EXEC | FLAG_INHERIT | FLAGS_SIDEBAND | FLAG_FREQ | FLAG_USE_CLOCKID);
        return new PerfEventAttr(
                type,
                config,
                0,
                0,
                0,
                keep | (leader.flags & (FLAG_INHERIT | FLAG_USE_CLOCKID)),
                0,
                0,
                0,
                leader.has(FLAG_USE_CLOCKID) ? leader.clockid : 0,
                0);
    }

    public boolean has(long flag) {
        return (flags & flag) == flag;
    }

    public boolean samples(long sampleBit) {
        return (sampleType & sampleBit) == sampleBit;
    }

    public PerfEventAttr withFlags(long set) {
        return new PerfEventAttr(
                type,
                config,
                samplePeriodOrFreq,
                sampleType,
                readFormat,
                flags | set,
                wakeupEvents,
                sampleRegsUser,
                sampleStackUser,
                clockid,
                sampleMaxStack);
    }

    public PerfEventAttr withoutFlags(long clear) {
        return new PerfEventAttr(
                type,
                config,
                samplePeriodOrFreq,
                sampleType,
                readFormat,
                flags & ~clear,
                wakeupEvents,
                sampleRegsUser,
                sampleStackUser,
                clockid,
                sampleMaxStack);
    }

    /** Disabled now, enabled by the kernel when the target calls execve (the launch flow). */
    public PerfEventAttr enableOnExec() {
        return withFlags(FLAG_DISABLED | FLAG_ENABLE_ON_EXEC);
    }

    /** Kernel frames are refused to unprivileged users at perf_event_paranoid >= 2. */
    public PerfEventAttr userOnly() {
        return withFlags(FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_CALLCHAIN_KERNEL);
    }

    /** Adds PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER (the input of DWARF unwinding). */
    public PerfEventAttr withUserStack(long regsMask, int stackBytes) {
        return new PerfEventAttr(
                type,
                config,
                samplePeriodOrFreq,
                sampleType | SAMPLE_REGS_USER | SAMPLE_STACK_USER,
                readFormat,
                flags,
                wakeupEvents,
                regsMask,
                stackBytes,
                clockid,
                sampleMaxStack);
    }

    public PerfEventAttr withSampleType(long newSampleType) {
        return new PerfEventAttr(
                type,
                config,
                samplePeriodOrFreq,
                newSampleType,
                readFormat,
                flags,
                wakeupEvents,
                sampleRegsUser,
                sampleStackUser,
                clockid,
                sampleMaxStack);
    }

    public PerfEventAttr withWakeupEvents(int n) {
        return new PerfEventAttr(
                type,
                config,
                samplePeriodOrFreq,
                sampleType,
                readFormat,
                flags,
                n,
                sampleRegsUser,
                sampleStackUser,
                clockid,
                sampleMaxStack);
    }

    /**
     * Wakes a poller once {@code bytes} of the ring are unread (attr.watermark with
     * wakeup_watermark) instead of every n events.
     */
    public PerfEventAttr withWakeupWatermark(int bytes) {
        return withWakeupEvents(bytes).withFlags(FLAG_WATERMARK);
    }

    /** Number of registers a sample carries: the population count of the mask. */
    public int userRegisterCount() {
        return samples(SAMPLE_REGS_USER) ? Long.bitCount(sampleRegsUser) : 0;
    }

    /** The 128 bytes the kernel reads, zero where not set. */
    public MemorySegment toSegment(SegmentAllocator allocator) {
        MemorySegment s = allocator.allocate(SIZE, 8);
        s.fill((byte) 0);
        s.set(JAVA_INT, 0, type);
        s.set(JAVA_INT, 4, SIZE);
        s.set(JAVA_LONG, 8, config);
        s.set(JAVA_LONG, 16, samplePeriodOrFreq);
        s.set(JAVA_LONG, 24, sampleType);
        s.set(JAVA_LONG, 32, readFormat);
        s.set(JAVA_LONG, 40, flags);
        s.set(JAVA_INT, 48, wakeupEvents);
        s.set(JAVA_LONG, 80, sampleRegsUser);
        s.set(JAVA_INT, 88, sampleStackUser);
        s.set(JAVA_INT, 92, clockid);
        s.set(JAVA_SHORT, 108, (short) sampleMaxStack);
        return s;
    }
}
