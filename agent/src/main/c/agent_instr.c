/*
 * Binary instrumentation, agent side (docs/instrumentation.md): finds instrumentation areas
 * (PT_NOTE of rewritten modules, or the runtime plan file named by ROCPROFSYS_INSTRUMENT_PLAN,
 * applied in memory), fills in their hook, and records function entry and exit into the
 * thread's ring (FUNC_DEF / FUNC_ENTER / FUNC_EXIT).
 *
 * Entry: the area's stub calls rsys_instr_enter(fid, ctx, ret_slot). It pushes {real return
 * address, slot, global id} on the thread's shadow stack, writes FUNC_ENTER and puts the exit
 * trampoline (agent_instr_tramp.S) into the slot. Exit: the trampoline calls rsys_instr_exit(sp),
 * which finds the entry of that slot (the topmost entry whose slot is sp - 8), pops and records
 * the entries above it first (frames abandoned by longjmp), writes FUNC_EXIT and returns the real
 * address. C++ exceptions: the unwinder entry points are wrapped to put the real return addresses
 * back before the unwinder walks the stack; __cxa_begin_catch records the exits of the frames that
 * were unwound and hooks the surviving ones again.
 *
 * This file is compiled with -mgeneral-regs-only: the hooks run where vector argument (entry) and
 * return (exit) registers are live. Their rare slow paths that call into the rest of the agent or
 * libc go through rsys_instr_guarded, which saves the extended register state.
 *
 * FUNC_ENTER counts as an open region in the thread's reserve accounting (rsys_agent.h): a
 * FUNC_EXIT always fits, and a call whose FUNC_ENTER finds no room is neither hooked nor recorded.
 */
#include "rsys_agent.h"
#include "rsys_instr_area.h"

#include <cpuid.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* Shadow stack entries per thread (a lazily touched mapping: untouched pages cost nothing). */
#define RSYS_SHADOW_CAP 65536u
#define RSYS_MAX_AREAS 1024u

#define RSYS_SH_RECORDED 1u /* FUNC_ENTER is in this process's file: the exit is recorded */
#define RSYS_SH_UNHOOKED 2u /* the real return address is back in the slot (exception in flight) */

struct rsys_shadow {
    uint64_t ret;  /* real return address */
    uint64_t slot; /* address of the return-address slot */
    uint32_t gid;
    uint32_t flags;
};

struct rsys_istack {
    struct rsys_shadow *s; /* NULL until the thread's first hooked call */
    uint32_t top;
    uint32_t busy; /* inside a hook: a signal handler's instrumented calls are not hooked */
};

static __thread struct rsys_istack rsys_ist __attribute__((tls_model("initial-exec")));

/* agent_instr_tramp.S */
extern char rsys_instr_exit_tramp[] RSYS_HIDDEN;
RSYS_HIDDEN uint64_t rsys_instr_guarded(uint64_t (*fn)(void *), void *arg);
RSYS_HIDDEN uint32_t rsys_instr_xsave_size = 512;
RSYS_HIDDEN uint32_t rsys_instr_xsave_mask = 0;

RSYS_HIDDEN void rsys_instr_enter(uint32_t fid, uint64_t ctx, uint64_t *ret_slot);
RSYS_HIDDEN uint64_t rsys_instr_exit(uint64_t sp);

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
static long rsys_pagesz = 4096;

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
static inline void rsys_drop(struct rsys_tls *t, uint64_t n)
{
    uint64_t d = __atomic_load_n(&t->ring->dropped, __ATOMIC_RELAXED);
    __atomic_store_n(&t->ring->dropped, d + n, __ATOMIC_RELAXED);
}

struct rsys_slow_args {
    struct rsys_tls *t;
    uint32_t size;
    uint64_t reserve;
};

static uint64_t rsys_slow_reserve(void *p)
{
    struct rsys_slow_args *a = (struct rsys_slow_args *)p;
    return (uint64_t)(uintptr_t)rsys_reserve_slow(a->t, a->size, a->reserve);
}

static uint64_t rsys_slow_attach(void *p)
{
    return (uint64_t)rsys_attach((struct rsys_tls *)p);
}

