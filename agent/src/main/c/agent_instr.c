/*
 * Binary instrumentation, agent side (docs/instrumentation.md): finds instrumentation areas
 * (PT_NOTE of rewritten modules, or the runtime plan file named by ROCPROFSYS_INSTRUMENT_PLAN,
 * applied in memory by agent_plan.c), fills in their hook, and records function entry and exit
 * into the thread's ring (FUNC_DEF / FUNC_ENTER / FUNC_EXIT).
 *
 * Entry: the area's stub calls rsys_instr_enter(fid, ctx, ret_slot, landing). It pushes {real
 * return address, slot, hook, global id} on the thread's shadow stack, writes FUNC_ENTER and puts
 * the hook into the slot: the trampoline's landing (version 2 areas, rsys_instr_area.h), which
 * jumps to rsys_instr_exit_tramp_landed, or for version 1 areas rsys_instr_exit_tramp itself
 * (agent_instr_tramp.S; each return then goes where the CPU did not predict). Exit: the
 * trampoline calls rsys_instr_exit(sp), which finds the entry of that slot (the topmost entry
 * whose slot is sp - 8), pops and records the entries above it first (frames abandoned by
 * longjmp), writes FUNC_EXIT and returns the real address. C++ exceptions: the unwinder entry
 * points are wrapped (agent_wrap.c) to put the real return addresses back before the unwinder
 * walks the stack (rsys_instr_unhook_all);
 * __cxa_begin_catch records the exits of the frames that were unwound and hooks the surviving ones
 * again (rsys_instr_after_unwind).
 *
 * This file is compiled with -mgeneral-regs-only: the hooks run where vector argument (entry) and
 * return (exit) registers are live. Their rare slow paths that call into the rest of the agent or
 * libc go through rsys_instr_guarded, which saves the extended register state.
 *
 * FUNC_ENTER counts as an open region in the thread's reserve accounting (rsys_agent.h): a
 * FUNC_EXIT always fits, and a call whose FUNC_ENTER finds no room is neither hooked nor recorded.
 */
#include "rsys_agent.h"

#include <cpuid.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Shadow stack entries per thread (a lazily touched mapping: untouched pages cost nothing). */
#define RSYS_SHADOW_CAP 65536u
#define RSYS_MAX_AREAS 1024u

#define RSYS_SH_RECORDED 1u /* FUNC_ENTER is in this process's file: the exit is recorded */
#define RSYS_SH_UNHOOKED 2u /* the real return address is back in the slot (exception in flight) */

struct rsys_shadow {
    uint64_t ret;  /* real return address */
    uint64_t slot; /* address of the return-address slot */
    uint64_t hook; /* what the slot holds while hooked: the landing or the exit trampoline */
    uint32_t gid;
    uint32_t flags;
};

struct rsys_istack {
    struct rsys_shadow *s; /* NULL until the thread's first hooked call */
    uint32_t top;
    uint32_t busy; /* inside a hook: a signal handler's instrumented calls are not hooked */
};

static __thread struct rsys_istack rsys_ist __attribute__((tls_model("initial-exec")));

/* read by agent_instr_tramp.S: what rsys_instr_guarded saves (rsys_xsave_setup) */
uint32_t rsys_instr_xsave_size = 512;
uint32_t rsys_instr_xsave_mask = 0;

/* counters, reported at exit when not zero */
static uint64_t rsys_overflows; /* calls not hooked: shadow stack full */

struct rsys_area_reg {
    const struct rsys_instr_area_header *hdr;
    uint32_t base;
    int in_module; /* a rewritten module's own area (gone if the module is unloaded) */
};

static struct rsys_area_reg rsys_areas[RSYS_MAX_AREAS];
static uint32_t rsys_nareas;
static uint32_t rsys_next_gid;
static pthread_mutex_t rsys_instr_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t rsys_shadow_key;
static int rsys_shadow_key_ok;
static int rsys_instr_on; /* the agent is enabled: areas are registered */

/* ---------------------------------------------------------------------------------------------
 * Extended state saving for the guarded slow paths
 */
static void rsys_xsave_setup(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) {
        return; /* fxsave: x87 and SSE */
    }
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    uint32_t mask = lo & 0xE7u; /* x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM */
    uint32_t size = 576;
    for (unsigned i = 2; i < 8; i++) {
        if (mask & (1u << i)) {
            __cpuid_count(0xD, i, a, b, c, d);
            if (b + a > size) {
                size = b + a;
            }
        }
    }
    rsys_instr_xsave_size = (size + 63u) & ~63u;
    rsys_instr_xsave_mask = mask;
}

