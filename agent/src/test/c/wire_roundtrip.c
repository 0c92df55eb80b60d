/*
 * Wire round trip, C side: drives the agent's REAL writer (the agent objects are linked into this
 * program; see `make test-writer`) to write every record type with known values into a ring file,
 * then prints, as key=value lines on stdout, what the file must contain. The Java side reads the
 * file(s) back and asserts against these lines.
 *
 *   wire_roundtrip <dir> [tsc]   (dir must exist; the ring files are created there)
 *
 * Determinism: a constructor that runs before the agent's sets the session environment and
 * installs the test-only clock, calibration-pair, clock-kind and metric hooks, so every timestamp
 * and metric value is known:
 *   clock read k (k = 1, 2, ...) returns 1000000000 + 1000 * k (per process; a fork child
 *   continues the parent's sequence); metric read n returns thread_cpu = 5000000 + 111 * n,
 *   rss = (1000 + n) * 4096, peak_rss = (2000 + n) * 4096.
 * Without `tsc` the files have clock_kind RSYS_CLOCK_MONOTONIC_NS: the clock reads are the record
 * times, and the agent reads no calibration pair. With `tsc` they have RSYS_CLOCK_TSC: the clock
 * reads are ticks, and the pairs are, per process (T0 = the last clock value at init, M0 =
 * 7e9 + 1e9 * (processes initialised so far)):
 *   init           (T0, M0)                            init_time is no clock read then
 *   latest, j-th   (T0 + 96e6 * j, M0 + 30e6 * j)      5/16 ns per tick
 *   exit           (T0 + 800e6, M0 + 300e6)            3/8 ns per tick; exit_time is no clock read
 * Every `time` printed is then what the collector must make of the ticks, CLOCK_MONOTONIC ns:
 * M0 + floor((t - T0) * dM / dT) with the exit pair for exited processes and the latest pair for
 * the killed one (the file names no agent library, so the collector reads no pair of its own).
 *
 * What it writes (ring = slot index in the file, in claim order; max_rings 4; 16 KiB rings):
 *   ring 0  main thread (seq 0): main region, user regions, all 11 annotation types, categories
 *           python / host, progress marks, the 4 trace controls, a name cut at
 *           RSYS_MAX_RECORD_SIZE (on a UTF-8 boundary), two FUNC_DEFs and a FUNC_ENTER / FUNC_EXIT
 *           pair written by the real instrumentation hooks, two STACK_SAMPLEs (the timer sampler's
 *           writer called directly: realtime with registers, pcs and stack bytes; cputime with
 *           one pc), then one written by the real signal handler (fake SI_TIMER signals sent to
 *           itself: none while busy or ended, then one, read back from the ring), a FORK inside
 *           an open region.
 *   ring 1  thread seq 1: one region, THREAD_END via the thread-exit hook, ring ENDED.
 *   ring 2  thread seq 2: fills the ring; this program then acts as the collector once (stores
 *           tail = head, so the records before `ring.2.tail` are consumed and not listed), fills
 *           on past the end of the lap (one PAD + wrap), fills until a record is dropped, then a
 *           region is dropped whole (BEGIN, nested BEGIN/END, END: 4 more drops).
 *   ring 3  thread seq 3: one region.
 *   ring 1  again: thread seq 4, started once every slot is claimed, takes the slot of the ended
 *           thread seq 1 and writes on after its records (THREAD_START, one region, THREAD_END).
 *   fork    the child (file <child pid>.0.ring, lines prefixed "child.") records its main
 *           region and one user region and exits with status 7.
 *   fork    a second child ("kchild.") opens a region, records a mark and is killed by SIGKILL:
 *           its file stays RUNNING, with no exit records and no exit pair.
 *
 * Output keys (ints in decimal; u64 values unsigned decimal):
 *   [child.]file, [child.]header.<field>, [child.]cmdline.<i>, [child.]ring.<r>.{tid,seq,state,
 *   dropped,tail,records,pads}, [child.]ring.<r>.rec.<i>.<field> for each record the reader sees
 *   after `tail`, in order: type (THREAD_START, ...), size, time, and per type: tid, seq;
 *   category, metrics, thread_cpu, rss, peak_rss, name, name_length; annotation_type, value, string;
 *   child_pid; aux (TRACE_CONTROL); gid (FUNC_*; FUNC_DEF and FUNC_ENTER also name); kind,
 *   thread_cpu, regs, pcs (comma lists), stack (hex) (STACK_SAMPLE). Header fields are those the
 *   file has after this program exits;
 *   [child.]header.init_time_ns and exit_time_ns are init_time and exit_time as the collector must
 *   convert them (exit_time_ns only for exited processes).
 */
#include "rsys_agent.h"
#include "rocprofsys_agent_api.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLOCK_BASE UINT64_C(1000000000)
#define CLOCK_STEP UINT64_C(1000)
#define RING_KB "16"
#define MAX_RINGS 4
#define METRICS 7u

/* calibration pairs of the `tsc` mode (see above) */
#define MONO_BASE UINT64_C(7000000000)
#define MONO_PER_PROCESS UINT64_C(1000000000)
#define LATEST_TICKS UINT64_C(96000000)
#define LATEST_NS UINT64_C(30000000)
#define EXIT_TICKS UINT64_C(800000000)
#define EXIT_NS UINT64_C(300000000)

static uint64_t clock_reads;  /* clock reads so far in this process */
static uint64_t metric_reads; /* metric reads so far */
static int tsc_mode;          /* files with clock_kind RSYS_CLOCK_TSC */
static uint64_t pair_inits;   /* processes initialised (fork children continue the count) */
static uint64_t pair_t0, pair_m0; /* this process's init pair */
static uint64_t pair_latest;  /* latest pairs read by this process */
static uint64_t conv_ticks = 1, conv_ns = 1; /* span of the pair the collector must use */