/* A 16-byte FUNC_ENTER / FUNC_EXIT keeping `reserve` bytes free after it. 1: written. */
static inline __attribute__((always_inline)) int rsys_fn_record(struct rsys_tls *t, uint32_t type,
                                                                uint32_t gid, uint64_t reserve)
{
    uint64_t now = rsys_now();
    uint64_t head = t->head;
    uint64_t off = head & t->mask;
    unsigned char *p;
    if (RSYS_LIKELY(off + 16u <= t->mask + 1 && head + 16u + reserve <= t->limit)) {
        t->head = head + 16u;
        p = t->data + off;
    } else {
        struct rsys_slow_args a = {t, 16u, reserve};
        p = (unsigned char *)(uintptr_t)rsys_instr_guarded(rsys_slow_reserve, &a);
        if (p == NULL) {
            return 0;
        }
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

void rsys_instr_enter(uint32_t fid, uint64_t ctx, uint64_t *ret_slot)
{
    struct rsys_istack *st = &rsys_ist;
    if (RSYS_UNLIKELY(st->busy)) {
        return; /* a signal handler interrupted a hook */
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
            struct rsys_file_header *h = rsys_g.hdr;
            if (h != NULL && __atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE)) {
                __atomic_fetch_add(&h->unringed_drops, 2, __ATOMIC_RELAXED);
            }
            goto out;
        }
        if (!rsys_instr_guarded(rsys_slow_attach, t)) {
            goto out;
        }
    }
    if (RSYS_UNLIKELY(t->skip != 0)) {
        rsys_drop(t, 2); /* inside a dropped region: this call's ENTER and EXIT */
        goto out;
    }
    uint32_t gid = (uint32_t)ctx + fid;
    /* as a region BEGIN: room for the END of every open region, this one included, + 2 */
    if (RSYS_UNLIKELY(!rsys_fn_record(t, RSYS_REC_FUNC_ENTER, gid, (uint64_t)(t->depth + 3u) * t->unit))) {
        rsys_drop(t, 2);
        goto out;
    }
    t->depth++;
    t->fdepth++;
    s[top].ret = *ret_slot;
    s[top].slot = (uint64_t)(uintptr_t)ret_slot;
    s[top].gid = gid;
    s[top].flags = RSYS_SH_RECORDED;
    st->top = top + 1;
    *ret_slot = (uint64_t)(uintptr_t)rsys_instr_exit_tramp;
out:
    st->busy = 0;
}

/* Pops entry e: its FUNC_EXIT when its FUNC_ENTER is in this file. */
static inline __attribute__((always_inline)) void rsys_exit_entry(struct rsys_tls *t,
                                                                  const struct rsys_shadow *e,
                                                                  int quiet)
{
    if (!(e->flags & RSYS_SH_RECORDED) || quiet || t->data == NULL || t->fdepth == 0) {
        return;
    }
    if (rsys_fn_record(t, RSYS_REC_FUNC_EXIT, e->gid, (uint64_t)(t->depth + 1u) * t->unit)) {
        t->depth--;
        t->fdepth--;
    } else {
        rsys_drop(t, 1);
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
 * Exceptions, thread exit
 */

/* Puts every hooked slot's real return address back (innermost first, so a tail-call chain
 * sharing one slot ends with the outermost, real address). */
static void rsys_unhook_all(void)
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
        if (*slot == (uint64_t)(uintptr_t)rsys_instr_exit_tramp) {
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
static void rsys_after_unwind(uint64_t sp, int rehook)
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
                    *slot = (uint64_t)(uintptr_t)rsys_instr_exit_tramp;
                }
                e->flags &= ~RSYS_SH_UNHOOKED;
            }
        }
    }
    st->busy = was_busy;
}

typedef int (*rsys_raise_fn)(void *);
typedef int (*rsys_forced_fn)(void *, void *, void *);
typedef void *(*rsys_begin_catch_fn)(void *);
typedef void *(*rsys_globals_fn)(void);
typedef void (*rsys_pthread_exit_fn)(void *);

static void *rsys_next_sym(void **cache, const char *name)
{
    void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (p == NULL) {
        p = dlsym(RTLD_NEXT, name);
        __atomic_store_n(cache, p, __ATOMIC_RELEASE);
    }
    return p;
}

static void *real_raise, *real_resume_or_rethrow, *real_forced, *real_begin_catch, *real_globals,
    *real_pthread_exit;

static __attribute__((noreturn)) void rsys_missing(const char *name)
{
    dprintf(2, "rocprof-sys: agent: %s: no next definition\n", name);
    abort();
}