/* ---------------------------------------------------------------------------------------------
 * Record path
 */
struct rsys_slow_args {
    struct rsys_tls *t;
    uint32_t size;
    uint64_t reserve;
};

static uint64_t rsys_slow_reserve(void *p)
{
    struct rsys_slow_args *a = (struct rsys_slow_args *)p;
    return (uint64_t)(uintptr_t)rsys_reserve_slow(a->t, a->size, a->reserve, 1);
}

unsigned char *rsys_instr_reserve_guarded(struct rsys_tls *t, uint32_t size, uint64_t reserve)
{
    struct rsys_slow_args a = {t, size, reserve};
    return (unsigned char *)(uintptr_t)rsys_instr_guarded(rsys_slow_reserve, &a);
}

static uint64_t rsys_slow_attach(void *p)
{
    return (uint64_t)rsys_attach((struct rsys_tls *)p);
}

struct rsys_fn_args {
    struct rsys_tls *t;
    uint32_t type;
    uint32_t gid;
    uint64_t reserve;
    uint64_t now;
};

/*
 * FUNC_ENTER / FUNC_EXIT with the thread's metrics (the run asked for timemory components or CPU
 * counters): reading them calls into libc and the kernel, so it runs guarded.
 */
static uint64_t rsys_fn_record_metrics(void *p)
{
    struct rsys_fn_args *a = (struct rsys_fn_args *)p;
    struct rsys_tls *t = a->t;
    uint64_t mv[RSYS_MAX_METRICS];
    uint32_t nm = rsys_read_metrics(t->metrics, mv);
    uint32_t size = 16u + 8u * nm;
    unsigned char *r = rsys_reserve(t, size, a->reserve, RSYS_SLOW_WAIT);
    if (r == NULL) {
        return 0;
    }
    uint64_t *w = (uint64_t *)r;
    w[0] = rsys_record_word(a->type, size, a->gid);
    w[1] = a->now;
    for (uint32_t i = 0; i < nm; i++) {
        w[2 + i] = mv[i];
    }
    rsys_publish(t);
    return 1;
}