static uint64_t fake_clock(void)
{
    return CLOCK_BASE + CLOCK_STEP * __atomic_add_fetch(&clock_reads, 1, __ATOMIC_SEQ_CST);
}

static void metric_values(uint64_t n, uint64_t v[3])
{
    v[0] = 5000000u + 111u * n;
    v[1] = (1000u + n) * 4096u;
    v[2] = (2000u + n) * 4096u;
}

static uint64_t fake_pair(uint32_t purpose, uint64_t *monotonic_ns)
{
    switch (purpose) {
    case RSYS_PAIR_INIT:
        pair_inits++;
        pair_latest = 0;
        pair_t0 = CLOCK_BASE + CLOCK_STEP * __atomic_load_n(&clock_reads, __ATOMIC_SEQ_CST);
        pair_m0 = MONO_BASE + MONO_PER_PROCESS * pair_inits;
        *monotonic_ns = pair_m0;
        return pair_t0;
    case RSYS_PAIR_LATEST:
        pair_latest++;
        *monotonic_ns = pair_m0 + LATEST_NS * pair_latest;
        return pair_t0 + LATEST_TICKS * pair_latest;
    default:
        *monotonic_ns = pair_m0 + EXIT_NS;
        return pair_t0 + EXIT_TICKS;
    }
}

/* A record time as the collector must report it: the clock value itself, or converted ticks. */
static uint64_t T(uint64_t t)
{
    if (!tsc_mode) {
        return t;
    }
    return pair_m0 + (uint64_t)((unsigned __int128)(t - pair_t0) * conv_ns / conv_ticks);
}

static void fake_metrics(uint32_t flags, uint64_t v[3])
{
    (void)flags;
    metric_values(__atomic_add_fetch(&metric_reads, 1, __ATOMIC_SEQ_CST), v);
}

/* time of the k-th clock read from now (k = 1 is the next) */
static uint64_t next_time(uint64_t k)
{
    return CLOCK_BASE + CLOCK_STEP * (clock_reads + k);
}

static char *session_dir;

__attribute__((constructor(101))) static void setup(int argc, char **argv, char **envp)
{
    (void)envp;
    if (argc < 2) {
        return;
    }
    session_dir = argv[1];
    tsc_mode = argc > 2 && strcmp(argv[2], "tsc") == 0;
    setenv("ROCPROFSYS_SESSION_DIR", argv[1], 1);
    setenv("ROCPROFSYS_AGENT_RING_KB", RING_KB, 1);
    setenv("ROCPROFSYS_AGENT_MAX_THREADS", "4", 1);
    setenv("ROCPROFSYS_AGENT_METRICS", "7", 1);
    setenv("ROCPROFSYS_AGENT_LOSSLESS", "0", 1);
    /* the timer sampler's handler for signal 34, and a timer on thread 0 that would fire after an
     * hour: the test delivers fake timer signals itself (see handler_samples) */
    setenv("ROCPROFSYS_AGENT_TIMERS", "realtime:34:1000000000:3600000000000:0", 1);
    setenv("ROCPROFSYS_AGENT_SAMPLE_STACK", "256", 1);
    rsys_test_clock = fake_clock;
    rsys_test_clock_pair = fake_pair;
    rsys_test_clock_kind = tsc_mode ? (int)RSYS_CLOCK_TSC : (int)RSYS_CLOCK_MONOTONIC_NS;
    rsys_test_metrics = fake_metrics;
}

/* ---------------------------------------------------------------------------------------------
 * Expected output, kept in memory and printed at the end
 */
static char out[8 << 20];
static size_t out_len;
static const char *prefix = "";

static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_len += (size_t)snprintf(out + out_len, sizeof out - out_len, "%s", prefix);
    out_len += (size_t)vsnprintf(out + out_len, sizeof out - out_len, fmt, ap);
    out_len += (size_t)snprintf(out + out_len, sizeof out - out_len, "\n");
    va_end(ap);
}

static int nrec[MAX_RINGS];

static int rec(int ring, const char *type, uint32_t size)
{
    int i = nrec[ring]++;
    line("ring.%d.rec.%d.type=%s", ring, i, type);
    line("ring.%d.rec.%d.size=%u", ring, i, size);
    return i;
}

static uint32_t align8(size_t n)
{
    return (uint32_t)((n + 7) & ~(size_t)7);
}

static void exp_thread_start(int ring, uint64_t time, int tid, int seq)
{
    int i = rec(ring, "THREAD_START", 24);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.tid=%d", ring, i, tid);
    line("ring.%d.rec.%d.seq=%d", ring, i, seq);
}

static void exp_thread_end(int ring, uint64_t time)
{
    int i = rec(ring, "THREAD_END", 16);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
}

static void exp_metrics(int ring, int i, uint64_t metric_n)
{
    uint64_t v[3];
    metric_values(metric_n, v);
    line("ring.%d.rec.%d.metrics=%u", ring, i, METRICS);
    line("ring.%d.rec.%d.thread_cpu=%" PRIu64, ring, i, v[0]);
    line("ring.%d.rec.%d.rss=%" PRIu64, ring, i, v[1]);
    line("ring.%d.rec.%d.peak_rss=%" PRIu64, ring, i, v[2]);
}

static void exp_begin(int ring, uint64_t time, uint64_t metric_n, int category, const char *name,
                      size_t name_len)
{
    int i = rec(ring, "REGION_BEGIN", align8(16 + 24 + name_len + 1));
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.category=%d", ring, i, category);
    exp_metrics(ring, i, metric_n);
    line("ring.%d.rec.%d.name=%.*s", ring, i, (int)name_len, name);
    line("ring.%d.rec.%d.name_length=%zu", ring, i, name_len);
}