RSYS_EXPORT int _Unwind_RaiseException(void *exc)
{
    rsys_raise_fn f = (rsys_raise_fn)rsys_next_sym(&real_raise, "_Unwind_RaiseException");
    if (f == NULL) {
        rsys_missing("_Unwind_RaiseException");
    }
    rsys_unhook_all();
    int rc = f(exc); /* returns only when no handler was found */
    rsys_after_unwind(0, 1);
    return rc;
}

RSYS_EXPORT int _Unwind_Resume_or_Rethrow(void *exc)
{
    rsys_raise_fn f = (rsys_raise_fn)rsys_next_sym(&real_resume_or_rethrow, "_Unwind_Resume_or_Rethrow");
    if (f == NULL) {
        rsys_missing("_Unwind_Resume_or_Rethrow");
    }
    rsys_unhook_all();
    int rc = f(exc);
    rsys_after_unwind(0, 1);
    return rc;
}

RSYS_EXPORT int _Unwind_ForcedUnwind(void *exc, void *stop, void *stop_arg)
{
    rsys_forced_fn f = (rsys_forced_fn)rsys_next_sym(&real_forced, "_Unwind_ForcedUnwind");
    if (f == NULL) {
        rsys_missing("_Unwind_ForcedUnwind");
    }
    rsys_unhook_all();
    int rc = f(exc, stop, stop_arg);
    rsys_after_unwind(0, 1);
    return rc;
}

/*
 * The C++ personality, called by the unwinder for each frame F that has one. In the cleanup phase
 * the frames below F are gone by then (F's landing pad, a cleanup or the catch, runs next, or the
 * unwinder goes on to F's caller): their exits are recorded then, so that a destructor's
 * instrumented calls nest under the frame that runs it. _Unwind_GetCFA gives, at this point, the
 * stack pointer of F at its call site (the CFA of the frame below, in libgcc and LLVM libunwind
 * alike): every slot under it belongs to a frame below F. F itself is popped at the next frame
 * with a personality, or at the catch.
 */
typedef int (*rsys_personality_fn)(int, int, uint64_t, void *, void *);
typedef uint64_t (*rsys_get_cfa_fn)(void *);
static void *real_personality, *real_get_cfa;

RSYS_EXPORT int __gxx_personality_v0(int version, int actions, uint64_t exception_class, void *ue,
                                     void *context)
{
    rsys_personality_fn f = (rsys_personality_fn)rsys_next_sym(&real_personality, "__gxx_personality_v0");
    if (f == NULL) {
        rsys_missing("__gxx_personality_v0");
    }
    int rc = f(version, actions, exception_class, ue, context);
    if ((actions & 2) != 0 && (rc == 7 || rc == 8)) { /* _UA_CLEANUP_PHASE; INSTALL_CONTEXT, CONTINUE */
        rsys_get_cfa_fn cfa_of = (rsys_get_cfa_fn)rsys_next_sym(&real_get_cfa, "_Unwind_GetCFA");
        uint64_t cfa = cfa_of != NULL ? cfa_of(context) : 0; /* F's stack pointer */
        if (cfa != 0) {
            rsys_after_unwind(cfa, 0);
        }
    }
    return rc;
}

/* libstdc++'s __cxa_eh_globals: caught exceptions, then the uncaught count */
struct rsys_eh_globals {
    void *caught;
    unsigned int uncaught;
};

RSYS_EXPORT __attribute__((noinline)) void *__cxa_begin_catch(void *exc)
{
    rsys_begin_catch_fn f = (rsys_begin_catch_fn)rsys_next_sym(&real_begin_catch, "__cxa_begin_catch");
    if (f == NULL) {
        rsys_missing("__cxa_begin_catch");
    }
    /* the catching frame's stack pointer: above this function's return address */
    uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0) + 16u;
    void *r = f(exc);
    /* another exception still in flight (a catch inside a cleanup): its unwinder has yet to walk
     * the frames above, so they stay unhooked until its own catch */
    int rehook = 1;
    rsys_globals_fn g = (rsys_globals_fn)rsys_next_sym(&real_globals, "__cxa_get_globals");
    if (g != NULL) {
        struct rsys_eh_globals *eh = (struct rsys_eh_globals *)g();
        rehook = eh == NULL || eh->uncaught == 0;
    }
    rsys_after_unwind(sp, rehook);
    return r;
}

