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
    /* activity bursts (CUPTI, rocprofiler-sdk buffers) wait for room like every record: the
     * ring policy's wait while the collector frees space (rsys_reserve_slow) */
    unsigned char *p = rsys_reserve(t, size, rsys_reserve_for(t, t->depth), RSYS_SLOW_WAIT);
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
