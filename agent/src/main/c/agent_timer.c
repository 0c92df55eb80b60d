/*
 * The timer sampler (inventory §5): per-thread POSIX timers whose signal handler records the
 * interrupted call stack into the thread's own ring (RSYS_REC_STACK_SAMPLE). It samples what perf
 * cannot: wall-clock time of sleeping threads (realtime timers), and it is the CPU-time sampler
 * where perf_event_open is refused (the collector then configures cputime timers instead).
 *
 * Configuration (set by the collector, rocprofsys_wire.h): ROCPROFSYS_AGENT_TIMERS lists the
 * timers as <kind>:<signal>:<period ns>:<delay ns>:<threads>; ROCPROFSYS_AGENT_TIMER_DURATION_NS ends
 * sampling; ROCPROFSYS_AGENT_SAMPLE_STACK is the stack copy per sample.
 *
 * Per selected thread (thread_seq in the kind's list), when it attaches its ring (the main thread:
 * when main() is called, so that start-up code is not sampled; a fork child: at once): timer_create
 * with SIGEV_THREAD_ID aimed at the thread itself; cputime: CLOCK_THREAD_CPUTIME_ID (the thread's
 * own CPU time), realtime: CLOCK_MONOTONIC (wall time, immune to clock steps; upstream uses
 * CLOCK_REALTIME for the same purpose). The first expiry comes after the delay on the timer's own
 * clock (as upstream: CPU time for cputime timers), then every period.
 *
 * The handler (SA_SIGINFO | SA_RESTART, both sampler signals blocked while it runs) is
 * async-signal-safe: no locks, no allocation; it reads the interrupted registers from the
 * ucontext, walks the frame-pointer chain (bounded, every read inside the thread's stack as
 * pthread_getattr_np gave it at thread start, 8-aligned and strictly increasing), copies up to
 * ROCPROFSYS_AGENT_SAMPLE_STACK bytes of stack from sp (so that the collector's DWARF unwinder can
 * walk code without frame pointers), and writes one record. When the signal interrupted the same
 * thread inside a record write (rsys_tls.busy), the sample is dropped: rings have one producer.
 *
 * Other signals. The handler recognises its own timer signals by si_code == SI_TIMER and the
 * value it gave the timer; any other delivery of the signal goes to the application's disposition
 * (a handler is called; SIG_DFL is restored and the signal raised again; SIG_IGN ignores it): the
 * one in place when the agent installed its handler, or the one the application set later. The
 * agent wraps sigaction and signal (agent_wrap.c): for a sampler signal they record the
 * application's new disposition and report its previous one, while the agent's handler stays
 * installed, so application handlers for SIGPROF (gprof's ITIMER_PROF, profilers) keep working
 * beside the timers. (The application's sa_mask and SA_RESETHAND / SA_NODEFER are not applied to the
 * forwarded calls.)
 *
 * Ends. A thread's timers are deleted before its THREAD_END; every timer is deleted at exit and
 * before exec (and pending timer signals discarded, so that the new image, where the signal's
 * disposition is the default again, is not killed by one). A fork child has no timers: it arms
 * its own for its thread 0. After a failed exec only the calling thread samples again.
 */
#include "rsys_agent.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <time.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define RSYS_TIMER_KINDS 2
#define RSYS_TIMER_MAX_RANGES 64
#define RSYS_TIMER_SLOTS 8192
#define RSYS_DEFAULT_SAMPLE_STACK 8192u

struct rsys_timer_spec {
    int on;
    int signo;
    uint64_t period_ns;
    uint64_t delay_ns;
    int all_threads;
    int nranges;
    int32_t lo[RSYS_TIMER_MAX_RANGES];
    int32_t hi[RSYS_TIMER_MAX_RANGES];
};