RSYS_EXPORT __attribute__((noreturn)) void pthread_exit(void *value)
{
    rsys_pthread_exit_fn f = (rsys_pthread_exit_fn)rsys_next_sym(&real_pthread_exit, "pthread_exit");
    if (f == NULL) {
        rsys_missing("pthread_exit");
    }
    /* libc unwinds the thread's stack with its own handle on libgcc_s: put the real addresses
     * back, and record the exits of every frame now (none of them returns) */
    rsys_unhook_all();
    rsys_after_unwind(UINT64_MAX, 0);
    f(value);
    __builtin_unreachable();
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
        p = rsys_reserve(t, size, reserve);
        if (p != NULL || rsys_g.lossless || *wait_left <= 0) {
            break;
        }
        --*wait_left;
        usleep(50); /* the collector drains */
    }
    if (p == NULL) {
        rsys_drop(t, 1);
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

/* Whether the area's tables lie inside it (header already read). */
static const char *rsys_check_area(const struct rsys_instr_area_header *h, uint64_t size_limit)
{
    if (h->magic != RSYS_INSTR_AREA_MAGIC) {
        return "bad area magic";
    }
    if (h->version != RSYS_INSTR_AREA_VERSION) {
        return "unsupported area version";
    }
    uint64_t sz = h->area_size;
    if (sz > size_limit || h->rx_size > sz || h->data_off < h->rx_size ||
        (uint64_t)h->data_off + sizeof(struct rsys_instr_data) > sz || (h->data_off & 7u) != 0) {
        return "area sizes out of bounds";
    }
    if ((uint64_t)h->funcs_off + (uint64_t)h->nfuncs * sizeof(struct rsys_instr_func) > h->rx_size ||
        (uint64_t)h->relocs_off + (uint64_t)h->nrelocs * sizeof(struct rsys_instr_reloc) > h->rx_size ||
        (uint64_t)h->strtab_off + h->strtab_size > h->rx_size || (h->funcs_off & 7u) != 0 ||
        (h->relocs_off & 7u) != 0) {
        return "area tables out of bounds";
    }
    const struct rsys_instr_func *f =
        (const struct rsys_instr_func *)((const unsigned char *)h + h->funcs_off);
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        if (f[i].tramp_off >= h->rx_size || f[i].patch_len < 5 || f[i].patch_len > 64) {
            return "bad function entry";
        }
    }
    return NULL;
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
    __atomic_store_n(&d->enter_fn, (uint64_t)(uintptr_t)rsys_instr_enter, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------------------------------------
 * Runtime plan
 */
struct rsys_plan_mod {
    const char *path;
    const unsigned char *area; /* in the plan file's copy */
    uint32_t area_size;
    int done;            /* applied or failed for load bias `bias` */
    uint64_t bias;
    unsigned char *mapped; /* the applied copy */
};

static struct rsys_plan_mod *rsys_plan;
static uint32_t rsys_plan_n;
static char rsys_exe_real[PATH_MAX];

static void rsys_plan_fail(const char *module, const char *why)
{
    dprintf(2, "rocprof-sys: instrument: %s: %s; module left uninstrumented\n", module, why);
}

static void rsys_load_plan(void)
{
    const char *path = getenv("ROCPROFSYS_INSTRUMENT_PLAN");
    if (path == NULL || *path == 0) {
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        dprintf(2, "rocprof-sys: instrument: cannot read the plan %s: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    size_t n = (size_t)sb.st_size;
    unsigned char *buf = n >= 16 ? malloc(n) : NULL;
    size_t got = 0;
    while (buf != NULL && got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    uint64_t magic = 0;
    uint32_t version = 0, nmods = 0;
    if (buf != NULL && got == n) {
        memcpy(&magic, buf, 8);
        memcpy(&version, buf + 8, 4);
        memcpy(&nmods, buf + 12, 4);
    }
    if (buf == NULL || got != n || magic != RSYS_INSTR_PLAN_MAGIC || version != RSYS_INSTR_PLAN_VERSION ||
        nmods > 100000) {
        dprintf(2, "rocprof-sys: instrument: %s is not a plan file of version %u\n", path,
                RSYS_INSTR_PLAN_VERSION);
        free(buf);
        return;
    }
    struct rsys_plan_mod *mods = calloc(nmods ? nmods : 1, sizeof *mods);
    if (mods == NULL) {
        free(buf);
        return;
    }
    size_t at = 16;
    uint32_t k = 0;
    for (; k < nmods; k++) {
        uint32_t plen, asize;
        if (at + 8 > n) {
            break;
        }
        memcpy(&plen, buf + at, 4);
        memcpy(&asize, buf + at + 4, 4);
        at += 8;
        size_t pad_path = ((size_t)plen + 7u) & ~(size_t)7u;
        size_t pad_area = ((size_t)asize + 7u) & ~(size_t)7u;
        if (plen == 0 || at + pad_path + pad_area > n || asize < sizeof(struct rsys_instr_area_header)) {
            break;
        }
        char *p = malloc(plen + 1u);
        if (p == NULL) {
            break;
        }
        memcpy(p, buf + at, plen);
        p[plen] = 0;
        mods[k].path = p;
        mods[k].area = buf + at + pad_path;
        mods[k].area_size = asize;
        at += pad_path + pad_area;
    }
    if (k != nmods) {
        dprintf(2, "rocprof-sys: instrument: %s: truncated or corrupt at module %u\n", path, k);
    }
    rsys_plan = mods;
    rsys_plan_n = k;
    ssize_t r = readlink("/proc/self/exe", rsys_exe_real, sizeof rsys_exe_real - 1);
    rsys_exe_real[r > 0 ? r : 0] = 0;
    char real[PATH_MAX];
    if (r > 0 && realpath(rsys_exe_real, real) != NULL) {
        memcpy(rsys_exe_real, real, strlen(real) + 1);
    }
}

static int rsys_prot_of(uint32_t pf)
{
    return ((pf & PF_R) ? PROT_READ : 0) | ((pf & PF_W) ? PROT_WRITE : 0) |
           ((pf & PF_X) ? PROT_EXEC : 0);
}

/* The PT_LOAD of the module holding [addr, addr + len), or NULL. */
static const ElfW(Phdr) *rsys_segment_of(const struct dl_phdr_info *info, uint64_t addr, uint64_t len)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= start && addr + len <= start + ph->p_memsz) {
            return ph;
        }
    }
    return NULL;
}

static int rsys_fits_rel32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* An anonymous read+write mapping of `size` bytes whose every byte is within rel32 reach of
 * [lo, hi). */
static unsigned char *rsys_map_near(uint64_t lo, uint64_t hi, size_t size)
{
    static const uint64_t steps[] = {0, 1ull << 16, 1ull << 20, 16ull << 20, 128ull << 20, 512ull << 20,
                                     1ull << 30};
    const uint64_t reach = (1ull << 31) - (1ull << 16);
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        for (int below = 0; below < 2; below++) {
            uint64_t addr;
            if (below) {
                if (lo < size + steps[s] + (1ull << 20)) {
                    continue;
                }
                addr = (lo - size - steps[s]) & ~(uint64_t)(rsys_pagesz - 1);
            } else {
                addr = hi + steps[s];
            }
            uint64_t end = addr + size;
            uint64_t span_lo = addr < lo ? addr : lo;
            uint64_t span_hi = end > hi ? end : hi;
            if (span_hi - span_lo >= reach) {
                continue;
            }
            void *p = mmap((void *)(uintptr_t)addr, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
            if (p == MAP_FAILED) {
                continue;
            }
            if ((uint64_t)(uintptr_t)p == addr) {
                return (unsigned char *)p;
            }
            munmap(p, size); /* an old kernel took the flag as a hint */
        }
    }
    return NULL;
}

/* Whether function 0 of an applied area still jumps to its trampoline (else the module was
 * unloaded and loaded again). */
static int rsys_still_patched(const struct rsys_plan_mod *m, uint64_t bias)
{
    const struct rsys_instr_area_header *h = (const struct rsys_instr_area_header *)m->mapped;
    if (h->nfuncs == 0) {
        return 1;
    }
    const struct rsys_instr_func *f = (const struct rsys_instr_func *)(m->mapped + h->funcs_off);
    const unsigned char *site = (const unsigned char *)(uintptr_t)(bias + f[0].func_vaddr);
    int32_t rel;
    memcpy(&rel, site + 1, 4);
    return site[0] == 0xE9 &&
           (uint64_t)(uintptr_t)site + 5u + (uint64_t)(int64_t)rel ==
               (uint64_t)(uintptr_t)m->mapped + f[0].tramp_off;
}

/* Applies one planned module in memory. Returns NULL or why it could not. */
static const char *rsys_apply(struct rsys_plan_mod *m, const struct dl_phdr_info *info)
{
    struct rsys_instr_area_header hv;
    memcpy(&hv, m->area, sizeof hv);
    if (hv.area_size != m->area_size) {
        return "area size differs from the plan's";
    }
    if (hv.flags & RSYS_INSTR_AREA_APPLIED) {
        return "area marked applied in a runtime plan";
    }
    /* tables are checked on an aligned copy below; first the header's sizes */
    if (hv.magic != RSYS_INSTR_AREA_MAGIC || hv.version != RSYS_INSTR_AREA_VERSION) {
        return "bad area magic or version";
    }
    if ((hv.rx_size & (uint32_t)(rsys_pagesz - 1)) != 0 || hv.data_off != hv.rx_size ||
        hv.area_size < hv.rx_size + sizeof(struct rsys_instr_data)) {
        return "area layout is not page-aligned as the contract says";
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD) {
            uint64_t s = (info->dlpi_addr + p->p_vaddr) & ~(uint64_t)(rsys_pagesz - 1);
            uint64_t e = (info->dlpi_addr + p->p_vaddr + p->p_memsz + (uint64_t)rsys_pagesz - 1) &
                         ~(uint64_t)(rsys_pagesz - 1);
            lo = s < lo ? s : lo;
            hi = e > hi ? e : hi;
        }
    }
    if (lo >= hi) {
        return "no loadable segment";
    }
    size_t size = ((size_t)hv.area_size + (size_t)rsys_pagesz - 1) & ~(size_t)(rsys_pagesz - 1);
    unsigned char *a = rsys_map_near(lo, hi, size);
    if (a == NULL) {
        return "no free address range within 2 GiB of the module for its area";
    }
    memcpy(a, m->area, hv.area_size);
    const struct rsys_instr_area_header *h = (const struct rsys_instr_area_header *)a;
    const char *why = rsys_check_area(h, size);
    if (why != NULL) {
        munmap(a, size);
        return why;
    }
    memset(a + h->data_off, 0, sizeof(struct rsys_instr_data));
    uint64_t bias = info->dlpi_addr;
    const struct rsys_instr_reloc *rl = (const struct rsys_instr_reloc *)(a + h->relocs_off);
    for (uint32_t i = 0; i < h->nrelocs; i++) {
        if ((uint64_t)rl[i].area_off + 4u > h->rx_size) {
            munmap(a, size);
            return "relocation outside the area";
        }
        int64_t v = (int64_t)(bias + rl[i].target_vaddr + (uint64_t)(int64_t)rl[i].addend -
                              ((uint64_t)(uintptr_t)a + rl[i].area_off));
        if (!rsys_fits_rel32(v)) {
            munmap(a, size);
            return "a relocation does not reach its target from the area";
        }
        int32_t v32 = (int32_t)v;
        memcpy(a + rl[i].area_off, &v32, 4);
    }
    /* the entry patches: every site inside an executable segment, within reach */
    const struct rsys_instr_func *f = (const struct rsys_instr_func *)(a + h->funcs_off);
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        uint64_t site = bias + f[i].func_vaddr;
        const ElfW(Phdr) *seg = rsys_segment_of(info, site, f[i].patch_len);
        if (seg == NULL || !(seg->p_flags & PF_X)) {
            munmap(a, size);
            return "a function entry lies outside the module's executable segments";
        }
        if (!rsys_fits_rel32((int64_t)((uint64_t)(uintptr_t)a + f[i].tramp_off - (site + 5u)))) {
            munmap(a, size);
            return "a trampoline is out of reach of its function";
        }
    }
    if (mprotect(a, h->rx_size, PROT_READ | PROT_EXEC) != 0) {
        int e = errno;
        munmap(a, size);
        return e == EACCES ? "mprotect of the area to read+execute refused (EACCES)"
                           : "mprotect of the area to read+execute failed";
    }
    /* make each executable segment holding sites writable, patch, restore its protection */
    int nseg = info->dlpi_phnum;
    int patched = 0;
    for (int s = 0; s < nseg; s++) {
        const ElfW(Phdr) *seg = &info->dlpi_phdr[s];
        if (seg->p_type != PT_LOAD || !(seg->p_flags & PF_X)) {
            continue;
        }
        uint64_t sa = info->dlpi_addr + seg->p_vaddr, se = sa + seg->p_memsz;
        uint64_t pmin = UINT64_MAX, pmax = 0;
        for (uint32_t i = 0; i < h->nfuncs; i++) {
            uint64_t site = bias + f[i].func_vaddr;
            if (site >= sa && site < se) {
                pmin = site < pmin ? site : pmin;
                pmax = site + f[i].patch_len > pmax ? site + f[i].patch_len : pmax;
            }
        }
        if (pmin >= pmax) {
            continue;
        }
        uint64_t p0 = pmin & ~(uint64_t)(rsys_pagesz - 1);
        uint64_t p1 = (pmax + (uint64_t)rsys_pagesz - 1) & ~(uint64_t)(rsys_pagesz - 1);
        if (mprotect((void *)(uintptr_t)p0, p1 - p0, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
            if (!patched) {
                munmap(a, size);
                return "cannot make the code writable (mprotect refused)";
            }
            /* earlier segments are patched (and consistent): keep them */
            rsys_plan_fail("(partially instrumented)", "cannot make a code segment writable");
            break;
        }
        patched = 1;
        for (uint32_t i = 0; i < h->nfuncs; i++) {
            uint64_t site = bias + f[i].func_vaddr;
            if (site < sa || site >= se) {
                continue;
            }
            unsigned char *c = (unsigned char *)(uintptr_t)site;
            int32_t rel = (int32_t)(int64_t)((uint64_t)(uintptr_t)a + f[i].tramp_off - (site + 5u));
            c[0] = 0xE9;
            memcpy(c + 1, &rel, 4);
            for (uint32_t b = 5; b < f[i].patch_len; b++) {
                c[b] = 0xCC;
            }
        }
        mprotect((void *)(uintptr_t)p0, p1 - p0, rsys_prot_of(seg->p_flags));
    }
    m->mapped = a;
    return NULL;
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
                    rsys_plan_fail(mod, "its RocProfSys note points outside the module");
                } else {
                    struct rsys_instr_area_header *h = (struct rsys_instr_area_header *)(uintptr_t)addr;
                    const ElfW(Phdr) *rx = rsys_segment_of(info, addr, h->rx_size);
                    const char *why = rx == NULL ? "area outside the module's segments"
                                                 : rsys_check_area(h, h->area_size);
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
                        rsys_plan_fail(mod, why);
                    } else {
                        rsys_register(h, at_init, 1);
                    }
                }
            }
            p = next;
        }
    }
}

