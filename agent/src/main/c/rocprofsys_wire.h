/*
 * rocprof-sys wire protocol: the agent (C, inside the target) -> the collector (Java).
 * docs/wire-protocol.md explains it; org.rocprofsys.core.wire.WireFormat mirrors every constant
 * and offset here, and a round-trip test (agent/src/test/c/wire_roundtrip.c written from C, read
 * back in Java) keeps the two in agreement. Change one, change all three.
 *
 * Everything is little-endian, naturally aligned, and 8-byte aligned per record.
 */
#ifndef ROCPROFSYS_WIRE_H
#define ROCPROFSYS_WIRE_H

#include <stdint.h>

/* "RSYSWIR1" read as a little-endian u64 */
#define RSYS_WIRE_MAGIC UINT64_C(0x3152495753595352)
#define RSYS_WIRE_VERSION 3u

/* One file per process image: <session dir>/<pid>.<exec generation>.ring, mode 0600. */
#define RSYS_FILE_HEADER_SIZE 4096u
#define RSYS_RING_HEADER_SIZE 256u
#define RSYS_EXE_CAPACITY 512u
#define RSYS_CMDLINE_CAPACITY 3072u
#define RSYS_AGENT_PATH_CAPACITY 352u

/*
 * Values of rsys_file_header.clock_kind: what every record time, init_time, exit_time and
 * latest_time is.
 *   RSYS_CLOCK_MONOTONIC_NS  CLOCK_MONOTONIC nanoseconds.
 *   RSYS_CLOCK_TSC           raw x86 time-stamp counter ticks (rdtsc). The agent picks it at init
 *                            only when /proc/cpuinfo's flags hold both constant_tsc and nonstop_tsc
 *                            (ROCPROFSYS_AGENT_CLOCK=monotonic forbids it). The collector converts
 *                            ticks to CLOCK_MONOTONIC ns with calibration pairs: (init_time,
 *                            init_monotonic_ns), (exit_time, exit_monotonic_ns) once EXITED, the
 *                            latest pair (latest_time, latest_monotonic_ns), or a pair it reads
 *                            itself through rocprofsys_wire_read_clock_pair (below). Each pair is
 *                            read back to back: CLOCK_MONOTONIC between two rdtsc, the tick value
 *                            being their midpoint (the read with the smallest gap of a few tries).
 */
#define RSYS_CLOCK_MONOTONIC_NS 0u
#define RSYS_CLOCK_TSC 1u

/*
 * The collector converts ticks with the line through the init pair and one later pair:
 * ns = init_monotonic_ns + floor((t - init_time) * (M - init_monotonic_ns) / (T - init_time)).
 * A later pair closer than this to the init pair (in CLOCK_MONOTONIC) is too short a baseline.
 */
#define RSYS_CALIBRATION_MIN_SPAN_NS 10000000u

/* Values of rsys_file_header.state; the collector trusts the header only from RUNNING on. */
#define RSYS_STATE_INITIALISING 0u
#define RSYS_STATE_RUNNING 1u
#define RSYS_STATE_EXITED 2u

/* Bits of rsys_file_header.flags */
#define RSYS_FLAG_LOSSLESS 1u /* a full ring makes the producer wait instead of dropping */

/*
 * Bits of ROCPROFSYS_AGENT_THREAD_CALLS: the pthread calls the agent records as regions of category
 * ROCPROFSYS_CATEGORY_PTHREAD named after the function, one around each call (upstream's
 * ROCPROFSYS_TRACE_THREAD_BARRIERS and _JOIN).
 */
#define RSYS_THREAD_CALL_BARRIER 1u /* pthread_barrier_wait */
#define RSYS_THREAD_CALL_JOIN 2u    /* pthread_join */

/*
 * Bits of ROCPROFSYS_AGENT_LOCK_CALLS: the lock families whose calls the agent records as regions
 * of category ROCPROFSYS_CATEGORY_PTHREAD (upstream's TRACE_THREAD_LOCKS, _RW_LOCKS, _SPIN_LOCKS).
 * Without a bit nothing of that family is interposed: the agent patches the modules' GOT entries
 * only for the families asked for.
 */