static struct {
    int any;                                   /* at least one kind is on */
    struct rsys_timer_spec spec[RSYS_TIMER_KINDS];
    uint64_t duration_ns;                      /* 0: no end */
    uint64_t stop_ns[RSYS_TIMER_KINDS];        /* CLOCK_MONOTONIC end per kind (0: none) */
    uint32_t stack_bytes;                      /* stack copy per sample */
    int installed_sig[RSYS_TIMER_KINDS];       /* signals whose handler is installed (0: none) */
    struct sigaction prev[RSYS_TIMER_KINDS];   /* their dispositions before */
} rsys_tg;

/* Every armed timer of the process, so that exit and exec can delete them all. */
#define RSYS_SLOT_FREE 0
#define RSYS_SLOT_CLAIMED 1
#define RSYS_SLOT_ARMED 2
#define RSYS_SLOT_DELETING 3
static struct {
    timer_t id;
    int state;
} rsys_slots[RSYS_TIMER_SLOTS];

/* Per thread; not cleared in a fork child (the forking thread keeps its stack). */
static __thread struct {
    uintptr_t stack_lo, stack_hi; /* from pthread_getattr_np at thread start, 0 when unknown */
    int slot[RSYS_TIMER_KINDS];   /* index in rsys_slots + 1, 0 when none */
    uint32_t own_signals;         /* deliveries of the thread's own timer signals (rsys_timers_own_signals) */
} rsys_tt __attribute__((tls_model("initial-exec")));

/* ---------------------------------------------------------------------------------------------
 * Settings
 */
static int rsys_parse_u64(const char **p, uint64_t *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9') {
        return 0;
    }
    uint64_t v = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    *out = v;
    *p = s;
    return 1;
}

/* <kind>:<signal>:<period ns>:<delay ns>:<threads>; returns 0 when malformed */
static int rsys_parse_timer(const char *s, const char *end)
{
    int kind;
    if (strncmp(s, "cputime:", 8) == 0) {
        kind = RSYS_TIMER_CPUTIME;
        s += 8;
    } else if (strncmp(s, "realtime:", 9) == 0) {
        kind = RSYS_TIMER_REALTIME;
        s += 9;
    } else {
        return 0;
    }
    struct rsys_timer_spec sp;
    memset(&sp, 0, sizeof sp);
    uint64_t signo, period, delay;
    if (!rsys_parse_u64(&s, &signo) || *s++ != ':' || !rsys_parse_u64(&s, &period) || *s++ != ':' ||
        !rsys_parse_u64(&s, &delay) || *s++ != ':') {
        return 0;
    }
    if (signo < 1 || signo >= (uint64_t)NSIG || signo == SIGKILL || signo == SIGSTOP || period < 1000) {
        return 0;
    }
    sp.signo = (int)signo;
    sp.period_ns = period; /* at least 1 µs */
    sp.delay_ns = delay;
    if (s < end && *s == '*') {
        sp.all_threads = 1;
    } else {
        while (s < end) {
            uint64_t lo, hi;
            if (!rsys_parse_u64(&s, &lo)) {
                return 0;
            }
            hi = lo;
            if (s < end && *s == '-') {
                s++;
                if (!rsys_parse_u64(&s, &hi)) {
                    return 0;
                }
            }
            if (sp.nranges < RSYS_TIMER_MAX_RANGES) {
                sp.lo[sp.nranges] = (int32_t)lo;
                sp.hi[sp.nranges] = (int32_t)hi;
                sp.nranges++;
            }
            if (s < end && *s == ',') {
                s++;
            } else if (s < end) {
                return 0;
            }
        }
    }
    sp.on = 1;
    rsys_tg.spec[kind] = sp;
    return 1;
}

/* Whether the sampler's signals go to threads at all (a wrapped sleep then restarts after them). */
int rsys_timers_any(void)
{
    return rsys_tg.any;
}

uint32_t rsys_timers_own_signals(void)
{
    return __atomic_load_n(&rsys_tt.own_signals, __ATOMIC_RELAXED);
}

