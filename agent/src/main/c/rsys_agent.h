/*
 * Internal header of the in-process agent (librocprof-sys.so). Not installed.
 *
 * The agent only records: every API call becomes one or a few records appended to the calling
 * thread's ring (rocprofsys_wire.h). This header, the agent's only internal one, holds the
 * process-wide state, the thread-local producer state, the prototype of every function one agent
 * file calls in another, and the inline record path (claim, publish, count a drop) every writer
 * uses.
 *
 * Ring space accounting (drop mode). A thread keeps, besides what it writes now, room for the END
 * record of every region it has open, plus its THREAD_END and the main region's END: a record other
 * than a region END is written only if, afterwards, at least (open regions + 2) * reserve_unit
 * bytes stay free. So a full ring drops whole regions (a dropped BEGIN makes the agent drop
 * everything the thread records until the matching END, that END included), and the reader always
 * sees well-nested regions. In lossless mode reserve_unit is 0 and the producer waits instead.
 *
 * Full ring in drop mode: before dropping, the producer waits for the collector as long as the
 * collector keeps freeing space (ROCPROFSYS_AGENT_STALL_MS, the session's default 10 s: the
 * tail must move at least that often). So a program that outruns a live collector is slowed to its
 * pace and loses nothing; only a stalled or dead collector makes it drop, once per stall.
 */
#ifndef ROCPROFSYS_AGENT_INTERNAL_H
#define ROCPROFSYS_AGENT_INTERNAL_H

#include "rocprofsys_wire.h"
#include "rsys_instr_area.h"

#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "rocprofiler-systems/categories.h"

#define RSYS_EXPORT __attribute__((visibility("default")))
#define RSYS_HIDDEN __attribute__((visibility("hidden")))
#define RSYS_LIKELY(x) __builtin_expect(!!(x), 1)
#define RSYS_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RSYS_ALWAYS_INLINE inline __attribute__((always_inline))

/* The time-stamp counter can be the record clock (RSYS_CLOCK_TSC) */
#if defined(__x86_64__)
#define RSYS_HAVE_TSC 1
#else
#define RSYS_HAVE_TSC 0
#endif

/* Limits the agent applies to the ROCPROFSYS_AGENT_* settings (additions to the contract). */
#define RSYS_DEFAULT_RING_KB 1024u
#define RSYS_MIN_RING_DATA_SIZE 16384u       /* 4 * RSYS_MAX_RECORD_SIZE */
#define RSYS_MAX_RING_DATA_SIZE (1ull << 30)  /* 1 GiB per ring */
#define RSYS_DEFAULT_MAX_RINGS 1024u
#define RSYS_MAX_MAX_RINGS 65536u

/* Thread states (rsys_tls.state) */
#define RSYS_TS_NONE 0u   /* no ring yet: the next record acquires one */
#define RSYS_TS_ACTIVE 1u /* ring attached */
#define RSYS_TS_NORING 2u /* no free ring slot: records are counted in unringed_drops */
#define RSYS_TS_ENDED 3u  /* THREAD_END written: the thread records nothing more */