#define RSYS_LOCK_CALL_MUTEX 1u  /* pthread_mutex_lock, _unlock, _trylock */
#define RSYS_LOCK_CALL_RWLOCK 2u /* pthread_rwlock_rdlock, _wrlock, _tryrdlock, _trywrlock, _unlock */
#define RSYS_LOCK_CALL_SPIN 4u   /* pthread_spin_lock, _trylock, _unlock */

/* Bits of rsys_file_header.metrics and of a region record's metric flags */
#define RSYS_METRIC_THREAD_CPU 1u /* u64 CLOCK_THREAD_CPUTIME_ID ns */
#define RSYS_METRIC_RSS 2u        /* u64 current resident set size, bytes */
#define RSYS_METRIC_PEAK_RSS 4u   /* u64 peak resident set size, bytes */
#define RSYS_METRIC_VIRTUAL 8u    /* u64 process virtual memory size (statm size), bytes */
/* getrusage(RUSAGE_THREAD) of the recording thread, one call for all six */
#define RSYS_METRIC_USER_TIME 16u     /* u64 user-mode CPU time, ns (ru_utime) */
#define RSYS_METRIC_KERNEL_TIME 32u   /* u64 kernel-mode CPU time, ns (ru_stime) */
#define RSYS_METRIC_MAJOR_FAULTS 64u  /* u64 ru_majflt */
#define RSYS_METRIC_MINOR_FAULTS 128u /* u64 ru_minflt */
#define RSYS_METRIC_VOLUNTARY_CSW 256u /* u64 ru_nvcsw */
#define RSYS_METRIC_PRIORITY_CSW 512u  /* u64 ru_nivcsw (involuntary) */
#define RSYS_METRIC_RUSAGE 0x3f0u
/*
 * Bits 16-23: CPU counter i (ROCPROFSYS_AGENT_COUNTERS' i-th event, bit 16 + i), the raw count of
 * the thread's own perf event (the group read at that moment); all ones where the thread could not
 * open its events.
 */
#define RSYS_METRIC_COUNTER0 (1u << 16)
#define RSYS_METRIC_COUNTERS 0xff0000u
#define RSYS_MAX_COUNTERS 8u
#define RSYS_METRIC_ALL 0xff03ffu
#define RSYS_MAX_METRICS 18u /* metric u64s a record may carry */