static int rsys_selects(const struct rsys_timer_spec *sp, int32_t seq)
{
    if (sp->all_threads) {
        return 1;
    }
    for (int i = 0; i < sp->nranges; i++) {
        if (seq >= sp->lo[i] && seq <= sp->hi[i]) {
            return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The signal handler
 */
static void rsys_chain(int sig, siginfo_t *si, void *uc)
{
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        if (rsys_tg.installed_sig[k] != sig) {
            continue;
        }
        const struct sigaction *prev = &rsys_tg.prev[k];
        if (prev->sa_flags & SA_SIGINFO) {
            if (prev->sa_sigaction != NULL) {
                prev->sa_sigaction(sig, si, uc);
            }
        } else if (prev->sa_handler == SIG_DFL) {
            struct sigaction dfl;
            memset(&dfl, 0, sizeof dfl);
            dfl.sa_handler = SIG_DFL;
            rsys_real_sigaction(sig, &dfl, NULL);
            raise(sig); /* delivered when this handler returns (the signal is blocked now) */
        } else if (prev->sa_handler != SIG_IGN && prev->sa_handler != NULL) {
            prev->sa_handler(sig);
        }
        return;
    }
}

/* Frame-pointer walk from bp, every read inside [sp, hi); pcs[0] is already the ip. */
static uint32_t rsys_fp_walk(uint64_t *pcs, uint64_t bp, uintptr_t sp, uintptr_t hi)
{
    uint32_t n = 1;
    uintptr_t low = sp;
    while (n < RSYS_SAMPLE_MAX_PCS && bp >= low && (bp & 7u) == 0 && bp + 16 <= hi) {
        const uint64_t *frame = (const uint64_t *)(uintptr_t)bp;
        uint64_t next = frame[0];
        uint64_t ret = frame[1];
        if (ret == 0) {
            break;
        }
        pcs[n++] = ret;
        if (next <= bp) {
            break;
        }
        low = (uintptr_t)bp + 16;
        bp = next;
    }
    return n;
}

static void rsys_disarm_self(uint32_t kind)
{
    int slot = rsys_tt.slot[kind];
    if (slot > 0) {
        struct itimerspec off;
        memset(&off, 0, sizeof off);
        timer_settime(rsys_slots[slot - 1].id, 0, &off, NULL); /* async-signal-safe */
    }
}

static void rsys_timer_handler(int sig, siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    if (si == NULL || si->si_code != SI_TIMER ||
        (si->si_value.sival_int & (int)0xffff0000) != RSYS_TIMER_MAGIC) {
        rsys_chain(sig, si, ucv);
        errno = saved_errno;
        return;
    }
    uint32_t kind = (uint32_t)si->si_value.sival_int & 0xffu;
    rsys_tt.own_signals++; /* whatever happens below, this interrupted the thread's blocking call */
    struct rsys_tls *t = &rsys_tls;
    if (kind >= RSYS_TIMER_KINDS || t->data == NULL || t->state != RSYS_TS_ACTIVE || t->busy ||
        t->nosample || !__atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE)) {
        errno = saved_errno;
        return;
    }
    uint64_t stop = rsys_tg.stop_ns[kind];
    if (stop != 0 && rsys_monotonic_ns() > stop) {
        rsys_disarm_self(kind);
        errno = saved_errno;
        return;
    }
    uint64_t time = rsys_now();
    struct timespec cpu;
    uint64_t cpu_ns = 0;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0) {
        cpu_ns = (uint64_t)cpu.tv_sec * 1000000000ull + (uint64_t)cpu.tv_nsec;
    }
    uint64_t pcs[RSYS_SAMPLE_MAX_PCS];
    uint32_t npcs = 1;
    const uint64_t *regs = NULL;
    const void *stack = NULL;
    uint32_t stack_size = 0;
#if defined(__x86_64__)
    const ucontext_t *uc = (const ucontext_t *)ucv;
    const greg_t *g = uc->uc_mcontext.gregs;
    uint64_t r[RSYS_SAMPLE_NREGS] = {
        (uint64_t)g[REG_RAX], (uint64_t)g[REG_RDX], (uint64_t)g[REG_RCX], (uint64_t)g[REG_RBX],
        (uint64_t)g[REG_RSI], (uint64_t)g[REG_RDI], (uint64_t)g[REG_RBP], (uint64_t)g[REG_RSP],
        (uint64_t)g[REG_R8],  (uint64_t)g[REG_R9],  (uint64_t)g[REG_R10], (uint64_t)g[REG_R11],
        (uint64_t)g[REG_R12], (uint64_t)g[REG_R13], (uint64_t)g[REG_R14], (uint64_t)g[REG_R15],
        (uint64_t)g[REG_RIP]};
    regs = r;
    pcs[0] = r[16];
    uintptr_t sp = (uintptr_t)r[7];
    uintptr_t lo = rsys_tt.stack_lo, hi = rsys_tt.stack_hi;
    if (hi != 0 && sp >= lo && sp < hi) {
        npcs = rsys_fp_walk(pcs, r[6], sp, hi);
        uintptr_t avail = hi - sp;
        stack_size = avail < rsys_tg.stack_bytes ? (uint32_t)avail : rsys_tg.stack_bytes;
        stack = (const void *)sp;
    }
#else
    (void)ucv;
    pcs[0] = 0;
#endif
    rsys_write_stack_sample(t, kind, time, cpu_ns, regs, pcs, npcs, stack, stack_size);
    errno = saved_errno;
}

