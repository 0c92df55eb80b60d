/*
 * GPU record round trip, C side: run with the real agent preloaded and a session directory
 * (LD_PRELOAD=librocprof-sys.so ROCPROFSYS_SESSION_DIR=<dir> ROCPROFSYS_AGENT_CLOCK=monotonic).
 * Finds the agent's GPU entry points as the CUDA injection library does (dlsym RTLD_DEFAULT),
 * writes every CUDA record type with known values through rocprofsys_gpu_record, and prints what
 * the ring file must hold, one "key=value" line each (the Java side, CudaWireRoundTripTest, reads
 * the file back):
 *   active=<rocprofsys_gpu_active()>
 *   rec.<i>=<type> <aux> <fields...>   the records of the main thread's ring, in order:
 *     API_NAME <domain> <cbid> <name>
 *     API <domain> <cbid> <begin> <end> <correlation>
 *     ACTIVITY <kind> <raw size> <raw bytes hex> <string>|<string>...
 *     NVTX <cbid> <time> <id> <domain> <message>
 *   cut=<length>         the NVTX message cut to fit RSYS_MAX_RECORD_SIZE (a UTF-8 boundary)
 *   thread.rec.0=...     one record written by a second thread, on its own ring
 *   flush.rec=...        written by the flush registered with rocprofsys_gpu_set_flush, which the
 *                        agent calls at exit before the main thread's THREAD_END
 */
#include "rocprofsys_wire.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int (*record)(uint32_t, uint32_t, const struct rocprofsys_gpu_part *, uint32_t);
static int rec_index;

static void hex(const unsigned char *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        sprintf(out + 2 * i, "%02x", p[i]);
    }
    out[2 * n] = 0;
}

static void api_name(const char *prefix, uint32_t domain, uint32_t cbid, const char *name)
{
    uint32_t ids[2] = {cbid, 0};
    struct rocprofsys_gpu_part parts[2] = {{ids, 8, 0}, {name, 0, RSYS_GPU_PART_STRING}};
    if (record(RSYS_REC_CUDA_API_NAME, domain, parts, 2)) {
        printf("%s=API_NAME %u %u %s\n", prefix, domain, cbid, name);
    }
}

static void api(const char *prefix, uint32_t domain, uint32_t cbid, uint64_t begin, uint64_t end, uint32_t corr)
{
    struct {
        uint64_t begin, end;
        uint32_t cbid, corr;
    } r = {begin, end, cbid, corr};
    struct rocprofsys_gpu_part part = {&r, sizeof r, 0};
    if (record(RSYS_REC_CUDA_API, domain, &part, 1)) {
        printf("%s=API %u %u %llu %llu %u\n", prefix, domain, cbid, (unsigned long long)begin,
               (unsigned long long)end, corr);
    }
}

/* an API call with its tail as rsys_cuda.c writes it: stream id, params (raw), output */
static void api_args(const char *prefix, uint32_t domain, uint32_t cbid, uint32_t corr, uint32_t stream,
                     const unsigned char *params, uint16_t size, const uint64_t *output)
{
    struct {
        uint64_t begin, end;
        uint32_t cbid, corr;
    } r = {7000, 8000, cbid, corr};
    struct {
        uint32_t stream;
        uint16_t size, has_out;
    } head = {stream, size, output != NULL};
    static const uint64_t zero = 0;
    struct rocprofsys_gpu_part parts[5] = {{&r, sizeof r, 0},
                                           {&head, sizeof head, 0},
                                           {params, size, 0},
                                           {&zero, (uint32_t)((8 - size % 8) % 8), 0},
                                           {output, 8, 0}};
    if (record(RSYS_REC_CUDA_API, domain, parts, output != NULL ? 5 : 4)) {
        char h[1024];
        hex(params, size, h);
        printf("%s=API_ARGS %u %u %u %u %s %llu\n", prefix, domain, cbid, corr, stream, h,
               output != NULL ? (unsigned long long)*output : 0ull);
    }
}

static void activity(const char *prefix, uint32_t kind, const unsigned char *raw, uint32_t size,
                     const char *s0, const char *s1)
{
    uint32_t sizes[2] = {size, s0 == NULL ? 0u : s1 == NULL ? 1u : 2u};
    static const uint64_t zero = 0;
    struct rocprofsys_gpu_part parts[5] = {{sizes, 8, 0}, {raw, size, 0}, {&zero, (8 - size % 8) % 8, 0},
                                           {s0, 0, RSYS_GPU_PART_STRING}, {s1, 0, RSYS_GPU_PART_STRING}};
    if (record(RSYS_REC_CUDA_ACTIVITY, kind, parts, 3 + sizes[1])) {
        char h[1024];
        hex(raw, size, h);
        printf("%s=ACTIVITY %u %u %s %s|%s\n", prefix, kind, size, h, s0 ? s0 : "", s1 ? s1 : "");
    }
}

static void nvtx(const char *prefix, uint32_t cbid, uint64_t time, uint64_t id, uint64_t domain, const char *msg)
{
    uint64_t head[3] = {time, id, domain};
    struct rocprofsys_gpu_part parts[2] = {{head, sizeof head, 0}, {msg, 0, RSYS_GPU_PART_STRING}};
    if (record(RSYS_REC_CUDA_NVTX, cbid, parts, 2)) {
        printf("%s=NVTX %u %llu %llu %llu %s\n", prefix, cbid, (unsigned long long)time, (unsigned long long)id,
               (unsigned long long)domain, msg);
    }
}