/* Producer state of one thread. data == NULL sends every record to the slow path. */
struct rsys_tls {
    unsigned char *data;           /* ring data area, NULL when no ring is attached */
    struct rsys_ring_header *ring; /* its header */
    uint64_t mask;                 /* ring data size - 1 */
    uint64_t head;                 /* producer's copy of ring->head */
    uint64_t limit;                /* cached tail + ring size: writing up to here is safe */
    uint64_t unpublished;          /* head just after the FUNC_ENTER the enter hook left unpublished
                                      (agent_instr.c); it is the latest record while head equals
                                      it (UINT64_MAX: none) */
    uint64_t unit;                 /* reserve per open region (0 when lossless) */
    uint32_t metrics;              /* RSYS_METRIC_* written with regions */
    uint32_t nmetrics;             /* popcount(metrics) */
    uint32_t depth;                /* regions open and recorded (the main region not counted),
                                      instrumented functions (FUNC_ENTER) included */
    uint32_t fdepth;               /* of which instrumented functions (agent_instr.c) */
    uint32_t skip;                 /* > 0: inside a dropped region, nesting level */
    uint32_t phantom;              /* regions opened in the parent before fork (not in this file) */
    uint64_t stalled_tail;         /* tail + 1 when this thread last gave up waiting (0: never):
                                      while the tail stays there, a full ring drops at once */
    int32_t seq;                   /* thread_seq, valid when has_seq */
    uint8_t has_seq;
    uint8_t state;                 /* RSYS_TS_* */
    uint8_t is_main;               /* this thread opened the main region */
    uint8_t main_open;             /* the main region is open */
    /*
     * 1 from rsys_reserve to rsys_publish (and while a record is dropped): the timer sampler's
     * signal handler, finding it set, drops its sample instead of writing into a half-claimed ring.
     */
    volatile uint8_t busy;
    volatile uint8_t nosample;     /* 1: THREAD_END written or being written: no more samples */
    int32_t counter_pid;           /* the process that opened counter_fd (a fork child opens its own) */
    int32_t counter_fd[RSYS_MAX_COUNTERS]; /* the thread's CPU counters, [0] the group leader; -1: none */
};

extern __thread struct rsys_tls rsys_tls __attribute__((tls_model("initial-exec"))) RSYS_HIDDEN;

/* Process-wide state */
struct rsys_global {
    int active;                       /* a ring file is mapped and threads may attach */
    int enabled;                      /* ROCPROFSYS_SESSION_DIR was set (survives finalisation) */
    int lossless;
    uint64_t stall_ns;                /* drop mode: wait for room while the collector frees space,
                                         drop once it has freed none for this long (0: never wait) */
    uint32_t metrics;
    uint32_t thread_calls;            /* RSYS_THREAD_CALL_*: pthread calls recorded as regions */
    uint32_t max_rings;
    uint64_t ring_data_size;
    struct rsys_file_header *hdr;     /* the mapping */
    size_t map_size;
    int pid;
    int statm_fd;                     /* /proc/self/statm, for RSYS_METRIC_RSS and _VIRTUAL */
    uint32_t ncounters;               /* slots of ROCPROFSYS_AGENT_COUNTERS (agent_counters.c) */
#define RSYS_COUNTER_NONE 0xffffffffu /* counter_type of a slot recorded absent ("-") */
    uint32_t counter_type[RSYS_MAX_COUNTERS];
    uint64_t counter_config[RSYS_MAX_COUNTERS];
    uint8_t counter_kernel[RSYS_MAX_COUNTERS]; /* counted in the kernel too (":k") */
    long page_size;
    uint32_t next_seq;                /* atomic: thread_seq of the next thread */
    uint32_t reuse_cursor;            /* atomic hint: where the next search for a reusable slot begins */
    int finalized;                    /* atomic: exit records written */
    int exit_code_known;
    int exit_code;
    uint32_t clock_kind;              /* RSYS_CLOCK_* of every file this process writes */
    char session_dir[4096];
    char ring_path[4096 + 64];        /* this process's ring file: touched to wake the collector */
    char main_name[256];              /* executable basename: the main region's name */
    int main_rewritten;               /* the executable is binary-rewritten (its RocProfSys note) */
    char agent_path[RSYS_AGENT_PATH_CAPACITY]; /* copied into each file header */
};

extern struct rsys_global rsys_g RSYS_HIDDEN;

/*
 * Wakes a collector that sleeps between idle polls: touching the ring file is an inotify event on
 * the session directory it waits on. For the slow paths only (a full ring, exit).
 */
void rsys_ring_doorbell(void) RSYS_HIDDEN;

/* What a calibration pair is read for (the test hook is told) */
#define RSYS_PAIR_INIT 0u
#define RSYS_PAIR_LATEST 1u
#define RSYS_PAIR_EXIT 2u

/*
 * Test-only hooks: set by agent/src/test/c/wire_roundtrip.c (before the agent's constructor),
 * never by the shipped library. rsys_test_clock replaces the record clock, rsys_test_clock_pair
 * the calibration pairs, rsys_test_clock_kind (>= 0) the clock kind the agent would pick.
 */