static void exp_end(int ring, uint64_t time, uint64_t metric_n, int category)
{
    int i = rec(ring, "REGION_END", 16 + 24);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.category=%d", ring, i, category);
    exp_metrics(ring, i, metric_n);
}

static void exp_annotation(int ring, int type, uint64_t value, const char *name, const char *str)
{
    size_t size = 16 + strlen(name) + 1 + (str ? strlen(str) + 1 : 0);
    int i = rec(ring, "ANNOTATION", align8(size));
    line("ring.%d.rec.%d.annotation_type=%d", ring, i, type);
    line("ring.%d.rec.%d.value=%" PRIu64, ring, i, value);
    line("ring.%d.rec.%d.name=%s", ring, i, name);
    if (str) {
        line("ring.%d.rec.%d.string=%s", ring, i, str);
    }
}

static void exp_mark(int ring, uint64_t time, int category, const char *name)
{
    int i = rec(ring, "MARK", align8(16 + strlen(name) + 1));
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.category=%d", ring, i, category);
    line("ring.%d.rec.%d.name=%s", ring, i, name);
}

static void exp_fork(int ring, uint64_t time, int child)
{
    int i = rec(ring, "FORK", 24);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.child_pid=%d", ring, i, child);
}

static void exp_trace_control(int ring, uint64_t time, unsigned aux)
{
    int i = rec(ring, "TRACE_CONTROL", 16);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.aux=%u", ring, i, aux);
}

static void exp_func_def(int ring, uint32_t gid, const char *name)
{
    int i = rec(ring, "FUNC_DEF", align8(8 + strlen(name) + 1));
    line("ring.%d.rec.%d.gid=%u", ring, i, gid);
    line("ring.%d.rec.%d.name=%s", ring, i, name);
}

/* FUNC_ENTER / FUNC_EXIT: with the file's metrics, read as a region's are (metric_n-th read) */
static void exp_func(int ring, const char *type, uint64_t time, uint64_t metric_n, uint32_t gid,
                     const char *name)
{
    int i = rec(ring, type, 16 + 24);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    exp_metrics(ring, i, metric_n);
    line("ring.%d.rec.%d.gid=%u", ring, i, gid);
    if (name != NULL) {
        line("ring.%d.rec.%d.name=%s", ring, i, name); /* as the collector names the region */
    }
}

/* u64 values as a comma list */
static void exp_u64s(int ring, int i, const char *key, const uint64_t *v, uint32_t n)
{
    char buf[2048];
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t k = 0; k < n; k++) {
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%" PRIu64, k ? "," : "", v[k]);
    }
    line("ring.%d.rec.%d.%s=%s", ring, i, key, buf);
}

/* A STACK_SAMPLE written with the agent's writer (the signal handler's), and what it must read as. */
static void stack_sample(int ring, uint32_t kind, uint64_t time, uint64_t cpu, const uint64_t *regs,
                         const uint64_t *pcs, uint32_t npcs, const unsigned char *stack,
                         uint32_t stack_size)
{
    if (!rsys_write_stack_sample(&rsys_tls, kind, time, cpu, regs, pcs, npcs, stack, stack_size)) {
        fprintf(stderr, "wire_roundtrip: a stack sample was dropped\n");
        exit(1);
    }
    uint32_t nregs = regs ? RSYS_SAMPLE_NREGS : 0u;
    int i = rec(ring, "STACK_SAMPLE", align8(32 + 8 * nregs + 8 * npcs + stack_size));
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(time));
    line("ring.%d.rec.%d.kind=%u", ring, i, kind);
    line("ring.%d.rec.%d.thread_cpu=%" PRIu64, ring, i, cpu);
    exp_u64s(ring, i, "regs", regs, nregs);
    exp_u64s(ring, i, "pcs", pcs, npcs);
    char hex[2 * 64 + 1];
    for (uint32_t k = 0; k < stack_size; k++) {
        snprintf(hex + 2 * k, 3, "%02x", stack[k]);
    }
    hex[2 * stack_size] = 0;
    line("ring.%d.rec.%d.stack=%s", ring, i, hex);
}

static int gettid_(void);

/* A signal as the agent's timer of `kind` raises it (SI_TIMER, the agent's value), sent to this
 * thread: delivered before the system call returns. */
static void fake_timer_signal(uint32_t kind)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = 34;
    si.si_code = SI_TIMER;
    si.si_value.sival_int = (int)(RSYS_TIMER_MAGIC | kind);
    if (syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid_(), 34, &si) != 0) {
        perror("rt_tgsigqueueinfo");
        exit(1);
    }
}

/*
 * The real handler: no sample while the thread is inside a record write (busy) or past its
 * THREAD_END (nosample); otherwise one STACK_SAMPLE whose registers, frame-pointer walk and stack
 * copy are the interrupted thread's. Its values are read back from the ring for the Java side.
 */