/* the counter records of rsys_cuda_counters.c: the names of a context, then one kernel's values */
static void counter_names(const char *prefix, uint32_t device, uint32_t passes, const char *chip, const char *a,
                          const char *b)
{
    uint32_t head[2] = {2, passes};
    struct rocprofsys_gpu_part parts[4] = {{head, sizeof head, 0},
                                           {chip, 0, RSYS_GPU_PART_STRING},
                                           {a, 0, RSYS_GPU_PART_STRING},
                                           {b, 0, RSYS_GPU_PART_STRING}};
    if (record(RSYS_REC_CUDA_COUNTER_NAMES, device, parts, 4)) {
        printf("%s=COUNTER_NAMES %u %u %s %s|%s\n", prefix, device, passes, chip, a, b);
    }
}

static void counters(const char *prefix, uint32_t device, uint64_t launch, uint32_t correlation, uint32_t range,
                     uint32_t flags, double v0, double v1, const char *name)
{
    struct {
        uint64_t launch;
        uint32_t correlation, range, count, flags;
    } head = {launch, correlation, range, 2, flags};
    double values[2] = {v0, v1};
    struct rocprofsys_gpu_part parts[3] = {
        {&head, sizeof head, 0}, {values, sizeof values, 0}, {name, 0, RSYS_GPU_PART_STRING}};
    if (record(RSYS_REC_CUDA_COUNTERS, device, parts, 3)) {
        printf("%s=COUNTERS %u %llu %u %u %u %.17g %.17g %s\n", prefix, device, (unsigned long long)launch, correlation,
               range, flags, v0, v1, name);
    }
}

static char *next_key(void)
{
    static char key[32];
    snprintf(key, sizeof key, "rec.%d", rec_index++);
    return key;
}

static void *second_thread(void *arg)
{
    (void)arg;
    api("thread.rec.0", 2, 211, 5000, 6000, 77);
    return NULL;
}

static void flush(void)
{
    api_name("flush.rec", 1, 307, "cuCtxSynchronize_v2");
    fflush(stdout);
}

int main(void)
{
    int (*active)(void);
    void (*set_flush)(void (*)(void));
    *(void **)&record = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_record");
    *(void **)&active = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_active");
    *(void **)&set_flush = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_set_flush");
    if (record == NULL || active == NULL || set_flush == NULL) {
        fprintf(stderr, "gpu_wire_writer: the agent's GPU entry points are missing (LD_PRELOAD?)\n");
        return 2;
    }
    printf("active=%d\n", active());
    api_name(next_key(), 2, 211, "cudaLaunchKernel_v7000");
    api(next_key(), 2, 211, 1000000123, 1000000456, 4242);
    api(next_key(), 1, 307, 18446744073709551000ull, 18446744073709551615ull, 4294967295u);
    {
        unsigned char launch[56]; /* cudaLaunchKernel_v7000_params: 56 bytes, a multiple of 8 */
        unsigned char malloc_params[12]; /* a size that needs padding */
        for (int i = 0; i < 56; i++) {
            launch[i] = (unsigned char)(i + 1);
        }
        for (int i = 0; i < 12; i++) {
            malloc_params[i] = (unsigned char)(0xa0 + i);
        }
        uint64_t out = 0x7f00deadbeefull;
        api_args(next_key(), 2, 211, 9, 13, launch, sizeof launch, NULL);
        api_args(next_key(), 2, 20, 10, 0xffffffffu, malloc_params, sizeof malloc_params, &out);
    }
    unsigned char raw[13];
    for (int i = 0; i < 13; i++) {
        raw[i] = (unsigned char)(0xa0 + i);
    }
    activity(next_key(), 10, raw, 13, "_Z4tickPi", "second string");
    activity(next_key(), 1, raw, 8, NULL, NULL);
    activity(next_key(), 8, raw, 1, "", NULL);
    counter_names(next_key(), 1, 4, "GH100", "smsp__inst_executed.sum", "dram__bytes_read.sum");
    counters(next_key(), 1, 987654321, 4242, 7, 0, 1073741824.0, 268449792.5, "7");
    counters(next_key(), 1, 987654400, 4294967295u, 8, 1, 0.0, -1.25, "");
    nvtx(next_key(), 8, 123456789, 0, 0, "outer");
    nvtx(next_key(), 41, 123456790, 0x7f0000001000ull, 0, "demo-domain");
    /* a message longer than a record: cut to fit, on a UTF-8 boundary (3-byte characters) */
    static char longmsg[6000];
    size_t n = 0;
    while (n + 3 < sizeof longmsg) {
        memcpy(longmsg + n, "\xe2\x82\xac", 3); /* the euro sign */
        n += 3;
    }
    longmsg[n] = 0;
    uint64_t head[3] = {1, 2, 3};
    struct rocprofsys_gpu_part parts[2] = {{head, sizeof head, 0}, {longmsg, 0, RSYS_GPU_PART_STRING}};
    if (record(RSYS_REC_CUDA_NVTX, 1, parts, 2)) {
        /* 8 header + 24 fixed + message + NUL <= 4096, whole characters only */
        size_t room = RSYS_MAX_RECORD_SIZE - 8 - 24 - 1;
        printf("%s=NVTX_CUT 1 1 2 3\n", next_key());
        printf("cut=%zu\n", room - room % 3);
    }
    pthread_t t;
    pthread_create(&t, NULL, second_thread, NULL);
    pthread_join(t, NULL);
    set_flush(flush);
    fflush(stdout);
    return 0;
}