static void rsys_plan_module(struct dl_phdr_info *info, int index, int at_init)
{
    if (rsys_plan_n == 0) {
        return;
    }
    char real[PATH_MAX];
    const char *path;
    if (index == 0 && (info->dlpi_name == NULL || info->dlpi_name[0] == 0)) {
        path = rsys_exe_real;
    } else if (info->dlpi_name != NULL && info->dlpi_name[0] == '/' && realpath(info->dlpi_name, real) != NULL) {
        path = real;
    } else {
        return;
    }
    for (uint32_t k = 0; k < rsys_plan_n; k++) {
        struct rsys_plan_mod *m = &rsys_plan[k];
        if (strcmp(m->path, path) != 0) {
            continue;
        }
        if (m->done && m->bias == info->dlpi_addr && (m->mapped == NULL || rsys_still_patched(m, m->bias))) {
            continue;
        }
        m->done = 1;
        m->bias = info->dlpi_addr;
        m->mapped = NULL;
        const char *why = rsys_apply(m, info);
        if (why != NULL) {
            rsys_plan_fail(path, why);
            continue;
        }
        rsys_register((struct rsys_instr_area_header *)m->mapped, at_init, 0);
    }
}

static int rsys_phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct rsys_discover_ctx *c = (struct rsys_discover_ctx *)data;
    rsys_plan_module(info, c->index, c->at_init);
    rsys_notes(info, c->at_init);
    c->index++;
    return 0;
}

