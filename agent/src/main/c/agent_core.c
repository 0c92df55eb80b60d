/*
 * The record writers and the exported recording API of librocprof-sys.so, the ring's slow path
 * (wrap, wait) and the record clock's calibration pairs.
 * Hot path: rocprofsys_push_region / rocprofsys_pop_region (one record each, one head store).
 */
#include "rsys_agent.h"
#include "rocprofsys_agent_api.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

__thread struct rsys_tls rsys_tls __attribute__((tls_model("initial-exec")));
struct rsys_global rsys_g = {.statm_fd = -1, .next_seq = 1, .exit_code = -1};
uint64_t (*rsys_test_clock)(void);
uint64_t (*rsys_test_clock_pair)(uint32_t purpose, uint64_t *monotonic_ns);
int rsys_test_clock_kind = -1;
void (*rsys_test_metrics)(uint32_t flags, uint64_t values[RSYS_MAX_METRICS]);
int rsys_clock_rdtsc;

static void rsys_write_pad(unsigned char *p)
{
    /* The reader skips from a PAD to the start of the next lap; its size field is just the header. */
    *(uint64_t *)p = rsys_record_word(RSYS_REC_PAD, 8u, 0u);
    rsys_refresh_clock_pair(); /* a wrap: rare enough to afford a calibration pair */
}

/* ---------------------------------------------------------------------------------------------
 * Calibration pairs (RSYS_CLOCK_TSC): CLOCK_MONOTONIC between two rdtsc; the pair is the middle
 * of the two ticks and the monotonic time, and the try with the smallest gap wins.
 */
static uint64_t rsys_tsc_pair(uint64_t *monotonic_ns, int tries)
{
#if RSYS_HAVE_TSC
    uint64_t best_gap = UINT64_MAX, best_ticks = 0, best_ns = 0;
    for (int i = 0; i < tries; i++) {
        __asm__ volatile("lfence" ::: "memory");
        uint64_t a = __builtin_ia32_rdtsc();
        __asm__ volatile("lfence" ::: "memory");
        uint64_t ns = rsys_monotonic_ns();
        __asm__ volatile("lfence" ::: "memory");
        uint64_t b = __builtin_ia32_rdtsc();
        if (b - a < best_gap) {
            best_gap = b - a;
            best_ticks = a + (b - a) / 2;
            best_ns = ns;
        }
    }
    *monotonic_ns = best_ns;
    return best_ticks;
#else
    (void)tries;
    *monotonic_ns = rsys_monotonic_ns();
    return 0;
#endif
}

uint64_t rsys_read_clock_pair(uint32_t purpose, uint64_t *monotonic_ns, int tries)
{
    if (rsys_test_clock_pair != NULL) {
        return rsys_test_clock_pair(purpose, monotonic_ns);
    }
    return rsys_tsc_pair(monotonic_ns, tries);
}