int rsys_write_stack_sample(struct rsys_tls *t, uint32_t kind, uint64_t time, uint64_t thread_cpu_ns,
                            const uint64_t *regs, const uint64_t *pcs, uint32_t npcs,
                            const void *stack, uint32_t stack_size)
{
    if (t->data == NULL) {
        return 0;
    }
    uint32_t nregs = regs != NULL ? RSYS_SAMPLE_NREGS : 0u;
    if (npcs > RSYS_SAMPLE_MAX_PCS) {
        npcs = RSYS_SAMPLE_MAX_PCS;
    }
    uint32_t fixed = 32u + 8u * nregs + 8u * npcs;
    /* the thread's CPU counters, when it has opened them (a region did): opening them here could
     * interrupt a region's own first opening */
    uint32_t nc = rsys_g.ncounters;
    uint64_t cv[RSYS_MAX_COUNTERS];
    if (nc != 0) {
        if (t->counter_pid == rsys_g.pid) {
            rsys_counters_read(t, cv);
        } else {
            memset(cv, 0xff, sizeof cv);
        }
    }
    uint32_t tail = 8u * nc;
    /* at most a quarter of the ring, and what the u16 size allows */
    uint64_t cap = (t->mask + 1) / 4;
    if (cap > RSYS_MAX_SAMPLE_RECORD_SIZE) {
        cap = RSYS_MAX_SAMPLE_RECORD_SIZE;
    }
    if (fixed + tail + (uint64_t)stack_size > cap) {
        stack_size = fixed + tail >= cap ? 0u : (uint32_t)((cap - fixed - tail) & ~(uint64_t)7);
    }
    uint32_t size = ((fixed + stack_size + 7u) & ~7u) + tail;
    unsigned char *p = rsys_reserve(t, size, rsys_reserve_for(t, t->depth), RSYS_SLOW_NOWAIT);
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return 0;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_STACK_SAMPLE, size, kind);
    w[1] = time;
    w[2] = thread_cpu_ns;
    w[3] = (uint64_t)npcs | ((uint64_t)nregs << 16) | ((uint64_t)stack_size << 32);
    w[(size - tail) / 8 - 1] = 0; /* padding after the stack bytes */
    uint64_t *q = w + 4;
    for (uint32_t i = 0; i < nregs; i++) {
        *q++ = regs[i];
    }
    for (uint32_t i = 0; i < npcs; i++) {
        *q++ = pcs[i];
    }
    if (stack_size != 0) {
        memcpy(q, stack, stack_size);
    }
    if (nc != 0) {
        memcpy(p + size - tail, cv, tail);
    }
    rsys_publish(t);
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * The application's sigaction / signal of a sampler signal (agent_wrap.c): it sees and sets its
 * own disposition, the one the handler chains to, while the agent's handler stays installed.
 */