struct rsys_file_header {
    uint64_t magic;              /*   0 RSYS_WIRE_MAGIC */
    uint32_t version;            /*   8 RSYS_WIRE_VERSION */
    uint32_t header_size;        /*  12 RSYS_FILE_HEADER_SIZE */
    uint32_t ring_header_size;   /*  16 RSYS_RING_HEADER_SIZE */
    uint32_t max_rings;          /*  20 ring slots in the file */
    uint64_t ring_data_size;     /*  24 data bytes per ring, a power of two */
    int32_t pid;                 /*  32 */
    int32_t ppid;                /*  36 */
    int32_t forked_from;         /*  40 parent pid when this image began as a fork child, else 0 */
    uint32_t exec_generation;    /*  44 0, then 1 after the first exec of this pid, ... */
    uint32_t clock_kind;         /*  48 RSYS_CLOCK_* */
    uint32_t flags;              /*  52 RSYS_FLAG_* */
    uint64_t init_time;          /*  56 record clock when the agent initialised */
    uint64_t init_realtime_ns;   /*  64 CLOCK_REALTIME at the same moment */
    uint32_t metrics;            /*  72 RSYS_METRIC_* the agent records with regions */
    uint32_t rings_claimed;      /*  76 atomic: slots taken so far (may exceed max_rings) */
    uint32_t state;              /*  80 atomic: RSYS_STATE_*, stored with release order */
    int32_t exit_code;           /*  84 when EXITED: the status passed to exit(), or -1 if unknown */
    uint64_t exit_time;          /*  88 record clock at exit, when EXITED */
    uint64_t unringed_drops;     /*  96 atomic: records lost by threads that found no free ring */
    uint32_t cmdline_size;       /* 104 bytes used in cmdline */
    uint32_t unringed_threads;   /* 108 atomic: threads that found no ring slot (all held by live
                                          threads or by ended ones the collector had not taken) */
    uint64_t init_monotonic_ns;  /* 112 CLOCK_MONOTONIC read with init_time (kind 0: = init_time) */
    uint64_t exit_monotonic_ns;  /* 120 CLOCK_MONOTONIC read with exit_time, when EXITED */
    char exe[RSYS_EXE_CAPACITY];         /* 128 NUL-terminated path of the executable */
    char cmdline[RSYS_CMDLINE_CAPACITY]; /* 640 argv, each NUL-terminated, cut at capacity */
    /*
     * 3712 The latest calibration pair (RSYS_CLOCK_TSC only; all 0 otherwise), refreshed by the
     * agent when a ring wraps (it writes a PAD) and when a thread starts or ends, so that a process
     * that dies without exiting still has a pair far from its init pair. Seqlock: a writer moves
     * clock_pair_seq from even to odd (compare-and-swap; a writer that finds it odd or loses the
     * race skips its update), stores the pair, then stores seq + 2 with release. A reader takes
     * seq (acquire), the pair, then seq again, and retries while seq is odd or changed; it gives
     * up (no latest pair) after many tries, as a process killed while writing leaves seq odd.
     * seq 0: no pair yet.
     */
    uint32_t clock_pair_seq;     /* 3712 atomic */
    uint32_t reserved2;          /* 3716 */
    uint64_t latest_time;        /* 3720 record clock of the latest pair */
    uint64_t latest_monotonic_ns;/* 3728 CLOCK_MONOTONIC of the latest pair */
    /*
     * 3736 NUL-terminated absolute path of the agent library that wrote this file, so that the
     * collector can load it (RTLD_LOCAL) and call rocprofsys_wire_read_clock_pair; empty when the
     * agent is linked into the executable or the path does not fit.
     */
    char agent_path[RSYS_AGENT_PATH_CAPACITY];
    uint64_t reserved3;          /* 4088 */
};

/*
 * Values of rsys_ring_header.state. A slot serves one thread at a time, not one for the life of the
 * process: once every slot has been claimed (rings_claimed), a new thread takes the slot of an
 * ended one by compare-and-swap (ENDED -> CLAIMING), sets unpublished_head to 0, stores tid and
 * thread_seq, then ACTIVE with release, and writes on after the ended thread's records (head goes
 * on; the collector need not have read them). Its records begin with its THREAD_START, whose tid
 * the reader follows; a new thread whose THREAD_START does not fit stores ENDED again and goes
 * without a ring. dropped counts the slot's drops over all its threads.
 */
#define RSYS_RING_FREE 0u
#define RSYS_RING_ACTIVE 1u
#define RSYS_RING_ENDED 2u
#define RSYS_RING_CLAIMING 3u /* a new thread is taking an ended thread's slot */

/* Ring i lives at RSYS_FILE_HEADER_SIZE + i * (RSYS_RING_HEADER_SIZE + ring_data_size). */
struct rsys_ring_header {
    uint64_t head;         /*   0 atomic: bytes ever written; stored with release after the record */
    uint8_t pad0[56];
    uint64_t tail;         /*  64 atomic: bytes ever consumed; written by the collector only */
    uint8_t pad1[56];
    uint32_t state;        /* 128 atomic: RSYS_RING_*; ACTIVE stored with release after tid/seq */
    int32_t tid;           /* 132 kernel thread id */
    int32_t thread_seq;    /* 136 0 = main thread, then creation order (upstream "Thread N") */
    uint32_t reserved0;    /* 140 */
    uint64_t dropped;      /* 144 atomic: records dropped because the ring was full */
    uint8_t pad2[40];      /* 152 */
    /*
     * 192 head as it would be with the FUNC_ENTER the producer last left unpublished (see
     * RSYS_REC_FUNC_CALL): stored after that record, on a line the collector does not read while
     * the process runs. Once the process is gone, unpublished_head == head + 16 means that the
     * record at head is complete: a FUNC_ENTER (or the FUNC_CALL it was becoming) whose function
     * had not returned. Any other value means nothing.
     */
    uint64_t unpublished_head;
    uint8_t pad3[56];      /* 200 .. 256 */
};