void rsys_refresh_clock_pair(void)
{
    struct rsys_file_header *h = rsys_g.hdr;
    if (h == NULL || rsys_g.clock_kind != RSYS_CLOCK_TSC) {
        return;
    }
    uint64_t ns;
    uint64_t ticks = rsys_read_clock_pair(RSYS_PAIR_LATEST, &ns, 2);
    /* seqlock, one writer at a time: a thread that finds another one writing skips its update */
    uint32_t seq = __atomic_load_n(&h->clock_pair_seq, __ATOMIC_RELAXED);
    if ((seq & 1u) != 0 || !__atomic_compare_exchange_n(&h->clock_pair_seq, &seq, seq + 1u, 0,
                                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        return;
    }
    __atomic_thread_fence(__ATOMIC_RELEASE); /* the odd seq is visible before the pair changes */
    if (seq == 0 || (int64_t)(ticks - __atomic_load_n(&h->latest_time, __ATOMIC_RELAXED)) > 0) {
        __atomic_store_n(&h->latest_time, ticks, __ATOMIC_RELAXED);
        __atomic_store_n(&h->latest_monotonic_ns, ns, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&h->clock_pair_seq, seq + 2u, __ATOMIC_RELEASE);
}

/* For the collector (rocprofsys_wire.h): needs no agent state, so it also works in a dormant agent. */
RSYS_EXPORT uint64_t rocprofsys_wire_read_clock_pair(uint64_t *monotonic_ns)
{
    uint64_t ns;
    uint64_t ticks = rsys_tsc_pair(&ns, 8);
    if (monotonic_ns != NULL) {
        *monotonic_ns = ns;
    }
    return ticks;
}

/*
 * Drop mode, full ring: whether to wait on (1) or drop (0). Waits while the collector frees space
 * at least every stall_ns; once it has not, the thread drops, and goes on dropping without waiting
 * until the tail moves again (a dead collector costs the program one stall, not one per record).
 */
static int rsys_wait_for_collector(struct rsys_tls *t, uint64_t *seen_tail, uint64_t *progress_ns)
{
    if (rsys_g.stall_ns == 0) {
        return 0;
    }
    uint64_t tail = __atomic_load_n(&t->ring->tail, __ATOMIC_ACQUIRE);
    if (t->stalled_tail == tail + 1) {
        return 0;
    }
    uint64_t now = rsys_monotonic_ns();
    if (*progress_ns == 0 || tail != *seen_tail) {
        *seen_tail = tail;
        *progress_ns = now;
        t->stalled_tail = 0;
        return 1;
    }
    if (now - *progress_ns < rsys_g.stall_ns) {
        return 1;
    }
    t->stalled_tail = tail + 1;
    return 0;
}

void rsys_ring_doorbell(void)
{
    if (rsys_g.ring_path[0] != 0) {
        utimensat(AT_FDCWD, rsys_g.ring_path, NULL, 0);
    }
}

/*
 * The collector is gone (agent_liveness.c): the calling thread records nothing more. Every record
 * call of its now stops at its first test (no ring: rsys_attach, which refuses an ended thread),
 * so the program runs on at full speed; before, each one went through this slow path.
 */
static void rsys_stop_recording(struct rsys_tls *t)
{
    t->data = NULL;
    t->limit = 0;                /* no fast path writes through data */
    t->unpublished = UINT64_MAX; /* nor rewrites a FUNC_ENTER in place (agent_instr.c) */
    t->state = RSYS_TS_ENDED;
}

/*
 * The ring has no room for the record at head (rsys_reserve's fast test failed): re-read the tail,
 * wrap to the start with a PAD when the record does not fit before the end, and in lossless mode
 * wait for the collector unless the caller cannot (the sample signal handler).
 */
unsigned char *rsys_reserve_slow(struct rsys_tls *t, uint32_t size, uint64_t reserve, int may_wait)
{
    const uint64_t cap = t->mask + 1;
    uint64_t seen_tail = 0, progress_ns = 0; /* drop mode: the tail last seen moving, and when */
    uint32_t waits = 0;
    for (;;) {
        uint64_t head = t->head;
        uint64_t off = head & t->mask;
        uint64_t to_end = cap - off;
        uint64_t need = size <= to_end ? size : to_end + size;
        if (head + need + reserve > t->limit) {
            t->limit = __atomic_load_n(&t->ring->tail, __ATOMIC_ACQUIRE) + cap;
        }
        if (head + need + reserve <= t->limit) {
            if (size > to_end) {
                rsys_write_pad(t->data + off);
                head += to_end;
                off = 0;
            }
            t->head = head + size;
            return t->data + off;
        }
        if (size > to_end && head + to_end + reserve <= t->limit) {
            /* the PAD fits on its own: publish it so the reader frees the lap, then retry */
            rsys_write_pad(t->data + off);
            t->head = head + to_end;
            __atomic_store_n(&t->ring->head, t->head, __ATOMIC_RELEASE); /* still busy */
            continue;
        }
        if (!may_wait) {
            return NULL; /* the sample handler: it leaves the thread's state alone */
        }
        if (rsys_collector_orphaned()) {
            rsys_stop_recording(t);
            return NULL;
        }
        if (!rsys_g.lossless && !rsys_wait_for_collector(t, &seen_tail, &progress_ns)) {
            return NULL;
        }
        if (rsys_collector_check()) {
            rsys_stop_recording(t); /* nobody will make room: the collector is gone */
            return NULL;
        }
        /*
         * Yield first (room usually comes within microseconds: the collector hands space back
         * every 16 KiB it reads), then nap: a producer spinning for long takes CPU time from the
         * collector it waits for, which on a small machine may share its CPU. Before the first
         * nap, ring: a collector with nothing to read for a while polls only every 250 ms.
         */
        if (waits < 64) {
            waits++;
            sched_yield();
        } else {
            if (waits == 64) {
                waits++;
                rsys_ring_doorbell();
            }
            struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL);
        }
    }
}

size_t rsys_cut_utf8(const char *s, size_t len, size_t max)
{
    if (len <= max) {
        return len;
    }
    /* do not end inside a UTF-8 sequence: back off over continuation bytes */
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0u) == 0x80u) {
        n--;
    }
    return n;
}