int rsys_timers_app_sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
    int k = -1;
    for (int i = 0; i < RSYS_TIMER_KINDS && k < 0; i++) {
        if (rsys_tg.installed_sig[i] != 0 && rsys_tg.installed_sig[i] == sig) {
            k = i;
        }
    }
    if (k < 0) {
        return -1;
    }
    struct sigaction old = rsys_tg.prev[k];
    if (act != NULL) {
        for (int i = 0; i < RSYS_TIMER_KINDS; i++) {
            if (rsys_tg.installed_sig[i] == sig) {
                rsys_tg.prev[i] = *act;
            }
        }
    }
    if (oact != NULL) {
        *oact = old;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The mappings, for the collector: <session dir>/<pid>.<generation>.maps, a copy of
 * /proc/self/maps written at init (fork child included) and at exit, so that samples of a process
 * that is gone before the collector reads its /proc entry still symbolize. Written to a temporary
 * name and renamed; no allocation.
 */
void rsys_timers_dump_maps(void)
{
    struct rsys_file_header *h = rsys_g.hdr;
    if (!rsys_tg.any || h == NULL) {
        return;
    }
    char path[4096 + 64], tmp[4096 + 72];
    int n = snprintf(path, sizeof path, "%s/%d.%u.maps", rsys_g.session_dir, (int)h->pid,
                     h->exec_generation);
    if (n <= 0 || (size_t)n >= sizeof path ||
        snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        return;
    }
    int in = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        return;
    }
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) {
        close(in);
        return;
    }
    char buf[4096];
    int ok = 1;
    for (;;) {
        ssize_t got = read(in, buf, sizeof buf);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            ok = got == 0;
            break;
        }
        for (ssize_t done = 0; done < got;) {
            ssize_t w = write(out, buf + done, (size_t)(got - done));
            if (w < 0 && errno == EINTR) {
                continue;
            }
            if (w <= 0) {
                ok = 0;
                break;
            }
            done += w;
        }
        if (!ok) {
            break;
        }
    }
    close(in);
    close(out);
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Timers
 */
static void rsys_install(int kind)
{
    int sig = rsys_tg.spec[kind].signo;
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        if (k != kind && rsys_tg.installed_sig[k] == sig) {
            /* both kinds on one signal: one handler, one disposition to chain to */
            rsys_tg.prev[kind] = rsys_tg.prev[k];
            rsys_tg.installed_sig[kind] = sig;
            return;
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = rsys_timer_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        if (rsys_tg.spec[k].on) {
            sigaddset(&sa.sa_mask, rsys_tg.spec[k].signo);
        }
    }
    if (rsys_real_sigaction(sig, &sa, &rsys_tg.prev[kind]) == 0) {
        rsys_tg.installed_sig[kind] = sig;
    }
}

static void rsys_set_stops(void)
{
    uint64_t now = rsys_monotonic_ns();
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        rsys_tg.stop_ns[k] =
            rsys_tg.duration_ns != 0 ? now + rsys_tg.spec[k].delay_ns + rsys_tg.duration_ns : 0;
    }
}

