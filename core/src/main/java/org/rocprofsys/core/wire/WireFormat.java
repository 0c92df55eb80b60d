package org.rocprofsys.core.wire;

/**
 * The constants and offsets of {@code agent/src/main/c/rocprofsys_wire.h}, which is the
 * authority; docs/wire-protocol.md explains them. The round-trip test (C writes, Java reads)
 * keeps the two in agreement.
 */
public final class WireFormat {
    private WireFormat() {}

    public static final long MAGIC = 0x3152495753595352L; // "RSYSWIR1"
    public static final int VERSION = 3;
    /**
     * Version 3 added FUNC_CALL and the ring header's unpublished_head (zero padding before): a
     * version 2 file (the GPU fixtures recorded on the GPU machine) reads the same.
     */
    public static final int OLDEST_READABLE_VERSION = 2;

    public static final int FILE_HEADER_SIZE = 4096;
    public static final int RING_HEADER_SIZE = 256;
    public static final int EXE_CAPACITY = 512;
    public static final int CMDLINE_CAPACITY = 3072;
    public static final int AGENT_PATH_CAPACITY = 352;

    // rsys_file_header offsets
    public static final long H_MAGIC = 0;
    public static final long H_VERSION = 8;
    public static final long H_HEADER_SIZE = 12;
    public static final long H_RING_HEADER_SIZE = 16;
    public static final long H_MAX_RINGS = 20;
    public static final long H_RING_DATA_SIZE = 24;
    public static final long H_PID = 32;
    public static final long H_PPID = 36;
    public static final long H_FORKED_FROM = 40;
    public static final long H_EXEC_GENERATION = 44;
    public static final long H_CLOCK_KIND = 48;
    public static final long H_FLAGS = 52;
    public static final long H_INIT_TIME = 56;
    public static final long H_INIT_REALTIME = 64;
    public static final long H_METRICS = 72;
    public static final long H_RINGS_CLAIMED = 76;
    public static final long H_STATE = 80;
    public static final long H_EXIT_CODE = 84;
    public static final long H_EXIT_TIME = 88;
    public static final long H_UNRINGED_DROPS = 96;
    public static final long H_CMDLINE_SIZE = 104;
    /** u32: threads that found no ring slot. */
    public static final long H_UNRINGED_THREADS = 108;

    public static final long H_INIT_MONOTONIC = 112;
    public static final long H_EXIT_MONOTONIC = 120;
    public static final long H_EXE = 128;
    public static final long H_CMDLINE = 640;
    public static final long H_CLOCK_PAIR_SEQ = 3712;
    public static final long H_LATEST_TIME = 3720;
    public static final long H_LATEST_MONOTONIC = 3728;
    public static final long H_AGENT_PATH = 3736;

    /** Record times are CLOCK_MONOTONIC ns. */
    public static final int CLOCK_MONOTONIC_NS = 0;
    /** Record times are time-stamp counter ticks, converted with calibration pairs ({@link ClockConversion}). */
    public static final int CLOCK_TSC = 1;
    /** A later calibration pair closer than this to the init pair is too short a baseline. */
    public static final long CALIBRATION_MIN_SPAN_NS = 10_000_000L;
    /** The agent's exported helper that reads a calibration pair. */
    public static final String READ_CLOCK_PAIR_SYMBOL = "rocprofsys_wire_read_clock_pair";

    public static final int STATE_INITIALISING = 0;
    public static final int STATE_RUNNING = 1;
    public static final int STATE_EXITED = 2;

    public static final int FLAG_LOSSLESS = 1;

    public static final int METRIC_THREAD_CPU = 1;
    public static final int METRIC_RSS = 2;
    public static final int METRIC_PEAK_RSS = 4;
    public static final int METRIC_VIRTUAL = 8;
    public static final int METRIC_USER_TIME = 16;
    public static final int METRIC_KERNEL_TIME = 32;
    public static final int METRIC_MAJOR_FAULTS = 64;
    public static final int METRIC_MINOR_FAULTS = 128;
    public static final int METRIC_VOLUNTARY_CSW = 256;
    public static final int METRIC_PRIORITY_CSW = 512;
    /** Bit 16 + i: CPU counter i of {@link #ENV_COUNTERS}. */
    public static final int METRIC_COUNTER0 = 1 << 16;

    public static final int METRIC_COUNTERS = 0xff0000;
    public static final int MAX_COUNTERS = 8;
    /** The metric flags of a REGION_BEGIN/END record's aux. */
    public static int metricFlags(int aux) {
        return (aux >>> 8) & 0xffffff;
    }

    // rsys_ring_header offsets
    public static final long R_HEAD = 0;
    public static final long R_TAIL = 64;
    public static final long R_STATE = 128;
    public static final long R_TID = 132;
    public static final long R_THREAD_SEQ = 136;
    public static final long R_DROPPED = 144;
    /** head with the producer's latest unpublished FUNC_ENTER: read only once the process is gone. */
    public static final long R_UNPUBLISHED_HEAD = 192;

    public static final int RING_FREE = 0;
    public static final int RING_ACTIVE = 1;
    public static final int RING_ENDED = 2;
    /** A new thread is taking the slot of an ended one (ACTIVE follows). */
    public static final int RING_CLAIMING = 3;