static uint64_t rsys_tv_ns(struct timeval tv)
{
    return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/* statm's first two fields: size and resident, in pages */
static void rsys_read_statm(uint64_t *size, uint64_t *resident)
{
    char buf[128];
    ssize_t n = pread(rsys_g.statm_fd, buf, sizeof buf - 1, 0);
    if (n <= 0) {
        return;
    }
    buf[n] = 0;
    const char *p = buf;
    uint64_t v[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        while (*p == ' ') {
            p++;
        }
        while (*p >= '0' && *p <= '9') {
            v[i] = v[i] * 10 + (uint64_t)(*p++ - '0');
        }
    }
    *size = v[0] * (uint64_t)rsys_g.page_size;
    *resident = v[1] * (uint64_t)rsys_g.page_size;
}

uint32_t rsys_read_metrics(uint32_t flags, uint64_t *out)
{
    uint64_t v[RSYS_MAX_METRICS] = {0};
    if (rsys_test_metrics != NULL) {
        rsys_test_metrics(flags, v);
    } else {
        if (flags & RSYS_METRIC_THREAD_CPU) {
            struct timespec ts;
            if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) {
                v[0] = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
            }
        }
        if ((flags & (RSYS_METRIC_RSS | RSYS_METRIC_VIRTUAL)) && rsys_g.statm_fd >= 0) {
            rsys_read_statm(&v[3], &v[1]);
        }
        if (flags & RSYS_METRIC_PEAK_RSS) {
            struct rusage ru;
            if (getrusage(RUSAGE_SELF, &ru) == 0) {
                v[2] = (uint64_t)ru.ru_maxrss * 1024ull;
            }
        }
        if (flags & RSYS_METRIC_RUSAGE) {
            struct rusage ru;
            if (getrusage(RUSAGE_THREAD, &ru) == 0) {
                v[4] = rsys_tv_ns(ru.ru_utime);
                v[5] = rsys_tv_ns(ru.ru_stime);
                v[6] = (uint64_t)ru.ru_majflt;
                v[7] = (uint64_t)ru.ru_minflt;
                v[8] = (uint64_t)ru.ru_nvcsw;
                v[9] = (uint64_t)ru.ru_nivcsw;
            }
        }
        if (flags & RSYS_METRIC_COUNTERS) {
            rsys_counters_read(&rsys_tls, &v[10]);
        }
    }
    uint32_t n = 0;
    for (uint32_t bit = 0; bit < 10; bit++) {
        if (flags & (1u << bit)) {
            out[n++] = v[bit];
        }
    }
    for (uint32_t i = 0; i < RSYS_MAX_COUNTERS; i++) {
        if (flags & (RSYS_METRIC_COUNTER0 << i)) {
            out[n++] = v[10 + i];
        }
    }
    return n;
}

/* ---------------------------------------------------------------------------------------------
 * Writers
 */