/* A FUNC_ENTER / FUNC_EXIT (16 bytes without metrics) keeping `reserve` bytes free after it. 1: written. */
static RSYS_ALWAYS_INLINE int rsys_fn_record(struct rsys_tls *t, uint32_t type, uint32_t gid,
                                             uint64_t reserve)
{
    uint64_t now = rsys_now();
    if (RSYS_UNLIKELY(t->nmetrics != 0)) {
        struct rsys_fn_args a = {t, type, gid, reserve, now};
        return (int)rsys_instr_guarded(rsys_fn_record_metrics, &a);
    }
    unsigned char *p = rsys_reserve(t, 16u, reserve, RSYS_SLOW_GUARDED);
    if (RSYS_UNLIKELY(p == NULL)) {
        return 0;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(type, 16u, gid);
    w[1] = now;
    rsys_publish(t);
    return 1;
}

static uint64_t rsys_shadow_alloc(void *unused)
{
    (void)unused;
    void *p = mmap(NULL, (size_t)RSYS_SHADOW_CAP * sizeof(struct rsys_shadow), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        return 0;
    }
    if (rsys_shadow_key_ok) {
        pthread_setspecific(rsys_shadow_key, p);
    }
    return (uint64_t)(uintptr_t)p;
}

/* Thread exit: its instrumented frames have returned (or were unwound by pthread_exit). */
static void rsys_shadow_free(void *p)
{
    struct rsys_istack *st = &rsys_ist;
    if (p != NULL && st->s == p) {
        st->s = NULL;
        st->top = 0;
        munmap(p, (size_t)RSYS_SHADOW_CAP * sizeof(struct rsys_shadow));
    }
}

/*
 * The hooks' fast paths: a 16-byte FUNC_ENTER / FUNC_EXIT stamped with rdtsc where the ring has
 * room at once, no metrics are read and nothing else is unusual. They call nothing, so the
 * compiler saves fewer callee-saved registers around every instrumented call (4 and 3 instead of 6
 * and a frame each); anything else goes to the general hooks below, which check it all again.
 *
 * The FUNC_ENTER is left unpublished (RSYS_REC_FUNC_CALL): when the call returns with nothing
 * written after it, the exit turns it into one FUNC_CALL, so that a leaf call costs the collector
 * one record instead of two. Anything else the thread writes publishes it with itself. The ring
 * header's unpublished_head says where it is, for a process that dies inside the call.
 * 0: nothing was written (and the thread's state is as it was).
 */
#if RSYS_HAVE_TSC
/* The fast paths' clock and record form: rdtsc, and no metrics to read. */
static RSYS_ALWAYS_INLINE int rsys_fn_fast_ok(const struct rsys_tls *t)
{
    return t->nmetrics == 0 && rsys_clock_rdtsc;
}

/*
 * A 16-byte FUNC_ENTER / FUNC_EXIT where the ring has room at once, claimed by rsys_reserve and
 * not yet published (the thread stays busy). 0: no room, nothing written, the thread not busy.
 */
static RSYS_ALWAYS_INLINE int rsys_fn_put16(struct rsys_tls *t, uint32_t type, uint32_t gid, uint64_t now,
                                            uint64_t reserve)
{
    uint64_t *w = (uint64_t *)rsys_reserve(t, 16u, reserve, RSYS_SLOW_NONE);
    if (RSYS_UNLIKELY(w == NULL)) {
        return 0;
    }
    w[0] = rsys_record_word(type, 16u, gid);
    w[1] = now;
    return 1;
}

static RSYS_ALWAYS_INLINE int rsys_fn_enter_fast(struct rsys_tls *t, uint32_t gid, uint64_t reserve)
{
    if (RSYS_UNLIKELY(!rsys_fn_fast_ok(t))) {
        return 0;
    }
    /* stamped before the ring's stores: after them, a call cost 2.5 ns more on this VM's AMD core */
    if (RSYS_UNLIKELY(!rsys_fn_put16(t, RSYS_REC_FUNC_ENTER, gid, __builtin_ia32_rdtsc(), reserve))) {
        return 0;
    }
    t->unpublished = t->head;
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the record before the mark (x86 keeps store order) */
    t->ring->unpublished_head = t->head;
    return 1; /* still busy: the caller updates the shadow stack, then clears it */
}

/*
 * The exit of entry gid: its unpublished FUNC_ENTER made a FUNC_CALL in place, or a FUNC_EXIT.
 * 1: written and not yet published, the thread still busy (the caller pops the shadow stack, then
 * publishes).
 */
static RSYS_ALWAYS_INLINE int rsys_fn_exit_fast(struct rsys_tls *t, uint32_t gid, uint64_t reserve)
{
    if (RSYS_UNLIKELY(!rsys_fn_fast_ok(t))) {
        return 0;
    }
    uint64_t now = __builtin_ia32_rdtsc();
    t->busy = 1; /* as rsys_reserve: a sample signal from here on drops its sample */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint64_t head = t->head;
    uint64_t off = (head - 16u) & t->mask;
    uint64_t *w = (uint64_t *)(t->data + off);
    if (RSYS_LIKELY(t->unpublished == head && off + 24u <= t->mask + 1 && head + 8u + reserve <= t->limit &&
                    w[0] == rsys_record_word(RSYS_REC_FUNC_ENTER, 16u, gid))) {
        w[2] = now;
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* complete before its header says so */
        w[0] = rsys_record_word(RSYS_REC_FUNC_CALL, 24u, gid);
        t->head = head + 8u;
        return 1;
    }
    /* still busy: rsys_reserve keeps it so, or clears it when there is no room */
    return rsys_fn_put16(t, RSYS_REC_FUNC_EXIT, gid, now, reserve);
}
#else
static RSYS_ALWAYS_INLINE int rsys_fn_enter_fast(struct rsys_tls *t, uint32_t gid, uint64_t reserve)
{
    (void)t, (void)gid, (void)reserve;
    return 0;
}

static RSYS_ALWAYS_INLINE int rsys_fn_exit_fast(struct rsys_tls *t, uint32_t gid, uint64_t reserve)
{
    (void)t, (void)gid, (void)reserve;
    return 0;
}
#endif

/*
 * depth and fdepth move together for every instrumented call: one 8-byte add instead of two
 * 4-byte ones (neither wraps: depth >= fdepth >= 0). On the 2-CPU VM's AMD core in its slow mode an
 * instrumented call took 2-3 ns less (docs/benchmarks.md, "One busy flag").
 */
_Static_assert(offsetof(struct rsys_tls, fdepth) == offsetof(struct rsys_tls, depth) + 4,
               "fdepth follows depth");
#define RSYS_BOTH_DEPTHS (1ull | (1ull << 32))

static RSYS_ALWAYS_INLINE void rsys_depths_add(struct rsys_tls *t, uint64_t delta)
{
    uint64_t both;
    memcpy(&both, &t->depth, 8);
    both += delta;
    memcpy(&t->depth, &both, 8);
}

/* A recorded FUNC_ENTER's bookkeeping: the thread's depths, the shadow entry, the hooked slot. */
static RSYS_ALWAYS_INLINE void rsys_hook_entered(struct rsys_istack *st, struct rsys_tls *t,
                                                 uint32_t top, uint32_t gid, uint64_t *ret_slot,
                                                 uint64_t landing)
{
    struct rsys_shadow *e = &st->s[top];
    rsys_depths_add(t, RSYS_BOTH_DEPTHS);
    e->ret = *ret_slot;
    e->slot = (uint64_t)(uintptr_t)ret_slot;
    e->hook = landing;
    e->gid = gid;
    e->flags = RSYS_SH_RECORDED;
    st->top = top + 1;
    *ret_slot = landing;
}

static __attribute__((noinline)) void rsys_instr_enter_general(uint32_t fid, uint64_t ctx,
                                                               uint64_t *ret_slot, uint64_t landing);
static __attribute__((noinline)) uint64_t rsys_instr_exit_general(uint64_t sp);

void rsys_instr_enter(uint32_t fid, uint64_t ctx, uint64_t *ret_slot, uint64_t landing)
{
    struct rsys_istack *st = &rsys_ist;
    /*
     * A signal handler interrupted a hook, or a record write of the thread between its claim and
     * its publish (rsys_tls.busy: a user region, a GPU record): a record written now would take
     * the claimed bytes (the interrupted writer has read head and not yet moved it). The call is
     * not hooked, as the timer sampler drops its sample there.
     */
    if (RSYS_UNLIKELY(st->busy | rsys_tls.busy)) {
        return;
    }
    /*
     * The fast path marks only the ring's thread busy (rsys_reserve) and keeps it so until the
     * shadow entry is in place, so a signal handler's instrumented call is not hooked while the
     * record or the shadow stack is half written. Before that mark such a call is hooked whole,
     * entry and exit, and leaves the ring, the depths and the shadow stack as it found them. (The
     * shadow stack's flag as well cost 0.5 ns per call on the 2-CPU VM's AMD core, 3 ns on the
     * 16-core host's Xeon: docs/benchmarks.md, "One busy flag".)
     */
    struct rsys_shadow *s = st->s;
    uint32_t top = st->top;
    struct rsys_tls *t = &rsys_tls;
    uint32_t gid = (uint32_t)ctx + fid;
    /* as a region BEGIN: room for the END of every open region, this one included, + 2 */
    if (RSYS_LIKELY(s != NULL && top < RSYS_SHADOW_CAP && t->data != NULL && t->skip == 0) &&
        rsys_fn_enter_fast(t, gid, (uint64_t)(t->depth + 3u) * t->unit)) {
        rsys_hook_entered(st, t, top, gid, ret_slot, landing);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t->busy = 0;
        return;
    }
    rsys_instr_enter_general(fid, ctx, ret_slot, landing);
}

static void rsys_instr_enter_general(uint32_t fid, uint64_t ctx, uint64_t *ret_slot, uint64_t landing)
{
    struct rsys_istack *st = &rsys_ist;
    if (RSYS_UNLIKELY(st->busy | rsys_tls.busy)) {
        return; /* as rsys_instr_enter */
    }
    st->busy = 1;
    struct rsys_shadow *s = st->s;
    if (RSYS_UNLIKELY(s == NULL)) {
        s = (struct rsys_shadow *)(uintptr_t)rsys_instr_guarded(rsys_shadow_alloc, NULL);
        if (s == NULL) {
            goto out;
        }
        st->s = s;
    }
    uint32_t top = st->top;
    if (RSYS_UNLIKELY(top >= RSYS_SHADOW_CAP)) {
        __atomic_fetch_add(&rsys_overflows, 1, __ATOMIC_RELAXED);
        goto out;
    }
    struct rsys_tls *t = &rsys_tls;
    if (RSYS_UNLIKELY(t->data == NULL)) {
        if (t->state == RSYS_TS_ENDED) {
            goto out;
        }
        if (t->state == RSYS_TS_NORING) { /* no ring for this thread: counted, without the slow path */
            rsys_count_drops(t, 2);
            goto out;
        }
        if (!rsys_instr_guarded(rsys_slow_attach, t)) {
            goto out;
        }
    }
    if (RSYS_UNLIKELY(t->skip != 0)) {
        rsys_count_drops(t, 2); /* inside a dropped region: this call's ENTER and EXIT */
        goto out;
    }
    uint32_t gid = (uint32_t)ctx + fid;
    /* as a region BEGIN: room for the END of every open region, this one included, + 2 */
    if (RSYS_UNLIKELY(!rsys_fn_record(t, RSYS_REC_FUNC_ENTER, gid, (uint64_t)(t->depth + 3u) * t->unit))) {
        rsys_count_drops(t, 2);
        goto out;
    }
    rsys_hook_entered(st, t, top, gid, ret_slot, landing);
out:
    st->busy = 0;
}

/* The hook of a version 1 area, whose trampolines have no landing. */
static void rsys_instr_enter_no_landing(uint32_t fid, uint64_t ctx, uint64_t *ret_slot)
{
    rsys_instr_enter(fid, ctx, ret_slot, (uint64_t)(uintptr_t)rsys_instr_exit_tramp);
}

/* Pops entry e: its FUNC_EXIT when its FUNC_ENTER is in this file. */
static RSYS_ALWAYS_INLINE void rsys_exit_entry(struct rsys_tls *t, const struct rsys_shadow *e,
                                               int quiet)
{
    if (!(e->flags & RSYS_SH_RECORDED) || quiet || t->data == NULL || t->fdepth == 0) {
        return;
    }
    if (rsys_fn_record(t, RSYS_REC_FUNC_EXIT, e->gid, (uint64_t)(t->depth + 1u) * t->unit)) {
        t->depth--;
        t->fdepth--;
    } else {
        rsys_count_drops(t, 1);
    }
}

static __attribute__((noreturn, noinline)) void rsys_lost_return(uint64_t sp)
{
    static const char msg[] = "rocprof-sys: agent: an instrumented function returned through a "
                              "frame the shadow stack does not know; aborting\n";
    (void)sp;
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
}

uint64_t rsys_instr_exit(uint64_t sp)
{
    struct rsys_istack *st = &rsys_ist;
    /* as rsys_instr_enter's fast path: the thread's busy mark covers the record and the pop */
    if (RSYS_LIKELY(!st->busy)) {
        uint32_t top = st->top;
        struct rsys_tls *t = &rsys_tls;
        if (RSYS_LIKELY(top > 0)) {
            /* the common case: the innermost entry returns (no longjmp), recorded, with room */
            const struct rsys_shadow *e = &st->s[top - 1];
            if (RSYS_LIKELY(e->slot == sp - 8u && e->flags == RSYS_SH_RECORDED && t->data != NULL &&
                            t->fdepth != 0) &&
                rsys_fn_exit_fast(t, e->gid, (uint64_t)(t->depth + 1u) * t->unit)) {
                rsys_depths_add(t, (uint64_t)-RSYS_BOTH_DEPTHS);
                uint64_t ret = e->ret;
                st->top = top - 1;
                rsys_publish(t);
                return ret;
            }
        }
    }
    return rsys_instr_exit_general(sp);
}

static uint64_t rsys_instr_exit_general(uint64_t sp)
{
    struct rsys_istack *st = &rsys_ist;
    uint64_t slot = sp - 8u;
    uint32_t was_busy = st->busy;
    st->busy = 1;
    struct rsys_shadow *s = st->s;
    uint32_t i = st->top;
    while (i > 0 && s[i - 1].slot != slot) {
        i--;
    }
    if (RSYS_UNLIKELY(i == 0)) {
        rsys_lost_return(sp);
    }
    struct rsys_tls *t = &rsys_tls;
    /* entries above the match: frames abandoned (longjmp), innermost first */
    for (uint32_t j = st->top; j > i; j--) {
        rsys_exit_entry(t, &s[j - 1], (int)was_busy);
    }
    uint64_t ret = s[i - 1].ret;
    rsys_exit_entry(t, &s[i - 1], (int)was_busy);
    st->top = i - 1;
    st->busy = was_busy;
    return ret;
}

/* ---------------------------------------------------------------------------------------------
 * Exceptions, thread exit (the wrappers of agent_wrap.c call these)
 */

/* Puts every hooked slot's real return address back (innermost first, so a tail-call chain
 * sharing one slot ends with the outermost, real address). */
void rsys_instr_unhook_all(void)
{
    struct rsys_istack *st = &rsys_ist;
    if (st->s == NULL) {
        return;
    }
    uint32_t was_busy = st->busy;
    st->busy = 1;
    for (uint32_t j = st->top; j > 0; j--) {
        struct rsys_shadow *e = &st->s[j - 1];
        uint64_t *slot = (uint64_t *)(uintptr_t)e->slot;
        if (*slot == e->hook) {
            *slot = e->ret;
            e->flags |= RSYS_SH_UNHOOKED;
        }
    }
    st->busy = was_busy;
}

/*
 * After a catch at stack pointer sp (or with sp 0, after an unwinder returned: every frame
 * survives): records the exits of the entries whose slots lie below sp (their frames were
 * unwound) and, when `rehook`, hooks the unhooked survivors again.
 */
void rsys_instr_after_unwind(uint64_t sp, int rehook)
{
    struct rsys_istack *st = &rsys_ist;
    if (st->s == NULL) {
        return;
    }
    uint32_t was_busy = st->busy;
    st->busy = 1;
    struct rsys_tls *t = &rsys_tls;
    while (st->top > 0 && st->s[st->top - 1].slot < sp) {
        rsys_exit_entry(t, &st->s[st->top - 1], (int)was_busy);
        st->top--;
    }
    if (rehook) {
        for (uint32_t j = 0; j < st->top; j++) {
            struct rsys_shadow *e = &st->s[j];
            if (e->flags & RSYS_SH_UNHOOKED) {
                uint64_t *slot = (uint64_t *)(uintptr_t)e->slot;
                if (*slot == e->ret) {
                    *slot = e->hook;
                }
                e->flags &= ~RSYS_SH_UNHOOKED;
            }
        }
    }
    st->busy = was_busy;
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 */

/* FUNC_DEF: registration time, not a hook; waits for room even in drop mode, up to *wait_left
 * waits of 50 us in all (shared by the FUNC_DEFs of one registration). */
static void rsys_write_def(struct rsys_tls *t, uint32_t gid, const char *name, size_t len, int *wait_left)
{
    if (len > RSYS_MAX_RECORD_SIZE - 9u) {
        len = rsys_cut_utf8(name, len, RSYS_MAX_RECORD_SIZE - 9u);
    }
    uint32_t size = (uint32_t)((8u + len + 1u + 7u) & ~(size_t)7u);
    uint64_t reserve = (uint64_t)(t->depth + 2u) * t->unit;
    unsigned char *p = NULL;
    for (;;) {
        p = rsys_reserve(t, size, reserve, RSYS_SLOW_WAIT);
        if (p != NULL || rsys_g.lossless || *wait_left <= 0) {
            break;
        }
        --*wait_left;
        usleep(50); /* the collector drains */
    }
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_FUNC_DEF, size, gid);
    w[size / 8 - 1] = 0;
    memcpy(p + 8, name, len);
    p[8 + len] = 0;
    rsys_publish(t);
}

static void rsys_write_defs(const struct rsys_instr_area_header *h, uint32_t base)
{
    struct rsys_tls *t = &rsys_tls;
    if (t->data == NULL && !rsys_attach(t)) {
        return;
    }
    const unsigned char *a = (const unsigned char *)h;
    const struct rsys_instr_func *f = (const struct rsys_instr_func *)(a + h->funcs_off);
    const char *strtab = (const char *)(a + h->strtab_off);
    int wait_left = 20000; /* about a second */
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        const char *name = "";
        size_t len = 0;
        if (f[i].name_off < h->strtab_size) {
            name = strtab + f[i].name_off;
            len = strnlen(name, h->strtab_size - f[i].name_off);
        }
        rsys_write_def(t, base + i, name, len, &wait_left);
    }
}