    // record types
    public static final int REC_PAD = 0;
    public static final int REC_THREAD_START = 1;
    public static final int REC_THREAD_END = 2;
    public static final int REC_REGION_BEGIN = 3;
    public static final int REC_REGION_END = 4;
    public static final int REC_ANNOTATION = 5;
    public static final int REC_MARK = 6;
    public static final int REC_FORK = 7;
    public static final int REC_TRACE_CONTROL = 8;
    /** Name of an instrumented function (NUL-terminated, padded); aux = its global id. No time. */
    public static final int REC_FUNC_DEF = 9;
    /** u64 time; aux = global function id: a host region named by the id's FUNC_DEF begins. */
    public static final int REC_FUNC_ENTER = 10;
    /** u64 time; aux = global function id: the innermost region ends. */
    public static final int REC_FUNC_EXIT = 11;
    /** u64 enter time, u64 exit time; aux = global function id: a FUNC_ENTER and its FUNC_EXIT in one record. */
    public static final int REC_FUNC_CALL = 26;
    /** A call-stack sample of the agent's timer sampler; aux = {@link #TIMER_CPUTIME} or {@link #TIMER_REALTIME}. */
    public static final int REC_STACK_SAMPLE = 12;
    // The record types GPU backends' libraries write (13-19 and 24-25 today) are not this table's:
    // each backend names its own and claims them through BackendRecords#owns, in the decoder it
    // registers (org.rocprofsys.core.spi); the agent's header (rocprofsys_wire.h) numbers them.
    /** The agent's entry point for GPU backends ({@code agent_gpu.c}). */
    public static final String GPU_RECORD_SYMBOL = "rocprofsys_gpu_record";

    public static final int MAX_RECORD_SIZE = 4096;

    // STACK_SAMPLE: timer kinds (aux), register count, limits
    public static final int TIMER_CPUTIME = 0;
    public static final int TIMER_REALTIME = 1;
    public static final int SAMPLE_NREGS = 17;
    public static final int SAMPLE_MAX_PCS = 64;
    public static final int MAX_SAMPLE_RECORD_SIZE = 16384;

    // bits of a TRACE_CONTROL record's aux
    public static final int TRACE_ENABLE = 1;
    public static final int TRACE_PROCESS = 2;

    // environment of the target, set by the collector
    public static final String ENV_SESSION_DIR = "ROCPROFSYS_SESSION_DIR";
    public static final String ENV_RING_KB = "ROCPROFSYS_AGENT_RING_KB";
    public static final String ENV_MAX_THREADS = "ROCPROFSYS_AGENT_MAX_THREADS";
    public static final String ENV_LOSSLESS = "ROCPROFSYS_AGENT_LOSSLESS";
    /** Not lossless, ring full: the agent waits while the collector frees space this often (ms). */
    public static final String ENV_STALL_MS = "ROCPROFSYS_AGENT_STALL_MS";
    /** "1": a collector that dies takes the program with it (SIGKILL); else the program runs on unrecorded. */
    public static final String ENV_EXIT_WITH_COLLECTOR = "ROCPROFSYS_AGENT_EXIT_WITH_COLLECTOR";
    /**
     * The collector's lock in the session directory: held (an fcntl write lock) while the collector
     * runs, "ended" written into it before it lets go; the agents ask it when their ring is full.
     */
    public static final String COLLECTOR_LOCK = "collector.lock";

    public static final String ENV_METRICS = "ROCPROFSYS_AGENT_METRICS";
    /** The CPU counters of METRIC_COUNTER0.. as perf {@code type:config} pairs joined by ','. */
    public static final String ENV_COUNTERS = "ROCPROFSYS_AGENT_COUNTERS";
    /** The pthread calls the agent records as regions: {@link #THREAD_CALL_BARRIER} | {@link #THREAD_CALL_JOIN}. */
    public static final String ENV_THREAD_CALLS = "ROCPROFSYS_AGENT_THREAD_CALLS";

    public static final int THREAD_CALL_BARRIER = 1;
    public static final int THREAD_CALL_JOIN = 2;
    /** "monotonic": the agent never uses {@link #CLOCK_TSC}. */
    public static final String ENV_CLOCK = "ROCPROFSYS_AGENT_CLOCK";
    /** Runtime instrumentation plan file the agent applies before main (docs/instrumentation.md). */
    public static final String ENV_INSTRUMENT_PLAN = "ROCPROFSYS_INSTRUMENT_PLAN";
    /** The timer sampler: {@code <kind>:<signal>:<period ns>:<delay ns>:<threads>} joined by ';'. */
    public static final String ENV_TIMERS = "ROCPROFSYS_AGENT_TIMERS";
    /** > 0: the agent's timers stop this long (plus their delay) after its init. */
    public static final String ENV_TIMER_DURATION_NS = "ROCPROFSYS_AGENT_TIMER_DURATION_NS";
    /** Bytes of stack the timer sampler copies per sample (default 8192). */
    public static final String ENV_SAMPLE_STACK = "ROCPROFSYS_AGENT_SAMPLE_STACK";

    /** The ring file name of a process image: {@code <pid>.<exec generation>.ring}. */
    public static String fileName(int pid, int generation) {
        return pid + "." + generation + ".ring";
    }
}