/*
 * Records. Every record starts with this 8-byte header; size counts the header and is a multiple
 * of 8. A record never wraps: when it does not fit before the end of the data area, the producer
 * writes RSYS_REC_PAD there and the reader skips to the start of the next lap. A record becomes
 * visible only when head moves past it, so a crash never exposes half a record.
 */
struct rsys_record_header {
    uint16_t type;
    uint16_t size;
    uint32_t aux;
};

#define RSYS_REC_PAD 0u          /* skip to the next lap */
#define RSYS_REC_THREAD_START 1u /* u64 time, i32 tid, i32 thread_seq; aux 0 */
#define RSYS_REC_THREAD_END 2u   /* u64 time */
/*
 * u64 time, then one u64 per metric flag set (in bit order), then the NUL-terminated name padded
 * to 8. aux = category (bits 0-7) | metric flags << 8 (24 bits: RSYS_METRIC_*).
 */
#define RSYS_REC_REGION_BEGIN 3u
/* u64 time, then the metric u64s as for REGION_BEGIN. aux as for REGION_BEGIN. */
#define RSYS_REC_REGION_END 4u
/*
 * Attaches to the latest REGION_BEGIN or REGION_END of the same ring. aux = annotation type
 * (ROCPROFSYS_VALUE_* of categories.h). u64 value: signed integers sign-extended, unsigned ones
 * zero-extended, FLOAT32 and FLOAT64 both as the bits of a double, VOID_P the address, CSTR the
 * string's length without NUL. Then the NUL-terminated name, then for CSTR the NUL-terminated
 * value; padded to 8.
 */
#define RSYS_REC_ANNOTATION 5u
/* u64 time, NUL-terminated name padded to 8; aux = category. A progress point / instant. */
#define RSYS_REC_MARK 6u
/* u64 time, i32 child pid, i32 0 */
#define RSYS_REC_FORK 7u
/* u64 time; aux bit 0: 1 enable / 0 disable; bit 1: 1 whole process / 0 this thread */
#define RSYS_REC_TRACE_CONTROL 8u
/*
 * Binary instrumentation (docs/instrumentation.md). Function ids are global per process image:
 * the agent gives each registered instrumentation area a base and emits one FUNC_DEF per function
 * of it before any FUNC_ENTER can name it (a fork child emits them again in its own file). A
 * FUNC_DEF may sit on another ring than the FUNC_ENTERs that name it (the thread that registered
 * the area); it is published before the hook that can write them is installed.
 */
/* NUL-terminated function name padded to 8; aux = global function id. No time. */
#define RSYS_REC_FUNC_DEF 9u
/*
 * u64 time; aux = global function id. Opens a region of category host, named by its FUNC_DEF.
 * When the file header's metrics are not 0 the record is longer: one u64 per metric flag of the
 * header follows the time, as in REGION_BEGIN (its size says which form it is).
 */
#define RSYS_REC_FUNC_ENTER 10u
/* u64 time [metric u64s as FUNC_ENTER]; aux = global function id. Closes the innermost open region. */
#define RSYS_REC_FUNC_EXIT 11u
/*
 * u64 enter time, u64 exit time; aux = global function id: a FUNC_ENTER and its FUNC_EXIT in one
 * record, for a call that wrote no other record in between (a leaf call, nearly every call of a
 * traced program). The agent writes the FUNC_ENTER and leaves it unpublished; the exit turns it into
 * this record in place when nothing was written after it, else the FUNC_ENTER is published by the
 * next record like any other and the exit writes a FUNC_EXIT. Never with metrics.
 */