void rsys_timers_init(void)
{
    memset(&rsys_tg, 0, sizeof rsys_tg);
    const char *v = getenv("ROCPROFSYS_AGENT_TIMERS");
    if (v == NULL || *v == 0) {
        return;
    }
    for (const char *s = v; *s;) {
        const char *end = strchr(s, ';');
        if (end == NULL) {
            end = s + strlen(s);
        }
        if (end > s && !rsys_parse_timer(s, end)) {
            dprintf(2, "rocprof-sys: agent: ignoring the malformed timer '%.*s'\n", (int)(end - s), s);
        }
        s = *end ? end + 1 : end;
    }
    const char *d = getenv("ROCPROFSYS_AGENT_TIMER_DURATION_NS");
    if (d != NULL && *d) {
        rsys_tg.duration_ns = strtoull(d, NULL, 10);
    }
    const char *st = getenv("ROCPROFSYS_AGENT_SAMPLE_STACK");
    rsys_tg.stack_bytes = st != NULL && *st ? (uint32_t)strtoul(st, NULL, 10) : RSYS_DEFAULT_SAMPLE_STACK;
    if (rsys_tg.stack_bytes > RSYS_MAX_SAMPLE_RECORD_SIZE) {
        rsys_tg.stack_bytes = RSYS_MAX_SAMPLE_RECORD_SIZE;
    }
    rsys_tg.stack_bytes &= ~7u;
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        if (rsys_tg.spec[k].on) {
            rsys_tg.any = 1;
            rsys_install(k);
        }
    }
    rsys_set_stops();
}

static void rsys_stack_bounds(void)
{
    pthread_attr_t a;
    rsys_tt.stack_lo = rsys_tt.stack_hi = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0) {
        return;
    }
    void *addr = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&a, &addr, &size) == 0 && addr != NULL) {
        rsys_tt.stack_lo = (uintptr_t)addr;
        rsys_tt.stack_hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&a);
}

static int rsys_claim_slot(void)
{
    for (int i = 0; i < RSYS_TIMER_SLOTS; i++) {
        int expected = RSYS_SLOT_FREE;
        if (__atomic_load_n(&rsys_slots[i].state, __ATOMIC_RELAXED) == RSYS_SLOT_FREE &&
            __atomic_compare_exchange_n(&rsys_slots[i].state, &expected, RSYS_SLOT_CLAIMED, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            return i;
        }
    }
    return -1;
}

static void rsys_delete_slot(int i)
{
    int expected = RSYS_SLOT_ARMED;
    if (__atomic_compare_exchange_n(&rsys_slots[i].state, &expected, RSYS_SLOT_DELETING, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        timer_delete(rsys_slots[i].id);
        __atomic_store_n(&rsys_slots[i].state, RSYS_SLOT_FREE, __ATOMIC_RELEASE);
    }
}

/* The main thread's timers start with main() (rsys_timers_main_begins), not in the constructor. */
static int rsys_main_begun;

void rsys_timers_main_begins(void)
{
    rsys_main_begun = 1;
    struct rsys_tls *t = &rsys_tls;
    if (t->is_main && t->state == RSYS_TS_ACTIVE) {
        rsys_timers_thread_start(t);
    }
}

void rsys_timers_thread_start(struct rsys_tls *t)
{
    if (!rsys_tg.any || !t->has_seq || (t->is_main && !rsys_main_begun)) {
        return;
    }
    int wanted = 0;
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        wanted |= rsys_tg.spec[k].on && rsys_selects(&rsys_tg.spec[k], t->seq) &&
                  rsys_tt.slot[k] == 0 && rsys_tg.installed_sig[k] != 0;
    }
    if (!wanted) {
        return;
    }
    rsys_stack_bounds();
    uint64_t now = rsys_monotonic_ns();
    pid_t tid = (pid_t)syscall(SYS_gettid);
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        const struct rsys_timer_spec *sp = &rsys_tg.spec[k];
        if (!sp->on || !rsys_selects(sp, t->seq) || rsys_tt.slot[k] != 0 ||
            rsys_tg.installed_sig[k] == 0 || (rsys_tg.stop_ns[k] != 0 && now > rsys_tg.stop_ns[k])) {
            continue;
        }
        int slot = rsys_claim_slot();
        if (slot < 0) {
            continue;
        }
        struct sigevent sev;
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_THREAD_ID;
        sev.sigev_notify_thread_id = tid;
        sev.sigev_signo = sp->signo;
        sev.sigev_value.sival_int = RSYS_TIMER_MAGIC | k;
        clockid_t clock = k == RSYS_TIMER_CPUTIME ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
        if (timer_create(clock, &sev, &rsys_slots[slot].id) != 0) {
            __atomic_store_n(&rsys_slots[slot].state, RSYS_SLOT_FREE, __ATOMIC_RELEASE);
            continue;
        }
        struct itimerspec its;
        uint64_t first = sp->delay_ns != 0 ? sp->delay_ns : sp->period_ns; /* 0 would disarm */
        its.it_interval.tv_sec = (time_t)(sp->period_ns / 1000000000ull);
        its.it_interval.tv_nsec = (long)(sp->period_ns % 1000000000ull);
        its.it_value.tv_sec = (time_t)(first / 1000000000ull);
        its.it_value.tv_nsec = (long)(first % 1000000000ull);
        rsys_tt.slot[k] = slot + 1;
        __atomic_store_n(&rsys_slots[slot].state, RSYS_SLOT_ARMED, __ATOMIC_RELEASE);
        if (timer_settime(rsys_slots[slot].id, 0, &its, NULL) != 0) {
            rsys_delete_slot(slot);
            rsys_tt.slot[k] = 0;
        }
    }
}