static RSYS_ALWAYS_INLINE int rsys_begin_inline(uint32_t category, const char *name, int is_main)
{
    struct rsys_tls *t = &rsys_tls;
    if (RSYS_UNLIKELY(t->data == NULL) && !rsys_attach(t)) {
        return 0;
    }
    if (RSYS_UNLIKELY(t->skip != 0)) {
        t->skip++;
        rsys_count_drops(t, 1);
        return 0;
    }
    uint64_t now = rsys_now();
    uint64_t mv[RSYS_MAX_METRICS];
    uint32_t nm = t->nmetrics;
    if (RSYS_UNLIKELY(nm != 0)) {
        rsys_read_metrics(t->metrics, mv);
    }
    size_t fixed = 16u + 8u * nm;
    size_t len = RSYS_LIKELY(name != NULL) ? strlen(name) : 0;
    if (RSYS_UNLIKELY(len > RSYS_MAX_RECORD_SIZE - 1 - fixed)) {
        len = rsys_cut_utf8(name, len, RSYS_MAX_RECORD_SIZE - 1 - fixed);
    }
    uint32_t size = (uint32_t)((fixed + len + 1 + 7) & ~(size_t)7);
    unsigned char *p = rsys_reserve(t, size, rsys_reserve_for(t, t->depth + (is_main ? 0u : 1u)), RSYS_SLOW_WAIT);
    if (RSYS_UNLIKELY(p == NULL)) {
        rsys_count_drops(t, 1);
        if (!is_main) {
            t->skip = 1;
        }
        return 0;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_REGION_BEGIN, size, (category & 0xffu) | (t->metrics << 8));
    w[1] = now;
    for (uint32_t i = 0; i < nm; i++) {
        w[2 + i] = mv[i];
    }
    w[size / 8 - 1] = 0; /* padding after the name */
    if (len) {
        memcpy(p + fixed, name, len);
    }
    p[fixed + len] = 0;
    rsys_publish(t);
    if (is_main) {
        t->main_open = 1;
    } else {
        t->depth++;
    }
    return 1;
}

static RSYS_ALWAYS_INLINE int rsys_end_inline(uint32_t category, int is_main, int readings)
{
    struct rsys_tls *t = &rsys_tls;
    if (RSYS_UNLIKELY(t->data == NULL) && !rsys_attach(t)) {
        return 0;
    }
    uint64_t reserve;
    if (is_main) {
        if (!t->main_open || t->depth != 0 || t->skip != 0) {
            return 0; /* regions left open: the collector closes them all at exit_time */
        }
        reserve = t->unit; /* only the THREAD_END follows */
    } else {
        if (RSYS_UNLIKELY(t->skip != 0)) {
            t->skip--;
            rsys_count_drops(t, 1);
            return 0;
        }
        if (RSYS_UNLIKELY(t->depth == t->fdepth)) {
            /* no region open in this file (instrumented functions aside: a pop must not close
             * one of them): a region opened before fork, or an unmatched pop */
            if (t->phantom) {
                t->phantom--;
            }
            return 0;
        }
        reserve = rsys_reserve_for(t, t->depth - 1);
    }
    uint64_t now = rsys_now();
    uint32_t nm = readings ? t->nmetrics : 0u;
    uint32_t metrics = readings ? t->metrics : 0u;
    uint32_t size = 16u + 8u * nm;
    uint64_t mv[RSYS_MAX_METRICS];
    if (RSYS_UNLIKELY(nm != 0)) {
        rsys_read_metrics(metrics, mv);
    }
    /* the invariant kept by every other record guarantees this fits in drop mode */
    unsigned char *p = rsys_reserve(t, size, reserve, RSYS_SLOW_WAIT);
    if (RSYS_UNLIKELY(p == NULL)) {
        rsys_count_drops(t, 1);
        return 0;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_REGION_END, size, (category & 0xffu) | (metrics << 8));
    w[1] = now;
    for (uint32_t i = 0; i < nm; i++) {
        w[2 + i] = mv[i];
    }
    rsys_publish(t);
    if (is_main) {
        t->main_open = 0;
    } else {
        t->depth--;
    }
    return 1;
}

int rsys_region_begin(uint32_t category, const char *name, int is_main)
{
    return rsys_begin_inline(category, name, is_main);
}

int rsys_region_end(uint32_t category, int is_main)
{
    return rsys_end_inline(category, is_main, 1);
}