#define RSYS_REC_FUNC_CALL 26u

/*
 * A call-stack sample taken by the agent's timer sampler (agent_timer.c) in its signal handler.
 * aux = timer kind (RSYS_TIMER_*). Layout after the header:
 *    8 u64 time            record clock when the signal was handled
 *   16 u64 thread_cpu_ns   CLOCK_THREAD_CPUTIME_ID of the sampled thread at that moment
 *   24 u16 npcs            instruction pointers that follow (>= 1)
 *   26 u16 nregs           registers that follow: RSYS_SAMPLE_NREGS on x86-64, 0 elsewhere
 *   28 u32 stack_size      bytes of stack copied (0 when the sp was not inside the thread's stack)
 *   32 u64 regs[nregs]     the interrupted registers in DWARF x86-64 order (rax rdx rcx rbx rsi rdi
 *                          rbp rsp r8-r15 rip)
 *      u64 pcs[npcs]       frame-pointer walk, leaf first: pcs[0] is the interrupted ip, then the
 *                          return addresses of the rbp chain (each read inside the thread's stack,
 *                          8-aligned, strictly increasing)
 *      stack[stack_size]   the stack from the interrupted sp upwards (for DWARF CFI unwinding),
 *                          padded to 8
 *      u64 counters[n]     the raw values of the thread's CPU counters (ROCPROFSYS_AGENT_COUNTERS,
 *                          in order; all ones where the thread has not opened them): n is what the
 *                          record's size leaves after the padded stack (0 without counters)
 * These records may exceed RSYS_MAX_RECORD_SIZE, up to RSYS_MAX_SAMPLE_RECORD_SIZE (and never more
 * than a quarter of a ring).
 */
#define RSYS_REC_STACK_SAMPLE 12u
#define RSYS_TIMER_CPUTIME 0u  /* CLOCK_THREAD_CPUTIME_ID timer */
#define RSYS_TIMER_REALTIME 1u /* wall-clock timer */
#define RSYS_SAMPLE_NREGS 17u
#define RSYS_SAMPLE_MAX_PCS 64u
#define RSYS_MAX_SAMPLE_RECORD_SIZE 16384u

#define RSYS_MAX_RECORD_SIZE 4096u /* longer names are cut */

/*
 * GPU records of the CUDA backend (cuda-backend/src/main/c, the CUPTI injection library), written
 * through rocprofsys_gpu_record (below) on the calling thread's ring. Their times are always
 * CLOCK_MONOTONIC ns, whatever the file's clock_kind: CUPTI is given CLOCK_MONOTONIC as its
 * timestamp source, so GPU times and API times share one base without calibration.
 *
 * CUDA_API_NAME: u32 cbid, u32 0, the function name NUL-terminated, padded. aux = CUPTI callback
 *   domain (1 driver API, 2 runtime API). Written on a ring before that ring's first CUDA_API
 *   record of the same (domain, cbid); a reader keeps one table per process image.
 * CUDA_API: u64 begin_ns, u64 end_ns, u32 cbid, u32 correlation_id. aux = callback domain. One
 *   per API call, written when it returns (on the calling thread).
 * CUDA_ACTIVITY: u32 raw_size, u32 nstrings, then the CUPTI activity record's raw bytes
 *   (raw_size, as CUPTI laid them out in its buffer), padded to 8, then nstrings NUL-terminated
 *   strings: the record's string fields in declaration order (docs/wire-protocol.md lists them per
 *   kind), cut to fit RSYS_MAX_RECORD_SIZE. aux = CUpti_ActivityKind.
 * CUDA_NVTX: u64 time_ns, u64 id (range id of RangeStart/RangeEnd, domain handle of DomainCreate,
 *   else 0), u64 domain handle (0 for the default domain), the message NUL-terminated, padded.
 *   aux = CUPTI_CBID_NVTX_* of the call.
 */
