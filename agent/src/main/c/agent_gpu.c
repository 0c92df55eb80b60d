/*
 * The agent's entry point for GPU tracing backends (rocprofsys_wire.h, "GPU records"). A backend
 * is a library the GPU runtime loads into the process (the CUDA injection library of
 * cuda-backend/); it finds these functions with dlsym(RTLD_DEFAULT, ...) and stays dormant when
 * they are absent or rocprofsys_gpu_active() says 0. It only records: raw runtime records go on
 * the calling thread's ring and the collector decodes them.
 */
#include "rsys_agent.h"

static void (*rsys_gpu_flush)(void);

RSYS_EXPORT int rocprofsys_gpu_active(void)
{
    return rsys_g.enabled && __atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE) &&
           !__atomic_load_n(&rsys_g.finalized, __ATOMIC_ACQUIRE);
}

RSYS_EXPORT void rocprofsys_gpu_set_flush(void (*flush)(void))
{
    __atomic_store_n(&rsys_gpu_flush, flush, __ATOMIC_RELEASE);
}

/* Called by rsys_finalize before the exit records, so the last GPU records precede them. */
void rsys_gpu_finalize(void)
{
    void (*flush)(void) = __atomic_exchange_n(&rsys_gpu_flush, NULL, __ATOMIC_ACQ_REL);
    if (flush != NULL) {
        flush();
    }
}

/*
 * rsys_reserve's RSYS_SLOW_BOUNDED path. GPU activity arrives in bursts (a whole CUPTI buffer at
 * a time, thousands of records) on the runtime's own thread, not on a thread of the program:
 * waiting there for the collector to make room costs the program nothing, while dropping loses
 * kernels. So activity records wait for room, in lossless mode as every record does, otherwise up
 * to ACTIVITY_WAIT_NS per record. A wait that times out (a collector stuck or gone) makes the
 * thread drop instead of waiting until a record fits again, so a dead collector never holds the
 * runtime for more than one timeout.
 */
#define ACTIVITY_WAIT_NS 1000000000ll
static __thread int activity_wait_timed_out;

unsigned char *rsys_gpu_reserve_bounded(struct rsys_tls *t, uint32_t size, uint64_t reserve)
{
    unsigned char *p = rsys_reserve_slow(t, size, reserve, 1);
    if (p != NULL || rsys_g.lossless || activity_wait_timed_out) {
        activity_wait_timed_out = activity_wait_timed_out && p == NULL;
        return p;
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        struct timespec nap = {0, 50000};
        nanosleep(&nap, NULL);
        p = rsys_reserve_slow(t, size, reserve, 0);
        if (p != NULL) {
            return p;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) * 1000000000ll + (now.tv_nsec - start.tv_nsec) > ACTIVITY_WAIT_NS) {
            activity_wait_timed_out = 1;
            return NULL;
        }
    }
}

RSYS_EXPORT int rocprofsys_gpu_record(uint32_t type, uint32_t aux,
                                      const struct rocprofsys_gpu_part *parts, uint32_t nparts)
{
    struct rsys_tls *t = &rsys_tls;
    if (type > 0xffffu || (parts == NULL && nparts != 0)) {
        return 0;
    }
    if (t->data == NULL && !rsys_attach(t)) {
        return 0;
    }
    size_t lens[16];
    if (nparts > sizeof lens / sizeof lens[0]) {
        rsys_count_drops(t, 1);
        return 0;
    }
    /* sizes first: binary parts whole, strings cut (in order) to what is left */
    size_t used = 8u;
    uint32_t strings = 0;
    for (uint32_t i = 0; i < nparts; i++) {
        if (parts[i].flags & RSYS_GPU_PART_STRING) {
            strings++;
        } else {
            used += parts[i].size;
        }
    }
    if (used + nparts > RSYS_MAX_RECORD_SIZE) {
        rsys_count_drops(t, 1);
        return 0;
    }
    size_t room = RSYS_MAX_RECORD_SIZE - used;
    for (uint32_t i = 0; i < nparts; i++) {
        if (parts[i].flags & RSYS_GPU_PART_STRING) {
            const char *s = parts[i].data != NULL ? (const char *)parts[i].data : "";
            strings--; /* the ones after this: each keeps room for its terminator */
            size_t len = rsys_cut_utf8(s, strlen(s), room - 1 - strings);
            lens[i] = len;
            used += len + 1;
            room -= len + 1;
        }
    }
    uint32_t size = (uint32_t)((used + 7) & ~(size_t)7);
    uint64_t reserve = rsys_reserve_for(t, t->depth);
    unsigned char *p = type == RSYS_REC_CUDA_ACTIVITY || type == RSYS_REC_ROCM_BUFFER
                           ? rsys_reserve(t, size, reserve, RSYS_SLOW_BOUNDED)
                           : rsys_reserve(t, size, reserve, RSYS_SLOW_WAIT);
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return 0;
    }
    *(uint64_t *)p = rsys_record_word(type, size, aux);
    ((uint64_t *)p)[size / 8 - 1] = 0; /* padding */
    size_t at = 8;
    for (uint32_t i = 0; i < nparts; i++) {
        if (parts[i].flags & RSYS_GPU_PART_STRING) {
            if (lens[i]) {
                memcpy(p + at, parts[i].data, lens[i]);
            }
            p[at + lens[i]] = 0;
            at += lens[i] + 1;
        } else if (parts[i].size) {
            memcpy(p + at, parts[i].data, parts[i].size);
            at += parts[i].size;
        }
    }
    rsys_publish(t);
    return 1;
}