extern uint64_t (*rsys_test_clock)(void) RSYS_HIDDEN;
extern uint64_t (*rsys_test_clock_pair)(uint32_t purpose, uint64_t *monotonic_ns) RSYS_HIDDEN;
extern int rsys_test_clock_kind RSYS_HIDDEN;
/* values[slot]: slot = the bit for bits 0-9, 10 + i for counter i */
extern void (*rsys_test_metrics)(uint32_t flags, uint64_t values[RSYS_MAX_METRICS]) RSYS_HIDDEN;

/* 1 when the record clock is rdtsc read inline: clock_kind RSYS_CLOCK_TSC and no test clock */
extern int rsys_clock_rdtsc RSYS_HIDDEN;

/* Reads fd until cap bytes, end of file or an error (EINTR retried); returns the bytes read. */
size_t rsys_read_full(int fd, void *buf, size_t cap) RSYS_HIDDEN;

static inline uint64_t rsys_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The record clock: the only place that decides what a timestamp is. One predictable branch on
 * the hot path: rdtsc when the agent chose RSYS_CLOCK_TSC at init, else CLOCK_MONOTONIC ns (or the
 * test clock).
 */
static inline uint64_t rsys_now(void)
{
#if RSYS_HAVE_TSC
    if (RSYS_LIKELY(rsys_clock_rdtsc)) {
        return __builtin_ia32_rdtsc();
    }
#endif
    if (RSYS_UNLIKELY(rsys_test_clock != NULL)) {
        return rsys_test_clock();
    }
    return rsys_monotonic_ns();
}

/* ---------------------------------------------------------------------------------------------
 * Every function one agent file calls in another, by the file that defines it.
 */

/* agent_core.c: record clock pairs, the record writers, the ring's slow path */

/*
 * rsys_read_clock_pair returns the record clock of kind RSYS_CLOCK_TSC and stores CLOCK_MONOTONIC
 * ns, read back to back (best of `tries`). rsys_refresh_clock_pair stores a new latest pair in the
 * header (RSYS_CLOCK_TSC files only).
 */
RSYS_HIDDEN uint64_t rsys_read_clock_pair(uint32_t purpose, uint64_t *monotonic_ns, int tries);
RSYS_HIDDEN void rsys_refresh_clock_pair(void);
/* what rsys_reserve does when the ring has no room: wrap with a PAD, wait (lossless, may_wait) */
RSYS_HIDDEN unsigned char *rsys_reserve_slow(struct rsys_tls *t, uint32_t size, uint64_t reserve,
                                             int may_wait);
RSYS_HIDDEN uint32_t rsys_read_metrics(uint32_t flags, uint64_t *out);
/* agent_counters.c: ROCPROFSYS_AGENT_COUNTERS; the calling thread's group (opened on first use);
 * reads its values into v[0..ncounters) (all ones when the thread has none) */
RSYS_HIDDEN void rsys_counters_init(void);
RSYS_HIDDEN void rsys_counters_attach(struct rsys_tls *t);
RSYS_HIDDEN void rsys_counters_read(struct rsys_tls *t, uint64_t *v);
RSYS_HIDDEN void rsys_counters_close(struct rsys_tls *t);
RSYS_HIDDEN size_t rsys_cut_utf8(const char *s, size_t len, size_t max);
RSYS_HIDDEN int rsys_region_begin(uint32_t category, const char *name, int is_main);
RSYS_HIDDEN int rsys_region_end(uint32_t category, int is_main);
/* An END that carries no component readings (the main region of a binary-rewritten executable) */
RSYS_HIDDEN int rsys_region_end_without_readings(uint32_t category, int is_main);
RSYS_HIDDEN void rsys_annotations(const rocprofsys_annotation_t *a, size_t n);
RSYS_HIDDEN void rsys_mark(uint32_t category, const char *name);
/* THREAD_START, FORK, TRACE_CONTROL: time, then two i32 when with_ints */
RSYS_HIDDEN void rsys_simple(uint16_t type, uint32_t aux, int32_t a, int32_t b, int with_ints);