#define RSYS_REC_CUDA_API_NAME 13u
#define RSYS_REC_CUDA_API 14u
#define RSYS_REC_CUDA_ACTIVITY 15u
#define RSYS_REC_CUDA_NVTX 16u
/*
 * GPU counters of the CUDA backend (rsys_cuda_counters.c, CUPTI's range profiler; 20-23 are left
 * to the ROCm backend).
 * CUDA_COUNTER_NAMES: u32 metrics, u32 passes per kernel, the chip name, then the metric names,
 *   each NUL-terminated, padded. aux = CUDA device. Written when a context's profiler is set up.
 * CUDA_COUNTERS: u64 launch time ns (CLOCK_MONOTONIC, the launch callback's), u32 correlation id,
 *   u32 range index (per context), u32 metrics, u32 flags (1: no launch matched the range), the
 *   values as f64 in the names record's order, then CUPTI's range name NUL-terminated, padded.
 *   aux = CUDA device. One per kernel, written when the ranges are collected.
 */
#define RSYS_REC_CUDA_COUNTER_NAMES 24u
#define RSYS_REC_CUDA_COUNTERS 25u

/*
 * GPU records of the ROCm backend (rocm-backend/src/main/c, a rocprofiler-sdk tool), written through
 * rocprofsys_gpu_record. API times are CLOCK_MONOTONIC ns; the raw buffer records keep the SDK's
 * clock (rocprofiler_get_timestamp), converted with the offset each ROCM_BUFFER carries.
 * docs/wire-protocol.md ("ROCm records") has the payloads.
 *
 * ROCM_AGENT: u32 raw_size, u32 nstrings (4), the SDK's rocprofiler_agent_v0_t raw (raw_size,
 *   padded to 8), then name, vendor_name, product_name, model_name NUL-terminated. aux 0.
 * ROCM_API: u64 begin, u64 end (CLOCK_MONOTONIC ns), u64 correlation id, u64 HIP stream (0: none), u64 SDK
 *   thread id, i32 operation, u32 nargs, then the function name and the roctx message (empty when
 *   none) NUL-terminated, then nargs (name, value) pairs of NUL-terminated strings, padded.
 *   aux = rocprofiler_callback_tracing_kind_t. Written at the call's exit, on the calling thread.
 * ROCM_BUFFER: u32 raw_size, u32 nstrings (1), i64 SDK clock minus CLOCK_MONOTONIC, u64 HIP stream of the launching call (0: none),
 *   i32 device_a, i32 device_b, i32 node_a, i32 node_b (GPU index / logical node of the record's
 *   agents: the dispatch or scratch agent in a, the copy's destination in a and source in b; -1:
 *   none or a CPU for the device), the SDK's buffer record raw (raw_size, padded to 8), then the
 *   kernel name (empty for copies and scratch). aux = rocprofiler_buffer_tracing_kind_t.
 */
#define RSYS_REC_ROCM_AGENT 17u
#define RSYS_REC_ROCM_API 18u
#define RSYS_REC_ROCM_BUFFER 19u
/* 20-23: taken by the tests' third GPU vendor (run's testvendor package); no library writes them. */

/*
 * Written by the MPI wrapper library (mpi/src/main/c, librocprof-sys-mpi-*.so) through
 * rocprofsys_gpu_record once MPI_COMM_WORLD's rank and size are known (after MPI_Init or
 * MPI_Init_thread, or the first MPI_Comm_rank on MPI_COMM_WORLD), and again if they change.
 * MPI_RANK: u64 time (CLOCK_MONOTONIC ns, whatever the file's clock_kind), i32 rank, i32 size. aux 0.
 */
#define RSYS_REC_MPI_RANK 27u