static void rsys_apply_env(const struct rsys_instr_area_header *h)
{
    if (h->env_off == 0 || h->env_off >= h->rx_size) {
        return;
    }
    const char *p = (const char *)h + h->env_off;
    const char *end = (const char *)h + h->rx_size;
    while (p < end && *p) {
        size_t n = strnlen(p, (size_t)(end - p));
        const char *eq = memchr(p, '=', n);
        if (eq != NULL && eq > p && p + n < end) {
            char name[256];
            size_t k = (size_t)(eq - p);
            if (k < sizeof name) {
                memcpy(name, p, k);
                name[k] = 0;
                setenv(name, eq + 1, 0); /* a default: the environment given wins */
            }
        }
        p += n + 1;
    }
}

/* Registers an area that is in place (relocated, entries patched): FUNC_DEFs, then the hook.
 * Called with rsys_instr_lock held. */
static void rsys_register(struct rsys_instr_area_header *h, int at_init, int in_module)
{
    struct rsys_instr_data *d = (struct rsys_instr_data *)((unsigned char *)h + h->data_off);
    if (__atomic_load_n(&d->enter_fn, __ATOMIC_ACQUIRE) != 0) {
        return; /* already registered */
    }
    uint32_t base = rsys_next_gid;
    rsys_next_gid += h->nfuncs;
    if (at_init) {
        rsys_apply_env(h);
    }
    /* a signal handler's instrumented call must not write into the ring in the middle of these */
    uint32_t was_busy = rsys_ist.busy;
    rsys_ist.busy = 1;
    rsys_write_defs(h, base);
    rsys_ist.busy = was_busy;
    uint32_t k = 0;
    while (k < rsys_nareas && rsys_areas[k].hdr != h) {
        k++;
    }
    if (k == rsys_nareas && rsys_nareas < RSYS_MAX_AREAS) {
        rsys_nareas++;
    }
    if (k < RSYS_MAX_AREAS) {
        rsys_areas[k].hdr = h;
        rsys_areas[k].base = base;
        rsys_areas[k].in_module = in_module;
    }
    d->ctx = base;
    /* the FUNC_DEFs are published before any thread can call the hook */
    d->exit_fn = (uint64_t)(uintptr_t)rsys_instr_exit_tramp_landed;
    uint64_t enter = h->version == RSYS_INSTR_AREA_VERSION_NO_LANDING
                         ? (uint64_t)(uintptr_t)rsys_instr_enter_no_landing
                         : (uint64_t)(uintptr_t)rsys_instr_enter;
    __atomic_store_n(&d->enter_fn, enter, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------------------------------------
 * Discovery
 */
struct rsys_discover_ctx {
    int at_init;
    int index; /* modules seen */
};

static void rsys_notes(struct dl_phdr_info *info, int at_init)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) {
            continue;
        }
        uint64_t align = ph->p_align == 8 ? 8 : 4;
        const unsigned char *p = (const unsigned char *)(uintptr_t)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while (p + 12 <= end) {
            uint32_t namesz, descsz, type;
            memcpy(&namesz, p, 4);
            memcpy(&descsz, p + 4, 4);
            memcpy(&type, p + 8, 4);
            const unsigned char *name = p + 12;
            const unsigned char *desc = name + ((namesz + align - 1) & ~(align - 1));
            const unsigned char *next = desc + ((descsz + align - 1) & ~(align - 1));
            if (next > end || desc > end) {
                break;
            }
            if (type == RSYS_INSTR_NOTE_TYPE && namesz == sizeof RSYS_INSTR_NOTE_NAME &&
                memcmp(name, RSYS_INSTR_NOTE_NAME, sizeof RSYS_INSTR_NOTE_NAME) == 0 && descsz >= 8) {
                uint64_t vaddr;
                memcpy(&vaddr, desc, 8);
                uint64_t addr = info->dlpi_addr + vaddr;
                const char *mod = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "(executable)";
                const ElfW(Phdr) *seg = rsys_segment_of(info, addr, sizeof(struct rsys_instr_area_header));
                if (seg == NULL || (addr & 7u) != 0) {
                    rsys_refuse_module(mod, "its RocProfSys note points outside the module");
                } else {
                    struct rsys_instr_area_header *h = (struct rsys_instr_area_header *)(uintptr_t)addr;
                    const ElfW(Phdr) *rx = rsys_segment_of(info, addr, h->rx_size);
                    const char *why = rx == NULL ? "area outside the module's segments"
                                                 : rsys_area_check(h, h->area_size);
                    if (why == NULL && !(h->flags & RSYS_INSTR_AREA_APPLIED)) {
                        why = "area not marked applied";
                    }
                    if (why == NULL && h->area_vaddr != vaddr) {
                        why = "area vaddr differs from its note";
                    }
                    const ElfW(Phdr) *dseg =
                        why ? NULL : rsys_segment_of(info, addr + h->data_off, sizeof(struct rsys_instr_data));
                    if (why == NULL && (dseg == NULL || !(dseg->p_flags & PF_W))) {
                        why = "area data not writable";
                    }
                    if (why != NULL) {
                        rsys_refuse_module(mod, why);
                    } else {
                        rsys_register(h, at_init, 1);
                        if (info->dlpi_name == NULL || *info->dlpi_name == 0) {
                            rsys_g.main_rewritten = 1;
                        }
                    }
                }
            }
            p = next;
        }
    }
}