/* agent_gpu.c: the GPU backend's last flush (from rsys_finalize) */
RSYS_HIDDEN void rsys_gpu_finalize(void);

/*
 * agent_threads.c: a thread's life. rsys_attach gives the calling thread a ring (THREAD_START,
 * its timers) on its first record; rsys_thread_enter is the first thing a thread created through
 * the pthread_create wrapper runs (its thread_seq was taken at creation); rsys_write_thread_end
 * ends the ring (also from the thread-exit key's destructor that rsys_threads_init creates).
 */
RSYS_HIDDEN int rsys_attach(struct rsys_tls *t);
RSYS_HIDDEN void rsys_thread_enter(int32_t seq);
RSYS_HIDDEN void rsys_write_thread_end(struct rsys_tls *t);
RSYS_HIDDEN void rsys_threads_init(void);

/* agent_init.c: lifecycle. rsys_is_ours: enabled, and this is the process that made the file
 * (not a vfork child sharing its memory). rsys_set_exit_code: what the exit records will say. */
RSYS_HIDDEN void rsys_finalize(void);
RSYS_HIDDEN int rsys_is_ours(void);
RSYS_HIDDEN void rsys_set_exit_code(int status);

/* agent_liveness.c: whether the collector still runs (its lock), and the orphaned process's path.
 * rsys_collector_check: asked by a thread that would wait for room; 1 once the collector is gone
 * (nothing more is recorded). */
RSYS_HIDDEN int rsys_collector_check(void);
RSYS_HIDDEN int rsys_collector_orphaned(void);
RSYS_HIDDEN void rsys_orphan(void);
RSYS_HIDDEN void rsys_liveness_init(void);
RSYS_HIDDEN void rsys_liveness_atfork_child(void);

/* agent_wrap.c: every interposed libc / libgcc / libstdc++ symbol. rsys_wrap_init resolves the
 * real definitions (constructor); rsys_real_sigaction is libc's, for the agent's own handlers. */
RSYS_HIDDEN void rsys_wrap_init(void);
RSYS_HIDDEN int rsys_real_sigaction(int sig, const struct sigaction *act, struct sigaction *oact);
/* libc's pthread_create: a thread of the agent's own, which records nothing */
RSYS_HIDDEN int rsys_real_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                         void *(*start)(void *), void *arg);

/*
 * agent_timer.c: the timer sampler. rsys_timers_init reads ROCPROFSYS_AGENT_TIMERS* and installs
 * the handlers (once per process image); rsys_timers_thread_start arms the calling thread's timers
 * (called when it attaches a ring); rsys_timers_thread_stop deletes them; rsys_timers_stop_all
 * deletes every thread's (exit, exec); rsys_timers_atfork_child forgets the parent's timers.
 * rsys_timers_app_sigaction is the application's sigaction of a sampler signal: it records `act`
 * as the disposition to chain to and reports the previous one (returns 0), or returns -1 when `sig`
 * is no sampler signal. rsys_write_stack_sample writes one STACK_SAMPLE record (the handler's
 * writer; also used by the round-trip test): `regs` has RSYS_SAMPLE_NREGS values or is NULL.
 */
#define RSYS_TIMER_MAGIC 0x52530000 /* "RS" << 16 | kind: the sigev_value of the agent's timers */
RSYS_HIDDEN void rsys_timers_init(void);
/* Whether any sampler timer is configured, and how many of the calling thread's own timer signals
 * it has taken: a blocking call that a timer signal alone cut short is resumed (agent_wrap.c). */
RSYS_HIDDEN int rsys_timers_any(void);
RSYS_HIDDEN uint32_t rsys_timers_own_signals(void);
RSYS_HIDDEN void rsys_timers_thread_start(struct rsys_tls *t);
RSYS_HIDDEN void rsys_timers_main_begins(void);
RSYS_HIDDEN void rsys_timers_dump_maps(void);
RSYS_HIDDEN void rsys_timers_thread_stop(void);
RSYS_HIDDEN void rsys_timers_stop_all(void);
RSYS_HIDDEN void rsys_timers_atfork_child(void);
RSYS_HIDDEN void rsys_timers_before_exec(void);
RSYS_HIDDEN void rsys_timers_after_failed_exec(void);
RSYS_HIDDEN int rsys_timers_app_sigaction(int sig, const struct sigaction *act,
                                          struct sigaction *oact);