/*
 * The agent's entry point for GPU backends (agent_gpu.c), found with dlsym(RTLD_DEFAULT, ...) by
 * the injection library. rocprofsys_gpu_record writes one record of `type` with `aux` whose
 * payload is the concatenation of `parts`: a part with RSYS_GPU_PART_STRING is a C string (size
 * ignored) written with its NUL and cut (on a UTF-8 boundary) to what fits; the record is padded
 * to 8. Returns 1 when written, 0 when dropped or when no session records. rocprofsys_gpu_active
 * says whether this process records (the backend stays dormant otherwise).
 * rocprofsys_gpu_set_flush registers the backend's flush, which the agent calls before it writes
 * its exit records (exit, _exit, the destructor), so that buffered GPU records precede them.
 */
#define RSYS_GPU_PART_STRING 1u
struct rocprofsys_gpu_part {
    const void *data;
    uint32_t size;
    uint32_t flags;
};
int rocprofsys_gpu_active(void);
int rocprofsys_gpu_record(uint32_t type, uint32_t aux, const struct rocprofsys_gpu_part *parts,
                          uint32_t nparts);
void rocprofsys_gpu_set_flush(void (*flush)(void));


/*
 * Exported by librocprof-sys.so for the collector: reads a calibration pair now (rdtsc ticks
 * returned, CLOCK_MONOTONIC ns stored at *monotonic_ns), as the agent reads its own. Needs no
 * agent state: loading the library without ROCPROFSYS_SESSION_DIR leaves the agent dormant.
 * Returns 0 where there is no time-stamp counter.
 */
uint64_t rocprofsys_wire_read_clock_pair(uint64_t *monotonic_ns);

/*
 * Environment of the target, set by the collector (internal, not user settings):
 *   ROCPROFSYS_SESSION_DIR      directory for the ring files; without it the agent stays dormant
 *   ROCPROFSYS_AGENT_RING_KB    data bytes per ring / 1024, rounded up to a power of two (default 1024)
 *   ROCPROFSYS_AGENT_MAX_THREADS ring slots per file (default 1024)
 *   ROCPROFSYS_AGENT_LOSSLESS   1: wait when a ring is full (default 0: drop and count)
 *   ROCPROFSYS_AGENT_STALL_MS   not lossless, ring full: wait while the collector frees space at
 *                               least this often, then drop and count (default 0: drop at once)
 *   ROCPROFSYS_AGENT_METRICS    RSYS_METRIC_* bits recorded with regions (default 0)
 *   ROCPROFSYS_AGENT_COUNTERS   the CPU counters of bits 16-23: up to 8 "type:config" perf events
 *                               (decimal), comma-separated, "-" for a slot recorded absent (an
 *                               event the collector refused); each thread opens them as one group
 *                               (user space only) on its first record
 *   ROCPROFSYS_AGENT_CLOCK      "monotonic": never use RSYS_CLOCK_TSC (default: TSC when usable)
 *   ROCPROFSYS_INSTRUMENT_PLAN  runtime instrumentation plan file (docs/instrumentation.md), applied
 *                               by the agent before main and after each dlopen
 *   ROCPROFSYS_AGENT_TIMERS     the timer sampler (agent_timer.c): timers separated by ';', each
 *                               <kind>:<signal>:<period ns>:<delay ns>:<threads>, kind "cputime" or
 *                               "realtime", threads a comma list of thread_seq numbers and ranges
 *                               (a-b), or "*" for all. Unset or empty: no timers.
 *   ROCPROFSYS_AGENT_TIMER_DURATION_NS  > 0: no timer fires later than this after agent init
 *   ROCPROFSYS_AGENT_SAMPLE_STACK  bytes of stack copied per sample (default 8192, 0 = none)
 *   ROCPROFSYS_AGENT_EXIT_WITH_COLLECTOR  1: a collector that dies (its lock, below, dropped without
 *                               "ended") takes the program with it (SIGKILL); default: the program
 *                               runs on, recording nothing more
 */