static void rsys_discover(int at_init)
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
 * dlopen: modules it loads are discovered. A wrapper is the caller glibc sees (it searches the
 * caller's DT_RPATH / DT_RUNPATH), so for a bare name the wrapper searches the real caller's
 * paths itself first.
 */
typedef void *(*rsys_dlopen_fn)(const char *, int);
static void *real_dlopen;

static int rsys_try_dir(const char *dir, size_t dlen, const char *origin, const char *file, char *out)
{
    char buf[PATH_MAX];
    size_t at = 0;
    for (size_t i = 0; i < dlen && at < sizeof buf - 1;) {
        if (dir[i] == '$' && (strncmp(dir + i, "$ORIGIN", 7) == 0 || strncmp(dir + i, "${ORIGIN}", 9) == 0)) {
            size_t ol = strlen(origin);
            if (at + ol >= sizeof buf) {
                return 0;
            }
            memcpy(buf + at, origin, ol);
            at += ol;
            i += dir[i + 1] == '{' ? 9 : 7;
        } else {
            buf[at++] = dir[i++];
        }
    }
    size_t fl = strlen(file);
    if (at == 0 || at + 1 + fl >= sizeof buf) {
        return 0;
    }
    buf[at++] = '/';
    memcpy(buf + at, file, fl + 1);
    if (access(buf, F_OK) != 0) {
        return 0;
    }
    memcpy(out, buf, at + fl + 1);
    return 1;
}

static int rsys_try_list(const char *list, const char *origin, const char *file, char *out)
{
    while (list != NULL && *list) {
        const char *e = strchr(list, ':');
        size_t n = e ? (size_t)(e - list) : strlen(list);
        if (n > 0 && rsys_try_dir(list, n, origin, file, out)) {
            return 1;
        }
        list = e ? e + 1 : NULL;
    }
    return 0;
}

/* The path glibc would find `file` at through the caller's own RPATH/RUNPATH (1), or 0. */
static int rsys_caller_search(const void *caller, const char *file, char *out)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1(caller, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL || map->l_ld == NULL) {
        return 0;
    }
    const char *strtab = NULL;
    uint64_t rpath = UINT64_MAX, runpath = UINT64_MAX;
    for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_STRTAB) {
            uint64_t v = d->d_un.d_ptr;
            strtab = (const char *)(uintptr_t)(v < map->l_addr ? v + map->l_addr : v);
        } else if (d->d_tag == DT_RPATH) {
            rpath = d->d_un.d_val;
        } else if (d->d_tag == DT_RUNPATH) {
            runpath = d->d_un.d_val;
        }
    }
    if (strtab == NULL || (rpath == UINT64_MAX && runpath == UINT64_MAX)) {
        return 0;
    }
    char origin[PATH_MAX];
    const char *name = map->l_name && map->l_name[0] ? map->l_name : "/proc/self/exe";
    if (realpath(name, origin) == NULL) {
        return 0;
    }
    char *slash = strrchr(origin, '/');
    if (slash == NULL) {
        return 0;
    }
    *slash = 0;
    if (runpath != UINT64_MAX) {
        /* LD_LIBRARY_PATH first, then RUNPATH */
        if (getauxval(AT_SECURE) == 0 && rsys_try_list(getenv("LD_LIBRARY_PATH"), origin, file, out)) {
            return 1;
        }
        return rsys_try_list(strtab + runpath, origin, file, out);
    }
    return rsys_try_list(strtab + rpath, origin, file, out);
}