int rsys_region_end_without_readings(uint32_t category, int is_main)
{
    return rsys_end_inline(category, is_main, 0);
}

static void rsys_annotation(struct rsys_tls *t, const rocprofsys_annotation_t *a)
{
    uintptr_t type = a->type;
    if (a->name == NULL || type == ROCPROFSYS_VALUE_NONE || type >= ROCPROFSYS_VALUE_LAST) {
        return;
    }
    if (a->value == NULL && type != ROCPROFSYS_VALUE_VOID_P) {
        return; /* nothing to show */
    }
    uint64_t value = 0;
    const void *v = a->value;
    switch (type) {
    case ROCPROFSYS_VALUE_CSTR: break;
    case ROCPROFSYS_VALUE_SIZE_T: value = (uint64_t) * (const size_t *)v; break;
    case ROCPROFSYS_VALUE_INT64: value = (uint64_t) * (const int64_t *)v; break;
    case ROCPROFSYS_VALUE_UINT64: value = *(const uint64_t *)v; break;
    case ROCPROFSYS_VALUE_FLOAT64: memcpy(&value, v, 8); break;
    case ROCPROFSYS_VALUE_VOID_P: value = (uint64_t)(uintptr_t)v; break;
    case ROCPROFSYS_VALUE_INT32: value = (uint64_t)(int64_t) * (const int32_t *)v; break;
    case ROCPROFSYS_VALUE_UINT32: value = (uint64_t) * (const uint32_t *)v; break;
    case ROCPROFSYS_VALUE_FLOAT32: {
        double d = (double)*(const float *)v;
        memcpy(&value, &d, 8);
        break;
    }
    case ROCPROFSYS_VALUE_INT16: value = (uint64_t)(int64_t) * (const int16_t *)v; break;
    case ROCPROFSYS_VALUE_UINT16: value = (uint64_t) * (const uint16_t *)v; break;
    default: return;
    }
    /* layout: header, u64 value, name NUL, [string NUL], padding */
    const size_t room = RSYS_MAX_RECORD_SIZE - 16u - 2u; /* two NULs */
    size_t nlen = strlen(a->name);
    size_t slen = 0;
    if (type == ROCPROFSYS_VALUE_CSTR) {
        const char *s = (const char *)v;
        slen = strlen(s);
        nlen = rsys_cut_utf8(a->name, nlen, room / 4); /* keep most of the room for the value */
        slen = rsys_cut_utf8(s, slen, room - nlen);
        value = slen;
    } else {
        nlen = rsys_cut_utf8(a->name, nlen, room);
    }
    size_t used = 16u + nlen + 1u + (type == ROCPROFSYS_VALUE_CSTR ? slen + 1u : 0u);
    uint32_t size = (uint32_t)((used + 7) & ~(size_t)7);
    unsigned char *p = rsys_reserve(t, size, rsys_reserve_for(t, t->depth), RSYS_SLOW_WAIT);
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_ANNOTATION, size, (uint32_t)type);
    w[1] = value;
    w[size / 8 - 1] = 0;
    memcpy(p + 16, a->name, nlen);
    p[16 + nlen] = 0;
    if (type == ROCPROFSYS_VALUE_CSTR) {
        memcpy(p + 16 + nlen + 1, v, slen);
        p[16 + nlen + 1 + slen] = 0;
    }
    rsys_publish(t);
}

void rsys_annotations(const rocprofsys_annotation_t *a, size_t n)
{
    struct rsys_tls *t = &rsys_tls;
    if (t->data == NULL || a == NULL) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        rsys_annotation(t, &a[i]);
    }
}

void rsys_mark(uint32_t category, const char *name)
{
    struct rsys_tls *t = &rsys_tls;
    if (t->data == NULL && !rsys_attach(t)) {
        return;
    }
    uint64_t now = rsys_now();
    size_t len = name ? strlen(name) : 0;
    len = rsys_cut_utf8(name, len, RSYS_MAX_RECORD_SIZE - 17u);
    uint32_t size = (uint32_t)((16u + len + 1 + 7) & ~(size_t)7);
    unsigned char *p = rsys_reserve(t, size, rsys_reserve_for(t, t->depth), RSYS_SLOW_WAIT);
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_MARK, size, category & 0xffu);
    w[1] = now;
    w[size / 8 - 1] = 0;
    if (len) {
        memcpy(p + 16, name, len);
    }
    p[16 + len] = 0;
    rsys_publish(t);
}