/*
 * The collector's lock: <session dir>/collector.lock, on which the collector holds an fcntl write
 * lock (whole file) while it runs; it writes "ended" into it before it lets go at the run's end.
 * Unlocked and empty: the collector died; absent: the run ended and removed its directory. Either
 * way the agent records nothing more (agent_liveness.c).
 */
#define RSYS_COLLECTOR_LOCK "collector.lock"

/* Bits of a TRACE_CONTROL record's aux (added with the agent; same meaning as described above) */
#define RSYS_TRACE_ENABLE 1u  /* 1 enable, 0 disable */
#define RSYS_TRACE_PROCESS 2u /* 1 whole process (this thread and later threads), 0 this thread */

/* Layout checks (added with the agent): the offsets above are the contract. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <stddef.h>
_Static_assert(sizeof(struct rsys_file_header) == RSYS_FILE_HEADER_SIZE, "file header size");
_Static_assert(offsetof(struct rsys_file_header, ring_data_size) == 24, "ring_data_size");
_Static_assert(offsetof(struct rsys_file_header, pid) == 32, "pid");
_Static_assert(offsetof(struct rsys_file_header, init_time) == 56, "init_time");
_Static_assert(offsetof(struct rsys_file_header, metrics) == 72, "metrics");
_Static_assert(offsetof(struct rsys_file_header, rings_claimed) == 76, "rings_claimed");
_Static_assert(offsetof(struct rsys_file_header, state) == 80, "state");
_Static_assert(offsetof(struct rsys_file_header, exit_code) == 84, "exit_code");
_Static_assert(offsetof(struct rsys_file_header, exit_time) == 88, "exit_time");
_Static_assert(offsetof(struct rsys_file_header, unringed_drops) == 96, "unringed_drops");
_Static_assert(offsetof(struct rsys_file_header, cmdline_size) == 104, "cmdline_size");
_Static_assert(offsetof(struct rsys_file_header, init_monotonic_ns) == 112, "init_monotonic_ns");
_Static_assert(offsetof(struct rsys_file_header, exit_monotonic_ns) == 120, "exit_monotonic_ns");
_Static_assert(offsetof(struct rsys_file_header, exe) == 128, "exe");
_Static_assert(offsetof(struct rsys_file_header, cmdline) == 640, "cmdline");
_Static_assert(offsetof(struct rsys_file_header, clock_pair_seq) == 3712, "clock_pair_seq");
_Static_assert(offsetof(struct rsys_file_header, latest_time) == 3720, "latest_time");
_Static_assert(offsetof(struct rsys_file_header, latest_monotonic_ns) == 3728, "latest_monotonic_ns");
_Static_assert(offsetof(struct rsys_file_header, agent_path) == 3736, "agent_path");
_Static_assert(sizeof(struct rsys_ring_header) == RSYS_RING_HEADER_SIZE, "ring header size");
_Static_assert(offsetof(struct rsys_ring_header, tail) == 64, "tail");
_Static_assert(offsetof(struct rsys_ring_header, state) == 128, "ring state");
_Static_assert(offsetof(struct rsys_ring_header, tid) == 132, "tid");
_Static_assert(offsetof(struct rsys_ring_header, thread_seq) == 136, "thread_seq");
_Static_assert(offsetof(struct rsys_ring_header, dropped) == 144, "dropped");
_Static_assert(offsetof(struct rsys_ring_header, unpublished_head) == 192, "unpublished_head");
_Static_assert(sizeof(struct rsys_record_header) == 8, "record header");
_Static_assert(RSYS_MAX_RECORD_SIZE % 8 == 0 && RSYS_MAX_RECORD_SIZE <= 65535, "record size fits u16");
_Static_assert(RSYS_MAX_SAMPLE_RECORD_SIZE % 8 == 0 && RSYS_MAX_SAMPLE_RECORD_SIZE <= 65535, "sample size fits u16");
#endif

#endif