RSYS_EXPORT void *dlopen(const char *file, int mode)
{
    const void *caller = __builtin_return_address(0);
    rsys_dlopen_fn f = (rsys_dlopen_fn)rsys_next_sym(&real_dlopen, "dlopen");
    if (f == NULL) {
        return NULL;
    }
    if (file != NULL && strchr(file, '/') == NULL && !(mode & RTLD_NOLOAD)) {
        void *h = f(file, mode | RTLD_NOLOAD); /* loaded already: by name, whatever the paths */
        if (h != NULL) {
            return h;
        }
        char path[PATH_MAX];
        if (rsys_caller_search(caller, file, path)) {
            h = f(path, mode);
            if (h != NULL) {
                rsys_discover(0);
                return h;
            }
        }
    }
    void *h = f(file, mode);
    if (h != NULL && file != NULL && !(mode & RTLD_NOLOAD)) {
        rsys_discover(0);
    }
    return h;
}

/* ---------------------------------------------------------------------------------------------
 * Lifecycle (agent_init.c)
 */
void rsys_instr_init(void)
{
    rsys_pagesz = rsys_g.page_size > 0 ? rsys_g.page_size : 4096;
    rsys_xsave_setup();
    rsys_shadow_key_ok = pthread_key_create(&rsys_shadow_key, rsys_shadow_free) == 0;
    rsys_instr_on = 1;
    rsys_load_plan();
    rsys_discover(1);
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
                                        rsys_check_area(h, h->area_size) != NULL)) {
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
RSYS_HIDDEN void rsys_instr_test_def(uint32_t gid, const char *name)
{
    struct rsys_tls *t = &rsys_tls;
    if (t->data != NULL || rsys_attach(t)) {
        int wait_left = 0;
        rsys_write_def(t, gid, name, strlen(name), &wait_left);
    }
}