static int rsys_phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct rsys_discover_ctx *c = (struct rsys_discover_ctx *)data;
    struct rsys_instr_area_header *h;
    for (uint32_t k = 0; (h = rsys_plan_apply_next(info, c->index, &k)) != NULL;) {
        rsys_register(h, c->at_init, 0);
    }
    rsys_notes(info, c->at_init);
    c->index++;
    return 0;
}

void rsys_instr_discover(int at_init)
{
    if (!rsys_instr_on || (int)getpid() != rsys_g.pid) {
        return;
    }
    pthread_mutex_lock(&rsys_instr_lock);
    struct rsys_discover_ctx c = {at_init, 0};
    dl_iterate_phdr(rsys_phdr_cb, &c);
    pthread_mutex_unlock(&rsys_instr_lock);
}

/* ---------------------------------------------------------------------------------------------
 * Lifecycle (agent_init.c)
 */
void rsys_instr_init(void)
{
    rsys_xsave_setup();
    rsys_shadow_key_ok = pthread_key_create(&rsys_shadow_key, rsys_shadow_free) == 0;
    rsys_instr_on = 1;
    rsys_plan_load();
    rsys_instr_discover(1);
}

/* Fork child, before its file exists: entries of the forking thread are the parent's. */
uint32_t rsys_instr_fork_child_begin(void)
{
    pthread_mutex_init(&rsys_instr_lock, NULL);
    struct rsys_istack *st = &rsys_ist;
    uint32_t n = 0;
    for (uint32_t j = 0; st->s != NULL && j < st->top; j++) {
        if (st->s[j].flags & RSYS_SH_RECORDED) {
            st->s[j].flags &= ~RSYS_SH_RECORDED;
            n++;
        }
    }
    st->busy = 0;
    return n;
}