RSYS_HIDDEN int rsys_write_stack_sample(struct rsys_tls *t, uint32_t kind, uint64_t time,
                                        uint64_t thread_cpu_ns, const uint64_t *regs,
                                        const uint64_t *pcs, uint32_t npcs, const void *stack,
                                        uint32_t stack_size);

/*
 * agent_instr.c: binary instrumentation. init: in the constructor, once the main thread records
 * (loads ROCPROFSYS_INSTRUMENT_PLAN, registers the areas of loaded modules). Fork child: begin
 * before its file is made (returns the recorded entries of the forking thread's shadow stack,
 * which are the parent's), end after (FUNC_DEFs again). finalize: reports lost calls. discover:
 * registers the areas of modules loaded since (after dlopen). unhook_all / after_unwind: around
 * an unwinder's walk (the exception wrappers). enter / exit: the hooks (the area stubs, the exit
 * trampoline). reserve_guarded: rsys_reserve's slow path from a hook.
 */
RSYS_HIDDEN void rsys_instr_init(void);
RSYS_HIDDEN uint32_t rsys_instr_fork_child_begin(void);
RSYS_HIDDEN void rsys_instr_fork_child_end(void);
RSYS_HIDDEN void rsys_instr_finalize(void);
RSYS_HIDDEN void rsys_instr_discover(int at_init);
RSYS_HIDDEN void rsys_instr_unhook_all(void);
RSYS_HIDDEN void rsys_instr_after_unwind(uint64_t sp, int rehook);
RSYS_HIDDEN void rsys_instr_enter(uint32_t fid, uint64_t ctx, uint64_t *ret_slot, uint64_t landing);
RSYS_HIDDEN uint64_t rsys_instr_exit(uint64_t sp);
RSYS_HIDDEN unsigned char *rsys_instr_reserve_guarded(struct rsys_tls *t, uint32_t size,
                                                      uint64_t reserve);
RSYS_HIDDEN void rsys_instr_test_def(uint32_t gid, const char *name); /* wire round trip only */

/* agent_instr_tramp.S: where a hooked function returns to; fn(arg) with the extended state saved
 * (the hooks' calls out of -mgeneral-regs-only code); the xsave area size and mask it uses. */
extern char rsys_instr_exit_tramp[] RSYS_HIDDEN;
extern char rsys_instr_exit_tramp_landed[] RSYS_HIDDEN;
RSYS_HIDDEN uint64_t rsys_instr_guarded(uint64_t (*fn)(void *), void *arg);
extern uint32_t rsys_instr_xsave_size RSYS_HIDDEN;
extern uint32_t rsys_instr_xsave_mask RSYS_HIDDEN;

/*
 * agent_plan.c: instrumentation areas and the runtime plan (docs/instrumentation.md).
 * rsys_plan_load reads ROCPROFSYS_INSTRUMENT_PLAN; rsys_plan_apply_next applies, in memory, the
 * next planned area for the module `info` (index: its place in dl_iterate_phdr's order, 0 the
 * executable) from *cursor on and returns it relocated and patched in, or NULL when no more.
 * rsys_area_check: why an area's tables do not fit in it, or NULL. rsys_segment_of: the PT_LOAD of
 * `info` holding [addr, addr + len), or NULL. rsys_refuse_module: the one message of a module left
 * uninstrumented.
 */
RSYS_HIDDEN void rsys_plan_load(void);
RSYS_HIDDEN struct rsys_instr_area_header *rsys_plan_apply_next(struct dl_phdr_info *info,
                                                                int index, uint32_t *cursor);
RSYS_HIDDEN const char *rsys_area_check(const struct rsys_instr_area_header *h,
                                        uint64_t size_limit);
RSYS_HIDDEN const ElfW(Phdr) *rsys_segment_of(const struct dl_phdr_info *info, uint64_t addr,
                                              uint64_t len);