static void handler_samples(int ring)
{
    struct rsys_tls *t = &rsys_tls;
    uint64_t head0 = t->head, c0 = clock_reads;
    t->busy = 1;
    fake_timer_signal(RSYS_TIMER_REALTIME);
    t->busy = 0;
    t->nosample = 1;
    fake_timer_signal(RSYS_TIMER_REALTIME);
    t->nosample = 0;
    if (t->head != head0 || clock_reads != c0) {
        fprintf(stderr, "wire_roundtrip: the handler wrote a sample while busy or ended\n");
        exit(1);
    }
    fake_timer_signal(RSYS_TIMER_REALTIME);
    if (t->head == head0 || clock_reads != c0 + 1) {
        fprintf(stderr, "wire_roundtrip: the handler wrote no sample\n");
        exit(1);
    }
    const unsigned char *p = t->data + (head0 & t->mask);
    if (*(const uint16_t *)p == RSYS_REC_PAD) {
        p = t->data;
    }
    const uint64_t *w = (const uint64_t *)p;
    uint32_t size = (uint32_t)((w[0] >> 16) & 0xffffu);
    uint32_t npcs = (uint32_t)(w[3] & 0xffffu), nregs = (uint32_t)((w[3] >> 16) & 0xffffu);
    uint32_t stack_size = (uint32_t)(w[3] >> 32);
    const uint64_t *regs = w + 4, *pcs = w + 4 + nregs;
    const unsigned char *stack = (const unsigned char *)(pcs + npcs);
    int here = 0; /* a local of this frame: the copied stack must hold its address */
    uintptr_t sp = (uintptr_t)regs[7];
    if (nregs != RSYS_SAMPLE_NREGS || npcs < 2 || pcs[0] != regs[16] || stack_size != 256 ||
        sp > (uintptr_t)&here || (uintptr_t)&here - sp > (uintptr_t)1 << 20 || (w[0] & 0xffffu) != RSYS_REC_STACK_SAMPLE) {
        fprintf(stderr, "wire_roundtrip: odd handler sample (npcs %u nregs %u stack %u)\n", npcs, nregs,
                stack_size);
        exit(1);
    }
    int i = rec(ring, "STACK_SAMPLE", size);
    line("ring.%d.rec.%d.time=%" PRIu64, ring, i, T(CLOCK_BASE + CLOCK_STEP * (c0 + 1)));
    line("ring.%d.rec.%d.kind=%u", ring, i, RSYS_TIMER_REALTIME);
    line("ring.%d.rec.%d.thread_cpu=%" PRIu64, ring, i, w[2]);
    exp_u64s(ring, i, "regs", regs, nregs);
    exp_u64s(ring, i, "pcs", pcs, npcs);
    static char hex[2 * 256 + 1];
    for (uint32_t k = 0; k < stack_size; k++) {
        snprintf(hex + 2 * k, 3, "%02x", stack[k]);
    }
    hex[2 * stack_size] = 0;
    line("ring.%d.rec.%d.stack=%s", ring, i, hex);
}