void rsys_timers_thread_stop(void)
{
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        int slot = rsys_tt.slot[k];
        if (slot > 0) {
            rsys_tt.slot[k] = 0;
            rsys_delete_slot(slot - 1);
        }
    }
}

void rsys_timers_stop_all(void)
{
    if (!rsys_tg.any) {
        return;
    }
    for (int i = 0; i < RSYS_TIMER_SLOTS; i++) {
        if (__atomic_load_n(&rsys_slots[i].state, __ATOMIC_RELAXED) == RSYS_SLOT_ARMED) {
            rsys_delete_slot(i);
        }
    }
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        rsys_tt.slot[k] = 0;
    }
}

/* Before exec: no timer left, no timer signal pending, the application's dispositions back. */
void rsys_timers_before_exec(void)
{
    if (!rsys_tg.any) {
        return;
    }
    rsys_timers_stop_all();
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        int sig = rsys_tg.installed_sig[k];
        if (sig != 0) {
            rsys_real_sigaction(sig, &ign, NULL); /* discards a pending timer signal */
            rsys_real_sigaction(sig, &rsys_tg.prev[k], NULL);
        }
    }
}

/* exec failed: the handlers again, and the calling thread's timers. */
void rsys_timers_after_failed_exec(void)
{
    if (!rsys_tg.any) {
        return;
    }
    int sigs[RSYS_TIMER_KINDS];
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        sigs[k] = rsys_tg.installed_sig[k];
        rsys_tg.installed_sig[k] = 0;
    }
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        if (sigs[k] != 0) {
            rsys_install(k);
        }
    }
    struct rsys_tls *t = &rsys_tls;
    if (t->state == RSYS_TS_ACTIVE) {
        rsys_timers_thread_start(t);
    }
}

void rsys_timers_atfork_child(void)
{
    /* timers are not inherited: the parent's ids mean nothing here */
    memset(rsys_slots, 0, sizeof rsys_slots);
    rsys_main_begun = 1; /* the child goes on inside main (or wherever fork was called) */
    for (int k = 0; k < RSYS_TIMER_KINDS; k++) {
        rsys_tt.slot[k] = 0;
    }
    if (rsys_tg.any) {
        rsys_set_stops();
    }
}