/* THREAD_START, FORK, TRACE_CONTROL: time, then two i32 when with_ints */
void rsys_simple(uint16_t type, uint32_t aux, int32_t a, int32_t b, int with_ints)
{
    struct rsys_tls *t = &rsys_tls;
    if (t->data == NULL && !rsys_attach(t)) {
        return;
    }
    uint64_t now = rsys_now();
    uint32_t size = with_ints ? 24u : 16u;
    unsigned char *p = rsys_reserve(t, size, rsys_reserve_for(t, t->depth), RSYS_SLOW_WAIT);
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(type, size, aux);
    w[1] = now;
    if (with_ints) {
        int32_t *i = (int32_t *)(p + 16);
        i[0] = a;
        i[1] = b;
    }
    rsys_publish(t);
}

/* ---------------------------------------------------------------------------------------------
 * Exported API (rocprofsys_agent_api.h)
 */
RSYS_EXPORT int rocprofsys_push_region(const char *name)
{
    rsys_begin_inline(ROCPROFSYS_CATEGORY_USER, name, 0);
    return 0;
}

RSYS_EXPORT int rocprofsys_pop_region(const char *name)
{
    (void)name;
    rsys_end_inline(ROCPROFSYS_CATEGORY_USER, 0, 1);
    return 0;
}

RSYS_EXPORT void rocprofsys_push_trace(const char *name)
{
    rsys_begin_inline(ROCPROFSYS_CATEGORY_HOST, name, 0);
}

RSYS_EXPORT void rocprofsys_pop_trace(const char *name)
{
    (void)name;
    rsys_end_inline(ROCPROFSYS_CATEGORY_HOST, 0, 1);
}

RSYS_EXPORT int rocprofsys_push_category_region(rocprofsys_category_t category, const char *name,
                                                rocprofsys_annotation_t *annotations, size_t count)
{
    if (rsys_begin_inline((uint32_t)category, name, 0) && count != 0) {
        rsys_annotations(annotations, count);
    }
    return 0;
}

RSYS_EXPORT int rocprofsys_pop_category_region(rocprofsys_category_t category, const char *name,
                                               rocprofsys_annotation_t *annotations, size_t count)
{
    (void)name;
    if (rsys_end_inline((uint32_t)category, 0, 1) && count != 0) {
        rsys_annotations(annotations, count);
    }
    return 0;
}

RSYS_EXPORT void rocprofsys_progress(const char *name)
{
    rsys_mark(ROCPROFSYS_CATEGORY_CAUSAL, name);
}

RSYS_EXPORT void rocprofsys_annotated_progress(const char *name,
                                               rocprofsys_annotation_t *annotations, size_t count)
{
    /* The wire attaches ANNOTATION records to regions only, so a progress point carries none. */
    (void)annotations;
    (void)count;
    rsys_mark(ROCPROFSYS_CATEGORY_CAUSAL, name);
}

RSYS_EXPORT int rocprofsys_start_trace(void)
{
    rsys_simple(RSYS_REC_TRACE_CONTROL, RSYS_TRACE_ENABLE | RSYS_TRACE_PROCESS, 0, 0, 0);
    return 0;
}

RSYS_EXPORT int rocprofsys_stop_trace(void)
{
    rsys_simple(RSYS_REC_TRACE_CONTROL, RSYS_TRACE_PROCESS, 0, 0, 0);
    return 0;
}

RSYS_EXPORT int rocprofsys_start_thread_trace(void)
{
    rsys_simple(RSYS_REC_TRACE_CONTROL, RSYS_TRACE_ENABLE, 0, 0, 0);
    return 0;
}

RSYS_EXPORT int rocprofsys_stop_thread_trace(void)
{
    rsys_simple(RSYS_REC_TRACE_CONTROL, 0, 0, 0, 0);
    return 0;
}