static void exp_ring(int ring, int tid, int seq, unsigned state, uint64_t dropped, uint64_t tail,
                     int pads)
{
    line("ring.%d.tid=%d", ring, tid);
    line("ring.%d.seq=%d", ring, seq);
    line("ring.%d.state=%u", ring, state);
    line("ring.%d.dropped=%" PRIu64, ring, dropped);
    line("ring.%d.tail=%" PRIu64, ring, tail);
    line("ring.%d.records=%d", ring, nrec[ring]);
    line("ring.%d.pads=%d", ring, pads);
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static int gettid_(void)
{
    return (int)syscall(SYS_gettid);
}

/*
 * The header. `exited`: the process exits normally after printing (state EXITED, exit pair);
 * `refreshes`: the latest pairs it will have read by then (tsc mode).
 */
static void exp_header(int exited, int exit_code, uint64_t exit_time, int forked_from,
                       uint32_t rings_claimed, uint64_t unringed, uint64_t init_time,
                       uint64_t refreshes)
{
    const struct rsys_file_header *h = rsys_g.hdr;
    if (tsc_mode) {
        line("header.init_monotonic_ns=%" PRIu64, pair_m0);
        line("header.exit_monotonic_ns=%" PRIu64, exited ? pair_m0 + EXIT_NS : 0);
        line("header.clock_pair_seq=%" PRIu64, 2 * refreshes);
        line("header.latest_time=%" PRIu64, refreshes ? pair_t0 + LATEST_TICKS * refreshes : 0);
        line("header.latest_monotonic_ns=%" PRIu64, refreshes ? pair_m0 + LATEST_NS * refreshes : 0);
    } else {
        line("header.init_monotonic_ns=%" PRIu64, init_time);
        line("header.exit_monotonic_ns=%" PRIu64, exit_time);
        line("header.clock_pair_seq=0");
        line("header.latest_time=0");
        line("header.latest_monotonic_ns=0");
    }
    line("header.agent_path="); /* linked into this program: no library to name */
    line("header.init_time_ns=%" PRIu64, T(init_time));
    if (exited) {
        line("header.exit_time_ns=%" PRIu64, T(exit_time));
    }
    line("file=%s/%d.%u.ring", session_dir, (int)getpid(), h->exec_generation);
    line("header.magic=%" PRIu64, (uint64_t)RSYS_WIRE_MAGIC);
    line("header.version=%u", RSYS_WIRE_VERSION);
    line("header.header_size=%u", RSYS_FILE_HEADER_SIZE);
    line("header.ring_header_size=%u", RSYS_RING_HEADER_SIZE);
    line("header.max_rings=%d", MAX_RINGS);
    line("header.ring_data_size=%u", 16u * 1024u);
    line("header.pid=%d", (int)getpid());
    line("header.ppid=%d", (int)getppid());
    line("header.forked_from=%d", forked_from);
    line("header.exec_generation=0");
    line("header.clock_kind=%u", tsc_mode ? RSYS_CLOCK_TSC : RSYS_CLOCK_MONOTONIC_NS);
    line("header.flags=0");
    line("header.init_time=%" PRIu64, init_time);
    line("header.metrics=%u", METRICS);
    line("header.rings_claimed=%u", rings_claimed);
    line("header.state=%u", exited ? RSYS_STATE_EXITED : RSYS_STATE_RUNNING);
    line("header.exit_code=%d", exit_code);
    line("header.exit_time=%" PRIu64, exit_time);
    line("header.unringed_drops=%" PRIu64, unringed);
    char exe[RSYS_EXE_CAPACITY];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    line("header.exe=%s", exe);
    line("header.cmdline_size=%u", h->cmdline_size);
    int argi = 0;
    for (uint32_t at = 0; at < h->cmdline_size; argi++) {
        line("cmdline.%d=%s", argi, h->cmdline + at);
        at += (uint32_t)strlen(h->cmdline + at) + 1;
    }
    line("cmdline.count=%d", argi);
}

/* ---------------------------------------------------------------------------------------------
 * Threads
 */
static int tids[5];

static void *worker(void *arg)
{
    (void)arg;
    tids[1] = gettid_();
    rocprofsys_push_region("worker");
    rocprofsys_pop_region("worker");
    return NULL;
}

#define FILL_NAME_LEN 47 /* MARK of 16 + 48 = 64 bytes */
static int fill_consumed_marks = 128;
static int fill_before_pad = 127;
static int fill_after_pad; /* counted while writing */
static uint64_t fill_tail;

static void fill_mark(int k)
{
    char name[FILL_NAME_LEN + 1];
    snprintf(name, sizeof name, "fill-%04d-", k);
    memset(name + strlen(name), 'f', FILL_NAME_LEN - strlen(name));
    name[FILL_NAME_LEN] = 0;
    rocprofsys_progress(name);
}

static void *wrapper_thread(void *arg)
{
    (void)arg;
    tids[2] = gettid_();
    struct rsys_tls *t = &rsys_tls; /* the agent's producer state of this thread */
    int k = 0;
    for (int i = 0; i < fill_consumed_marks; i++) {
        fill_mark(k++);
    }
    /* act as the collector once: everything so far is consumed */
    fill_tail = t->head;
    __atomic_store_n(&t->ring->tail, fill_tail, __ATOMIC_RELEASE);
    for (int i = 0; i < fill_before_pad; i++) {
        fill_mark(k++);
    }
    /* the next one does not fit before the end of the lap: PAD + wrap */
    while (__atomic_load_n(&t->ring->dropped, __ATOMIC_RELAXED) == 0) {
        fill_mark(k++);
        if (__atomic_load_n(&t->ring->dropped, __ATOMIC_RELAXED) == 0) {
            fill_after_pad++;
        }
    }
    /* a whole region is dropped: BEGIN (no room), nested BEGIN and END, END */
    rocprofsys_push_region("dropped-region");
    rocprofsys_push_region("dropped-child");
    rocprofsys_pop_region("dropped-child");
    rocprofsys_pop_region("dropped-region");
    return NULL;
}

/* a thread that records its tid in tids[slot] and pushes and pops one region */
struct one_region {
    int slot;
    const char *name;
};

static void *one_region_thread(void *arg)
{
    const struct one_region *r = arg;
    tids[r->slot] = gettid_();
    rocprofsys_push_region(r->name);
    rocprofsys_pop_region(r->name);
    return NULL;
}

static void run_thread_with(void *(*fn)(void *), void *arg)
{
    pthread_t th;
    if (pthread_create(&th, NULL, fn, arg) != 0) {
        perror("pthread_create");
        exit(1);
    }
    pthread_join(th, NULL);
}

static void run_thread(void *(*fn)(void *))
{
    run_thread_with(fn, NULL);
}

/* clock reads the agent's init makes: init_time (none in tsc mode: it comes from the init pair) */
static uint64_t init_reads(void)
{
    return tsc_mode ? 0 : 1;
}

/* init_time of this process, c = clock reads before its init */
static uint64_t init_time_of(uint64_t c)
{
    return tsc_mode ? pair_t0 : CLOCK_BASE + CLOCK_STEP * (c + 1);
}

/* exit_time: the exit pair (tsc mode), else the k-th clock read from now */
static uint64_t exit_time_in(uint64_t k)
{
    return tsc_mode ? pair_t0 + EXIT_TICKS : next_time(k);
}

/* latest pairs read so far, as the agent must have: `expected` in tsc mode, none otherwise */
static void check_refreshes(uint64_t expected)
{
    if (pair_latest != (tsc_mode ? expected : 0)) {
        fprintf(stderr, "wire_roundtrip: %s%" PRIu64 " latest pairs read, expected %" PRIu64 "\n",
                prefix, pair_latest, tsc_mode ? expected : 0);
        exit(1);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The children of the forks
 */
static __attribute__((noreturn)) void child(uint64_t c_fork, uint64_t m_fork, int parent)
{
    /* the atfork handler has made our file: init_time, THREAD_START, main BEGIN */
    out_len = 0;
    prefix = "child.";
    memset(nrec, 0, sizeof nrec);
    int tid = gettid_();
    uint64_t init_time = init_time_of(c_fork);
    exp_thread_start(0, CLOCK_BASE + CLOCK_STEP * (c_fork + init_reads() + 1), tid, 0);
    exp_begin(0, CLOCK_BASE + CLOCK_STEP * (c_fork + init_reads() + 2), m_fork + 1,
              ROCPROFSYS_CATEGORY_HOST, "wire_roundtrip", strlen("wire_roundtrip"));
    /* "forking" was opened in the parent: its pop is not recorded here */
    rocprofsys_pop_region("forking");
    rocprofsys_push_region("child-work");
    exp_begin(0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER, "child-work", 10);
    rocprofsys_pop_region("child-work");
    exp_end(0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER);
    /* exit(7): main END, THREAD_END, exit_time */
    exp_end(0, next_time(1), metric_reads + 1, ROCPROFSYS_CATEGORY_HOST);
    exp_thread_end(0, next_time(2));
    exp_ring(0, tid, 0, RSYS_RING_ENDED, 0, 0, 0);
    check_refreshes(1); /* THREAD_START; THREAD_END at exit makes 2 */
    exp_header(1, 7, exit_time_in(3), parent, 1, 0, init_time, 2);
    fwrite(out, 1, out_len, stdout);
    fflush(stdout);
    exit(7);
}

/* Killed inside an open region: no exit records; the collector converts with the latest pair. */
static __attribute__((noreturn)) void killed_child(uint64_t c_fork, uint64_t m_fork, int parent)
{
    out_len = 0;
    prefix = "kchild.";
    memset(nrec, 0, sizeof nrec);
    conv_ticks = LATEST_TICKS; /* the pair of its THREAD_START */
    conv_ns = LATEST_NS;
    int tid = gettid_();
    uint64_t init_time = init_time_of(c_fork);
    exp_thread_start(0, CLOCK_BASE + CLOCK_STEP * (c_fork + init_reads() + 1), tid, 0);
    exp_begin(0, CLOCK_BASE + CLOCK_STEP * (c_fork + init_reads() + 2), m_fork + 1,
              ROCPROFSYS_CATEGORY_HOST, "wire_roundtrip", strlen("wire_roundtrip"));
    rocprofsys_push_region("doomed");
    exp_begin(0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER, "doomed", 6);
    rocprofsys_progress("last-words");
    exp_mark(0, next_time(0), ROCPROFSYS_CATEGORY_CAUSAL, "last-words");
    exp_ring(0, tid, 0, RSYS_RING_ACTIVE, 0, 0, 0);
    check_refreshes(1);
    exp_header(0, -1, 0, parent, 1, 0, init_time, 1);
    fwrite(out, 1, out_len, stdout);
    fflush(stdout);
    raise(SIGKILL);
    abort();
}

/* ---------------------------------------------------------------------------------------------
 */
int main(int argc, char **argv)
{
    if (argc < 2 || rsys_g.hdr == NULL) {
        fprintf(stderr, "usage: %s <existing directory>  (the agent could not start otherwise)\n",
                argv[0]);
        return 2;
    }
    const int R0 = 0;
    int main_tid = gettid_();
    tids[0] = main_tid;

    /* what the constructor wrote: init_time = read 1 (tsc mode: the init pair), THREAD_START =
     * the next read, main BEGIN the one after */
    conv_ticks = EXIT_TICKS; /* this process and the first child exit: the exit pair */
    conv_ns = EXIT_NS;
    uint64_t init_time = init_time_of(0);
    exp_thread_start(R0, CLOCK_BASE + CLOCK_STEP * (init_reads() + 1), main_tid, 0);
    exp_begin(R0, CLOCK_BASE + CLOCK_STEP * (init_reads() + 2), 1, ROCPROFSYS_CATEGORY_HOST,
              "wire_roundtrip", 14);

    /* user region */
    rocprofsys_push_region("alpha");
    exp_begin(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER, "alpha", 5);

    /* every annotation type; the last two are skipped (NULL value, unknown type) */
    size_t size_v = 123456789012u;
    int64_t i64 = -1234567890123;
    uint64_t u64 = UINT64_MAX;
    double f64 = 3.141592653589793;
    int32_t i32 = -42;
    uint32_t u32 = 4000000000u;
    float f32 = 1.5f;
    int16_t i16 = -7;
    uint16_t u16 = 65535;
    rocprofsys_annotation_t ann[] = {
        {"str", ROCPROFSYS_VALUE_CSTR, (void *)"hello, wire = ok"},
        {"size", ROCPROFSYS_VALUE_SIZE_T, &size_v},
        {"i64", ROCPROFSYS_VALUE_INT64, &i64},
        {"u64", ROCPROFSYS_VALUE_UINT64, &u64},
        {"f64", ROCPROFSYS_VALUE_FLOAT64, &f64},
        {"ptr", ROCPROFSYS_VALUE_VOID_P, (void *)(uintptr_t)0xdeadbeefu},
        {"i32", ROCPROFSYS_VALUE_INT32, &i32},
        {"u32", ROCPROFSYS_VALUE_UINT32, &u32},
        {"f32", ROCPROFSYS_VALUE_FLOAT32, &f32},
        {"i16", ROCPROFSYS_VALUE_INT16, &i16},
        {"u16", ROCPROFSYS_VALUE_UINT16, &u16},
        {"null-value", ROCPROFSYS_VALUE_INT64, NULL},
        {"bad-type", 99, &i64},
    };
    rocprofsys_push_category_region(ROCPROFSYS_CATEGORY_USER, "annotated", ann,
                                    sizeof ann / sizeof ann[0]);
    exp_begin(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER, "annotated", 9);
    exp_annotation(R0, 1, 16, "str", "hello, wire = ok");
    exp_annotation(R0, 2, 123456789012u, "size", NULL);
    exp_annotation(R0, 3, (uint64_t)i64, "i64", NULL);
    exp_annotation(R0, 4, UINT64_MAX, "u64", NULL);
    exp_annotation(R0, 5, bits(f64), "f64", NULL);
    exp_annotation(R0, 6, 0xdeadbeefu, "ptr", NULL);
    exp_annotation(R0, 7, (uint64_t)(int64_t)-42, "i32", NULL);
    exp_annotation(R0, 8, 4000000000u, "u32", NULL);
    exp_annotation(R0, 9, bits(1.5), "f32", NULL);
    exp_annotation(R0, 10, (uint64_t)(int64_t)-7, "i16", NULL);
    exp_annotation(R0, 11, 65535u, "u16", NULL);

    double result = 2.5;
    rocprofsys_annotation_t end_ann[] = {{"result", ROCPROFSYS_VALUE_FLOAT64, &result}};
    rocprofsys_pop_category_region(ROCPROFSYS_CATEGORY_USER, "annotated", end_ann, 1);
    exp_end(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER);
    exp_annotation(R0, 5, bits(2.5), "result", NULL);

    rocprofsys_pop_region("alpha");
    exp_end(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER);

    /* other categories */
    rocprofsys_push_category_region(ROCPROFSYS_CATEGORY_PYTHON, "py-fn", NULL, 0);
    exp_begin(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_PYTHON, "py-fn", 5);
    rocprofsys_pop_category_region(ROCPROFSYS_CATEGORY_PYTHON, "py-fn", NULL, 0);
    exp_end(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_PYTHON);
    rocprofsys_push_trace("host-fn");
    exp_begin(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_HOST, "host-fn", 7);
    rocprofsys_pop_trace("host-fn");
    exp_end(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_HOST);

    /* progress points (annotated_progress carries no annotations on the wire) */
    rocprofsys_progress("progress-point");
    exp_mark(R0, next_time(0), ROCPROFSYS_CATEGORY_CAUSAL, "progress-point");
    rocprofsys_annotated_progress("annotated-progress", end_ann, 1);
    exp_mark(R0, next_time(0), ROCPROFSYS_CATEGORY_CAUSAL, "annotated-progress");

    /* trace control */
    rocprofsys_start_trace();
    exp_trace_control(R0, next_time(0), RSYS_TRACE_ENABLE | RSYS_TRACE_PROCESS);
    rocprofsys_stop_trace();
    exp_trace_control(R0, next_time(0), RSYS_TRACE_PROCESS);
    rocprofsys_start_thread_trace();
    exp_trace_control(R0, next_time(0), RSYS_TRACE_ENABLE);
    rocprofsys_stop_thread_trace();
    exp_trace_control(R0, next_time(0), 0);

    /* a name longer than a record can hold; a 2-byte UTF-8 character straddles the cut */
    static char long_name[5001];
    const size_t cut = RSYS_MAX_RECORD_SIZE - 1 - (16 + 24); /* 4055 bytes fit */
    memset(long_name, 'L', sizeof long_name - 1);
    long_name[cut - 1] = (char)0xC3; /* U+00E9 at bytes cut-1 .. cut */
    long_name[cut] = (char)0xA9;
    rocprofsys_push_region(long_name);
    exp_begin(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER, long_name, cut - 1);
    rocprofsys_pop_region(long_name);
    exp_end(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER);

    /* binary instrumentation: a FUNC_DEF, then the real hooks on a fake return-address slot
     * (entry hooks it, the exit trampoline's C half unhooks it); each reads the metrics once */
    rsys_instr_test_def(7, "instrumented_fn");
    exp_func_def(R0, 7, "instrumented_fn");
    rsys_instr_test_def(8, "other_fn");
    exp_func_def(R0, 8, "other_fn");
    {
        uint64_t slot = 0x123456789aull;
        uint64_t m_before = metric_reads;
        rsys_instr_enter(2, 5, &slot, 0x4242u); /* local id 2 of the area whose base (ctx) is 5 */
        exp_func(R0, "FUNC_ENTER", next_time(0), metric_reads, 7, "instrumented_fn");
        if (slot != 0x4242u) {
            fprintf(stderr, "wire_roundtrip: the entry hook did not put the landing into the slot\n");
            return 1;
        }
        uint64_t real = rsys_instr_exit((uint64_t)(uintptr_t)&slot + 8u);
        exp_func(R0, "FUNC_EXIT", next_time(0), metric_reads, 7, NULL);
        if (real != 0x123456789aull || metric_reads != m_before + 2) {
            fprintf(stderr, "wire_roundtrip: the exit hook returned %#llx\n", (unsigned long long)real);
            return 1;
        }
    }

    /* stack samples of both timer kinds: registers, pcs and a stack copy (not a multiple of 8),
     * and a bare one (one pc, no registers, no stack) */
    {
        uint64_t regs[RSYS_SAMPLE_NREGS];
        for (uint32_t k = 0; k < RSYS_SAMPLE_NREGS; k++) {
            regs[k] = UINT64_C(0x7ffd00001000) + 8 * k;
        }
        regs[RSYS_SAMPLE_NREGS - 1] = UINT64_MAX - 1; /* rip: the full u64 range survives */
        uint64_t pcs[3] = {UINT64_MAX - 1, 0x401234u, 0x401000u};
        unsigned char stack[21];
        for (unsigned k = 0; k < sizeof stack; k++) {
            stack[k] = (unsigned char)(0xA0u + 7u * k);
        }
        uint64_t now = CLOCK_BASE + CLOCK_STEP * clock_reads; /* the latest record's time */
        stack_sample(R0, RSYS_TIMER_REALTIME, now, UINT64_C(123456789), regs, pcs, 3, stack,
                     sizeof stack);
        uint64_t one = 0x402000u;
        stack_sample(R0, RSYS_TIMER_CPUTIME, now, UINT64_C(987654321), NULL, &one, 1, NULL, 0);
        handler_samples(R0);
    }

    /* ring 1: a thread with one region */
    uint64_t c0 = clock_reads, m0 = metric_reads;
    run_thread(worker);
    exp_thread_start(1, CLOCK_BASE + CLOCK_STEP * (c0 + 1), tids[1], 1);
    exp_begin(1, CLOCK_BASE + CLOCK_STEP * (c0 + 2), m0 + 1, ROCPROFSYS_CATEGORY_USER, "worker", 6);
    exp_end(1, CLOCK_BASE + CLOCK_STEP * (c0 + 3), m0 + 2, ROCPROFSYS_CATEGORY_USER);
    exp_thread_end(1, CLOCK_BASE + CLOCK_STEP * (c0 + 4)); /* ring 1's header: after seq 4 took it */

    /* fork inside an open region */
    rocprofsys_push_region("forking");
    exp_begin(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER, "forking", 7);
    fflush(stdout);
    uint64_t c_fork = clock_reads, m_fork = metric_reads;
    int parent = (int)getpid();
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        child(c_fork, m_fork, parent);
    }
    exp_fork(R0, CLOCK_BASE + CLOCK_STEP * (c_fork + 1), (int)pid);
    int status = 0;
    waitpid(pid, &status, 0);
    rocprofsys_pop_region("forking");
    exp_end(R0, next_time(0), metric_reads, ROCPROFSYS_CATEGORY_USER);

    /* ring 2: fill, consume once, wrap with a PAD, drop */
    c0 = clock_reads;
    m0 = metric_reads;
    run_thread(wrapper_thread);
    {
        uint64_t c = c0 + 1; /* THREAD_START */
        c += (uint64_t)fill_consumed_marks;
        int k = fill_consumed_marks;
        for (int i = 0; i < fill_before_pad + fill_after_pad; i++) {
            char name[FILL_NAME_LEN + 1];
            snprintf(name, sizeof name, "fill-%04d-", k++);
            memset(name + strlen(name), 'f', FILL_NAME_LEN - strlen(name));
            name[FILL_NAME_LEN] = 0;
            exp_mark(2, CLOCK_BASE + CLOCK_STEP * ++c, ROCPROFSYS_CATEGORY_CAUSAL, name);
        }
        c++; /* the dropped MARK read the clock */
        c++; /* so did the dropped BEGIN (and it read the metrics) */
        exp_thread_end(2, CLOCK_BASE + CLOCK_STEP * ++c);
        exp_ring(2, tids[2], 2, RSYS_RING_ENDED, 5, fill_tail, 1);
        line("ring.2.consumed_records=%d", 1 + fill_consumed_marks);
        line("ring.2.marks_after_pad=%d", fill_after_pad);
        line("ring.2.head=%" PRIu64,
             __atomic_load_n(&((struct rsys_ring_header *)((unsigned char *)rsys_g.hdr +
                                                           RSYS_FILE_HEADER_SIZE +
                                                           2 * (RSYS_RING_HEADER_SIZE + 16384)))
                                  ->head,
                             __ATOMIC_ACQUIRE));
        if (clock_reads != c || metric_reads != m0 + 1) {
            fprintf(stderr, "wire_roundtrip: clock/metric accounting is off (%" PRIu64
                            " vs %" PRIu64 ")\n", clock_reads, c);
            return 1;
        }
    }

    /* ring 3, then a thread that takes ring 1 (every slot claimed; ring 1's thread ended first) */
    c0 = clock_reads;
    m0 = metric_reads;
    struct one_region ring3 = {3, "ring3"}, taker = {4, "taker"};
    run_thread_with(one_region_thread, &ring3);
    exp_thread_start(3, CLOCK_BASE + CLOCK_STEP * (c0 + 1), tids[3], 3);
    exp_begin(3, CLOCK_BASE + CLOCK_STEP * (c0 + 2), m0 + 1, ROCPROFSYS_CATEGORY_USER, "ring3", 5);
    exp_end(3, CLOCK_BASE + CLOCK_STEP * (c0 + 3), m0 + 2, ROCPROFSYS_CATEGORY_USER);
    exp_thread_end(3, CLOCK_BASE + CLOCK_STEP * (c0 + 4));
    exp_ring(3, tids[3], 3, RSYS_RING_ENDED, 0, 0, 0);
    c0 = clock_reads;
    m0 = metric_reads;
    run_thread_with(one_region_thread, &taker);
    exp_thread_start(1, CLOCK_BASE + CLOCK_STEP * (c0 + 1), tids[4], 4);
    exp_begin(1, CLOCK_BASE + CLOCK_STEP * (c0 + 2), m0 + 1, ROCPROFSYS_CATEGORY_USER, "taker", 5);
    exp_end(1, CLOCK_BASE + CLOCK_STEP * (c0 + 3), m0 + 2, ROCPROFSYS_CATEGORY_USER);
    exp_thread_end(1, CLOCK_BASE + CLOCK_STEP * (c0 + 4));
    exp_ring(1, tids[4], 4, RSYS_RING_ENDED, 0, 0, 0);

    /* a child killed with a region open */
    fflush(stdout);
    uint64_t c_kill = clock_reads, m_kill = metric_reads;
    pid_t kpid = fork();
    if (kpid < 0) {
        perror("fork");
        return 1;
    }
    if (kpid == 0) {
        killed_child(c_kill, m_kill, parent);
    }
    exp_fork(R0, CLOCK_BASE + CLOCK_STEP * (c_kill + 1), (int)kpid);
    int kstatus = 0;
    waitpid(kpid, &kstatus, 0);

    /* main returns 0: main END, THREAD_END, exit_time */
    exp_end(R0, next_time(1), metric_reads + 1, ROCPROFSYS_CATEGORY_HOST);
    exp_thread_end(R0, next_time(2));
    exp_ring(R0, main_tid, 0, RSYS_RING_ENDED, 0, 0, 0);
    /* latest pairs: THREAD_STARTs of rings 0-3 and of seq 4, THREAD_ENDs of rings 1-3 and of seq 4,
     * the PAD of ring 2 */
    check_refreshes(10);
    exp_header(1, 0, exit_time_in(3), 0, 4, 0, init_time, 11); /* + main's THREAD_END at exit */
    line("child.pid=%d", (int)pid);
    line("child.wait_status=%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    line("kchild.pid=%d", (int)kpid);
    line("kchild.signal=%d", WIFSIGNALED(kstatus) ? WTERMSIG(kstatus) : -1);
    line("threads.taken_over_seq=4");
    fwrite(out, 1, out_len, stdout);
    fflush(stdout);
    return 0;
}