RSYS_HIDDEN void rsys_refuse_module(const char *module, const char *why);

/* agent_dlpath.c: the path glibc would load the bare name `file` from through the RPATH / RUNPATH
 * of the object holding `caller` (1, in out[PATH_MAX]), or 0. */
RSYS_HIDDEN int rsys_dlopen_search(const void *caller, const char *file, char *out);

/* ---------------------------------------------------------------------------------------------
 * The record path, inline: every record of every file is claimed by rsys_reserve and made visible
 * by rsys_publish; every record lost is counted by rsys_count_drops.
 */

/* Bytes kept free, after the record being written, for the ENDs of `open` regions + 2. */
static RSYS_ALWAYS_INLINE uint64_t rsys_reserve_for(const struct rsys_tls *t, uint32_t open)
{
    return (uint64_t)(open + 2u) * t->unit;
}

/* Where rsys_reserve goes when the ring has no room for the record right away. */
#define RSYS_SLOW_WAIT 0    /* rsys_reserve_slow, waiting for room in lossless mode */
#define RSYS_SLOW_NOWAIT 1  /* never waits: the sample handler (the collector may need it) */
#define RSYS_SLOW_GUARDED 2 /* through rsys_instr_guarded: a hook, with vector registers live */
#define RSYS_SLOW_NONE 3    /* none: NULL when the ring has no room at once (the hooks' fast paths) */

/*
 * Claims `size` bytes for a record, keeping `reserve` bytes free afterwards. Returns where to
 * write, or NULL when the record is dropped. The caller writes the record and calls rsys_publish.
 * `slow` (RSYS_SLOW_*, a constant at every call site) picks the slow path.
 */
static RSYS_ALWAYS_INLINE unsigned char *rsys_reserve(struct rsys_tls *t, uint32_t size,
                                                      uint64_t reserve, int slow)
{
    /* busy before the producer state is read: a sample signal now drops its sample (agent_timer.c) */
    t->busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint64_t head = t->head;
    uint64_t off = head & t->mask;
    if (RSYS_LIKELY(off + size <= t->mask + 1 && head + size + reserve <= t->limit)) {
        t->head = head + size;
        return t->data + off;
    }
    unsigned char *p = slow == RSYS_SLOW_NONE      ? NULL
                       : slow == RSYS_SLOW_GUARDED ? rsys_instr_reserve_guarded(t, size, reserve)
                                                   : rsys_reserve_slow(t, size, reserve, slow == RSYS_SLOW_WAIT);
    if (RSYS_UNLIKELY(p == NULL)) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t->busy = 0;
    }
    return p;
}

/* The one store-release that makes everything written so far visible to the collector. */
static RSYS_ALWAYS_INLINE void rsys_publish(struct rsys_tls *t)
{
    __atomic_store_n(&t->ring->head, t->head, __ATOMIC_RELEASE);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->busy = 0;
}

/*
 * `n` records lost: the ring's `dropped` when the thread has its ring, else the file's
 * `unringed_drops` (threads that found no free ring share it). Single producer per ring: a relaxed
 * load and store suffice, with the thread marked busy so that a sample signal in between does not
 * count a drop of its own that this store would undo.
 */
static RSYS_ALWAYS_INLINE void rsys_count_drops(struct rsys_tls *t, uint32_t n)
{
    if (RSYS_UNLIKELY(t->state != RSYS_TS_ACTIVE)) {
        struct rsys_file_header *h = rsys_g.hdr;
        if (h != NULL && __atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE)) {
            __atomic_fetch_add(&h->unringed_drops, n, __ATOMIC_RELAXED);
        }
        return;
    }
    uint8_t was = t->busy;
    t->busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint64_t d = __atomic_load_n(&t->ring->dropped, __ATOMIC_RELAXED);
    __atomic_store_n(&t->ring->dropped, d + n, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->busy = was;
}

static inline uint64_t rsys_record_word(uint32_t type, uint32_t size, uint32_t aux)
{
    return (uint64_t)type | ((uint64_t)size << 16) | ((uint64_t)aux << 32);
}

#endif