static int rsys_holds_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uint64_t addr = (uint64_t)(uintptr_t)data;
    return rsys_segment_of(info, addr, sizeof(struct rsys_instr_area_header)) != NULL;
}

/* Fork child, its file made: the FUNC_DEFs of every registered area still loaded, again. */
void rsys_instr_fork_child_end(void)
{
    uint32_t was_busy = rsys_ist.busy;
    rsys_ist.busy = 1;
    for (uint32_t k = 0; k < rsys_nareas; k++) {
        const struct rsys_instr_area_header *h = rsys_areas[k].hdr;
        if (rsys_areas[k].in_module && (!dl_iterate_phdr(rsys_holds_cb, (void *)(uintptr_t)h) ||
                                        rsys_area_check(h, h->area_size) != NULL)) {
            continue; /* its module was unloaded */
        }
        const struct rsys_instr_data *d =
            (const struct rsys_instr_data *)((const unsigned char *)h + h->data_off);
        if (d->enter_fn != 0 && d->ctx == rsys_areas[k].base) {
            rsys_write_defs(h, rsys_areas[k].base);
        }
    }
    rsys_ist.busy = was_busy;
}

void rsys_instr_finalize(void)
{
    uint64_t n = __atomic_load_n(&rsys_overflows, __ATOMIC_RELAXED);
    if (n != 0) {
        dprintf(2, "rocprof-sys: agent: %llu calls of instrumented functions not recorded: the "
                   "shadow stack (%u entries per thread) was full\n",
                (unsigned long long)n, RSYS_SHADOW_CAP);
    }
}

/* For the wire round trip (agent/src/test/c/wire_roundtrip.c): one FUNC_DEF with the real writer */
void rsys_instr_test_def(uint32_t gid, const char *name)
{
    struct rsys_tls *t = &rsys_tls;
    if (t->data != NULL || rsys_attach(t)) {
        int wait_left = 0;
        rsys_write_def(t, gid, name, strlen(name), &wait_left);
    }
}

