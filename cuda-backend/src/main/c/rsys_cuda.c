/*
 * librocprof-sys-cuda.so: the CUDA backend's native half, a CUDA injection library.
 *
 * The launcher names it in CUDA_INJECTION64_PATH (the driver loads it inside cuInit and calls
 * InitializeInjection) and in NVTX_INJECTION64_PATH (the NVTX stubs load it on the first NVTX
 * call and call InitializeInjectionNvtx2). A program that never initialises CUDA or NVTX never
 * loads it. It only records: it finds the agent's GPU entry point (rocprofsys_gpu_record,
 * agent_gpu.c) in the process, loads CUPTI with dlopen, and writes
 *   - one CUDA_API record per runtime / driver API call (CUPTI callbacks, on the calling thread),
 *   - one CUDA_NVTX record per NVTX call (CUPTI's NVTX callbacks),
 *   - one CUDA_ACTIVITY record per CUPTI activity record (kernels, copies, memsets,
 *     synchronisations, allocations, devices, contexts), copied raw from CUPTI's buffers with
 *     the strings they point to appended.
 * The collector decodes everything (cuda-backend's Java, org.rocprofsys.cuda.decode). CUPTI
 * takes its timestamps from CLOCK_MONOTONIC (cuptiActivityRegisterTimestampCallback), so every
 * time in these records is CLOCK_MONOTONIC ns.
 *
 * Activity buffers reach the rings when CUPTI completes them: a flush thread asks for every
 * completed buffer each ROCPROFSYS_AGENT_CUDA_FLUSH_MS (default 100), and a forced flush runs at
 * exit (before the agent's exit records, through rocprofsys_gpu_set_flush, and from an atexit
 * handler registered after CUDA's own). A process that dies without exiting loses the GPU
 * activity of at most its last flush period.
 *
 * Settings (environment, set by the collector):
 *   ROCPROFSYS_AGENT_CUDA_DOMAINS   comma list of cuda_runtime_api, cuda_driver_api,
 *                                   kernel_dispatch, memory_copy, memory_set, synchronization,
 *                                   memory_allocation, nvtx; unset: all
 *   ROCPROFSYS_AGENT_CUDA_FLUSH_MS  flush period in ms (default 100, 0: only at exit)
 *   ROCPROFSYS_CUPTI_LIBRARY        libcupti to load instead of searching for one
 *   ROCPROFSYS_AGENT_CUDA_VERBOSE   1: say which libcupti was loaded
 *   ROCPROFSYS_AGENT_CUDA_API_ARGS  0: API calls without their arguments and stream (default 1)
 *   ROCPROFSYS_AGENT_CUDA_BUFFER_KB host activity buffer size (default 8192)
 *   ROCPROFSYS_AGENT_CUDA_DEVICE_BUFFER_KB  CUPTI's device buffer per context
 *                                   (CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE; unset: CUPTI's 3 MB)
 *   ROCPROFSYS_AGENT_CUDA_EVENTS    comma list of metrics collected per kernel through CUPTI's
 *                                   range profiler (rsys_cuda_counters.c); unset: none
 *   ROCPROFSYS_AGENT_CUDA_COUNTER_BATCH  kernels per counter-data image (default 64)
 * Without the agent in the process (or with no session) it does nothing and loads no CUPTI.
 */
#include "rsys_cuda.h"

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RSYS_CUDA_EXPORT __attribute__((visibility("default")))

/* ROCPROFSYS_AGENT_CUDA_DOMAINS bits */
enum {
    DOM_RUNTIME = 1 << 0,
    DOM_DRIVER = 1 << 1,
    DOM_KERNEL = 1 << 2,
    DOM_MEMCPY = 1 << 3,
    DOM_MEMSET = 1 << 4,
    DOM_SYNC = 1 << 5,
    DOM_ALLOC = 1 << 6,
    DOM_NVTX = 1 << 7,
    DOM_ALL = (1 << 8) - 1,
    /* not in DOM_ALL: only ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING asks for it */
    DOM_UNIFIED_MEMORY = 1 << 8,
};

static const struct {
    const char *name;
    int bit;
} domain_names[] = {
    {"cuda_runtime_api", DOM_RUNTIME}, {"cuda_driver_api", DOM_DRIVER},
    {"kernel_dispatch", DOM_KERNEL},   {"memory_copy", DOM_MEMCPY},
    {"memory_set", DOM_MEMSET},        {"synchronization", DOM_SYNC},
    {"memory_allocation", DOM_ALLOC},  {"nvtx", DOM_NVTX},
    {"unified_memory", DOM_UNIFIED_MEMORY},
};

#define CBID_BITS 1024u

/*
 * The API calls whose arguments are recorded: CUPTI's params struct of the call
 * (generated_cuda_runtime_api_meta.h, generated_cuda_meta.h) is copied raw at the exit callback;
 * the collector decodes it by the function's name (ApiParams). `out`: the params slot (in
 * pointers) of an output pointer (cudaMalloc's devPtr) whose target is recorded after a call that
 * succeeded; `stream`: the slot of the stream handle, turned into CUPTI's stream id here (the id
 * the device activity carries); `per_thread`: a _ptsz/_ptds variant, whose stream 0 is the
 * per-thread default stream.
 */
struct arg_spec {
    uint16_t size; /* sizeof the params struct; 0: arguments not recorded */
    int8_t out;
    int8_t stream;
    uint8_t per_thread;
};
static struct arg_spec arg_specs[2][CBID_BITS];

#define SLOT(type, field) ((int8_t)(offsetof(type, field) / sizeof(void *)))
#define ARGS(dom, name, type, out_slot, stream_slot, pt)                                           \
    arg_specs[(dom) - 1][name] = (struct arg_spec){sizeof(type), (out_slot), (stream_slot), (pt)}
#define RT(name) CUPTI_RUNTIME_TRACE_CBID_##name
#define DRV(name) CUPTI_DRIVER_TRACE_CBID_##name
/*
 * A runtime call and its per-thread-default-stream variant (_ptsz/_ptds), whose params structs have
 * the same fields: `out` and `stream` name the slot of each (NO_SLOT: none).
 */
#define ARGS_PT(name, pt_name, out, stream)                                                        \
    ARGS(R, RT(name), name##_params, out(name##_params), stream(name##_params), 0);                \
    ARGS(R, RT(pt_name), pt_name##_params, out(pt_name##_params), stream(pt_name##_params), 1)
#define NO_SLOT(type) -1
#define STREAM_SLOT(type) SLOT(type, stream)
#define HSTREAM_SLOT(type) SLOT(type, hStream)
#define DEVPTR_SLOT(type) SLOT(type, devPtr)

static void init_arg_specs(void)
{
    enum { R = CUPTI_CB_DOMAIN_RUNTIME_API, D = CUPTI_CB_DOMAIN_DRIVER_API };
    ARGS_PT(cudaLaunchKernel_v7000, cudaLaunchKernel_ptsz_v7000, NO_SLOT, STREAM_SLOT);
    ARGS_PT(cudaMemcpy_v3020, cudaMemcpy_ptds_v7000, NO_SLOT, NO_SLOT);
    ARGS_PT(cudaMemcpyAsync_v3020, cudaMemcpyAsync_ptsz_v7000, NO_SLOT, STREAM_SLOT);
    ARGS_PT(cudaMemset_v3020, cudaMemset_ptds_v7000, NO_SLOT, NO_SLOT);
    ARGS_PT(cudaMemsetAsync_v3020, cudaMemsetAsync_ptsz_v7000, NO_SLOT, STREAM_SLOT);
    ARGS(R, RT(cudaMalloc_v3020), cudaMalloc_v3020_params, SLOT(cudaMalloc_v3020_params, devPtr), -1,
         0);
    ARGS(R, RT(cudaFree_v3020), cudaFree_v3020_params, -1, -1, 0);
    ARGS(R, RT(cudaMallocHost_v3020), cudaMallocHost_v3020_params,
         SLOT(cudaMallocHost_v3020_params, ptr), -1, 0);
    ARGS(R, RT(cudaHostAlloc_v3020), cudaHostAlloc_v3020_params,
         SLOT(cudaHostAlloc_v3020_params, pHost), -1, 0);
    ARGS(R, RT(cudaFreeHost_v3020), cudaFreeHost_v3020_params, -1, -1, 0);
    ARGS(R, RT(cudaMallocManaged_v6000), cudaMallocManaged_v6000_params,
         SLOT(cudaMallocManaged_v6000_params, devPtr), -1, 0);
    ARGS_PT(cudaMallocAsync_v11020, cudaMallocAsync_ptsz_v11020, DEVPTR_SLOT, HSTREAM_SLOT);
    ARGS_PT(cudaFreeAsync_v11020, cudaFreeAsync_ptsz_v11020, NO_SLOT, HSTREAM_SLOT);
    ARGS_PT(cudaStreamSynchronize_v3020, cudaStreamSynchronize_ptsz_v7000, NO_SLOT, STREAM_SLOT);
    ARGS(D, DRV(cuLaunchKernel), cuLaunchKernel_params, -1, SLOT(cuLaunchKernel_params, hStream), 0);
    ARGS(D, DRV(cuLaunchKernel_ptsz), cuLaunchKernel_ptsz_params, -1,
         SLOT(cuLaunchKernel_ptsz_params, hStream), 1);
    ARGS(D, DRV(cuMemcpyHtoD_v2), cuMemcpyHtoD_v2_params, -1, -1, 0);
    ARGS(D, DRV(cuMemcpyDtoH_v2), cuMemcpyDtoH_v2_params, -1, -1, 0);
    ARGS(D, DRV(cuMemcpyDtoD_v2), cuMemcpyDtoD_v2_params, -1, -1, 0);
    ARGS(D, DRV(cuMemcpyHtoDAsync_v2), cuMemcpyHtoDAsync_v2_params, -1,
         SLOT(cuMemcpyHtoDAsync_v2_params, hStream), 0);
    ARGS(D, DRV(cuMemcpyDtoHAsync_v2), cuMemcpyDtoHAsync_v2_params, -1,
         SLOT(cuMemcpyDtoHAsync_v2_params, hStream), 0);
    ARGS(D, DRV(cuMemcpy), cuMemcpy_params, -1, -1, 0);
    ARGS(D, DRV(cuMemcpyAsync), cuMemcpyAsync_params, -1, SLOT(cuMemcpyAsync_params, hStream), 0);
    ARGS(D, DRV(cuMemAlloc_v2), cuMemAlloc_v2_params, SLOT(cuMemAlloc_v2_params, dptr), -1, 0);
    ARGS(D, DRV(cuMemFree_v2), cuMemFree_v2_params, -1, -1, 0);
    ARGS(D, DRV(cuStreamSynchronize), cuStreamSynchronize_params, -1,
         SLOT(cuStreamSynchronize_params, hStream), 0);
}

/* the agent's entry points */
int (*agent_record)(uint32_t, uint32_t, const struct rocprofsys_gpu_part *, uint32_t);
static void (*agent_set_flush)(void (*)(void));

/* CUPTI, resolved from the loaded library */
void *cupti;
static __typeof__(&cuptiSubscribe) p_subscribe;
static __typeof__(&cuptiEnableDomain) p_enable_domain;
static __typeof__(&cuptiEnableCallback) p_enable_callback;
static __typeof__(&cuptiGetResultString) p_result_string;
static __typeof__(&cuptiGetCallbackName) p_callback_name;
static __typeof__(&cuptiActivityEnable) p_activity_enable;
static __typeof__(&cuptiActivityConfigureUnifiedMemoryCounter) p_configure_unified_memory;
static __typeof__(&cuptiActivityRegisterCallbacks) p_register_callbacks;
static __typeof__(&cuptiActivityRegisterTimestampCallback) p_register_timestamp;
static __typeof__(&cuptiActivityGetNextRecord) p_next_record;
static __typeof__(&cuptiActivityFlushAll) p_flush_all;
static __typeof__(&cuptiGetVersion) p_get_version;
static __typeof__(&cuptiGetStreamIdEx) p_stream_id;
static __typeof__(&cuptiActivitySetAttribute) p_set_attribute;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static int domains = DOM_ALL;
static int tracing;       /* CUPTI activity tracing is set up */
static int flushed_final; /* atomic: the exit flush ran */
static unsigned flush_ms = 100;
int verbose;
static int api_args = 1;
static size_t buffer_size = 8u << 20;
static size_t device_buffer_size; /* 0: CUPTI's default */

/* per thread: which (domain, cbid) names this thread's ring has had */
static __thread uint64_t names_seen[2][CBID_BITS / 64];

void notice(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    fprintf(stderr, "[rocprof-sys][cuda] %s\n", buf);
}

uint64_t CUPTIAPI monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *result_text(CUptiResult r)
{
    const char *s = NULL;
    if (p_result_string == NULL || p_result_string(r, &s) != CUPTI_SUCCESS || s == NULL) {
        return "unknown CUPTI error";
    }
    return s;
}

/* ---------------------------------------------------------------------------------------------
 * Finding libcupti
 */
struct cudart_dir {
    char path[4096];
};

static int find_cudart(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *name = info->dlpi_name;
    const char *base = name != NULL ? strrchr(name, '/') : NULL;
    if (base != NULL && strncmp(base + 1, "libcudart.so", 12) == 0) {
        struct cudart_dir *d = data;
        size_t len = (size_t)(base - name);
        if (len < sizeof d->path) {
            memcpy(d->path, name, len);
            d->path[len] = 0;
            return 1;
        }
    }
    return 0;
}

static void *try_open(const char *dir, const char *sub, char *tried, size_t tried_cap)
{
    static const char *const names[] = {"libcupti.so", "libcupti.so.13", "libcupti.so.12"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4200];
        if (dir == NULL) {
            snprintf(path, sizeof path, "%s", names[i]);
        } else {
            snprintf(path, sizeof path, "%s%s/%s", dir, sub, names[i]);
            if (access(path, R_OK) != 0) {
                continue;
            }
        }
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h != NULL) {
            if (verbose) {
                notice("loaded %s", path);
            }
            return h;
        }
        size_t at = strlen(tried);
        snprintf(tried + at, tried_cap - at, "%s%s (%s)", at ? ", " : "", path, dlerror());
    }
    return NULL;
}

static void *load_cupti(void)
{
    char tried[2048] = "";
    const char *explicit_path = getenv("ROCPROFSYS_CUPTI_LIBRARY");
    if (explicit_path != NULL && *explicit_path) {
        void *h = dlopen(explicit_path, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            notice("ROCPROFSYS_CUPTI_LIBRARY=%s cannot be loaded (%s): CUDA activity is not traced",
                   explicit_path, dlerror());
        }
        return h;
    }
    static const char *const subs[] = {"", "/../extras/CUPTI/lib64"};
    struct cudart_dir cudart = {.path = ""};
    dl_iterate_phdr(find_cudart, &cudart);
    if (cudart.path[0]) { /* the toolkit the program was built with */
        for (size_t s = 0; s < 2; s++) {
            void *h = try_open(cudart.path, subs[s], tried, sizeof tried);
            if (h != NULL) {
                return h;
            }
        }
    }
    static const char *const roots[] = {"CUDA_HOME", "CUDA_PATH", NULL};
    static const char *const under[] = {"/targets/x86_64-linux/lib", "/lib64", "/extras/CUPTI/lib64"};
    for (size_t r = 0; r < 3; r++) {
        const char *root = roots[r] != NULL ? getenv(roots[r]) : "/usr/local/cuda";
        if (root == NULL || !*root) {
            continue;
        }
        char dir[4096];
        for (size_t u = 0; u < sizeof under / sizeof under[0]; u++) {
            snprintf(dir, sizeof dir, "%s%s", root, under[u]);
            void *h = try_open(dir, "", tried, sizeof tried);
            if (h != NULL) {
                return h;
            }
        }
    }
    void *h = try_open(NULL, "", tried, sizeof tried); /* the loader path */
    if (h == NULL) {
        notice("CUPTI (libcupti.so) was not found: CUDA activity is not traced; set CUDA_HOME or "
               "ROCPROFSYS_CUPTI_LIBRARY (tried %s)",
               tried[0] ? tried : "nothing");
    }
    return h;
}

#define RESOLVE(var, sym)                                                                          \
    do {                                                                                           \
        *(void **)&var = dlsym(cupti, #sym);                                                       \
        if (var == NULL) {                                                                         \
            notice("libcupti has no %s: CUDA activity is not traced", #sym);                       \
            return 0;                                                                              \
        }                                                                                          \
    } while (0)

static int resolve_cupti(void)
{
    RESOLVE(p_result_string, cuptiGetResultString);
    RESOLVE(p_subscribe, cuptiSubscribe);
    RESOLVE(p_enable_domain, cuptiEnableDomain);
    RESOLVE(p_enable_callback, cuptiEnableCallback);
    RESOLVE(p_callback_name, cuptiGetCallbackName);
    RESOLVE(p_activity_enable, cuptiActivityEnable);
    RESOLVE(p_configure_unified_memory, cuptiActivityConfigureUnifiedMemoryCounter);
    RESOLVE(p_register_callbacks, cuptiActivityRegisterCallbacks);
    RESOLVE(p_register_timestamp, cuptiActivityRegisterTimestampCallback);
    RESOLVE(p_next_record, cuptiActivityGetNextRecord);
    RESOLVE(p_flush_all, cuptiActivityFlushAll);
    RESOLVE(p_get_version, cuptiGetVersion);
    RESOLVE(p_stream_id, cuptiGetStreamIdEx);
    RESOLVE(p_set_attribute, cuptiActivitySetAttribute);
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * API and NVTX callbacks (on the calling thread)
 */
static void write_api_name(uint32_t dom, uint32_t cbid)
{
    const char *name = NULL;
    if (p_callback_name((CUpti_CallbackDomain)dom, cbid, &name) != CUPTI_SUCCESS || name == NULL) {
        name = "";
    }
    uint32_t ids[2] = {cbid, 0};
    struct rocprofsys_gpu_part parts[2] = {{ids, 8, 0}, {name, 0, RSYS_GPU_PART_STRING}};
    if (agent_record(RSYS_REC_CUDA_API_NAME, dom, parts, 2)) {
        names_seen[dom - 1][cbid / 64] |= 1ull << (cbid % 64);
    }
}

/*
 * The optional tail of a CUDA_API record (docs/wire-protocol.md): the stream's id, the params
 * struct raw, then the output pointer's target when the call has one.
 */
struct api_args_head {
    uint32_t stream_id; /* CUPTI's id of the stream argument; UINT32_MAX: none or unknown */
    uint16_t params_size;
    uint16_t has_out;
};

/*
 * CUPTI's stream id of a (context, stream handle, per-thread default) triple. cuptiGetStreamIdEx
 * costs about as much as the rest of the callback (0.5 us a launch on the H100 VM), so each thread
 * remembers the last few. A stream or context destroyed through the runtime (whose calls this
 * callback sees) bumps a generation that empties every thread's cache: a new stream may get the
 * handle of a destroyed one. With the driver API domain on, the driver's destroy calls do too.
 */
#define STREAM_CACHE 8
struct stream_entry {
    const void *context, *stream;
    uint32_t per_thread, id;
};
static __thread struct {
    uint64_t generation;
    uint32_t next;
    struct stream_entry entries[STREAM_CACHE];
} stream_cache;
static uint64_t stream_generation = 1; /* atomic */

static int stream_id(CUcontext context, CUstream stream, uint8_t per_thread, uint32_t *id)
{
    uint64_t generation = __atomic_load_n(&stream_generation, __ATOMIC_ACQUIRE);
    if (stream_cache.generation != generation) {
        memset(&stream_cache, 0, sizeof stream_cache);
        stream_cache.generation = generation;
    }
    for (uint32_t i = 0; i < STREAM_CACHE; i++) {
        const struct stream_entry *e = &stream_cache.entries[i];
        if (e->context == (const void *)context && e->stream == (const void *)stream &&
            e->per_thread == per_thread) {
            *id = e->id;
            return 1;
        }
    }
    if (p_stream_id(context, stream, per_thread, id) != CUPTI_SUCCESS) {
        return 0;
    }
    stream_cache.entries[stream_cache.next++ % STREAM_CACHE] =
        (struct stream_entry){(const void *)context, (const void *)stream, per_thread, *id};
    return 1;
}

static int destroys_streams(uint32_t dom, uint32_t cbid)
{
    if (dom == CUPTI_CB_DOMAIN_RUNTIME_API) {
        return cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v3020 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamDestroy_v5050 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020 ||
               cbid == CUPTI_RUNTIME_TRACE_CBID_cudaThreadExit_v3020;
    }
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy || cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2 ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy || cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2 ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset ||
           cbid == CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2;
}

static void on_api(uint32_t dom, uint32_t cbid, const CUpti_CallbackData *d)
{
#ifdef RSYS_CUDA_BENCH_NULL_CALLBACK
    /* benchmark build only: CUPTI's dispatch with nothing recorded */
    (void)dom;
    (void)cbid;
    (void)d;
    return;
#endif
    if (d->callbackSite == CUPTI_API_ENTER) {
        *d->correlationData = monotonic_ns();
        return;
    }
    uint64_t end = monotonic_ns();
    if (destroys_streams(dom, cbid)) {
        __atomic_fetch_add(&stream_generation, 1, __ATOMIC_ACQ_REL);
    }
    if (cbid >= CBID_BITS) {
        return; /* newer than this library's tables: not recorded */
    }
    if (!(names_seen[dom - 1][cbid / 64] & (1ull << (cbid % 64)))) {
        write_api_name(dom, cbid);
    }
    struct {
        uint64_t begin, end;
        uint32_t cbid, correlation;
    } r = {*d->correlationData, end, cbid, d->correlationId};
    const struct arg_spec *a = &arg_specs[dom - 1][cbid];
    if (!api_args || a->size == 0 || d->functionParams == NULL) {
        struct rocprofsys_gpu_part part = {&r, sizeof r, 0};
        agent_record(RSYS_REC_CUDA_API, dom, &part, 1);
        return;
    }
    void *const *params = d->functionParams;
    struct api_args_head head = {UINT32_MAX, a->size, a->out >= 0};
    if (a->stream >= 0 && d->context != NULL) {
        uint32_t id;
        if (stream_id(d->context, (CUstream)params[a->stream], a->per_thread, &id)) {
            head.stream_id = id;
        }
    }
    uint64_t out = 0;
    if (a->out >= 0 && params[a->out] != NULL && d->functionReturnValue != NULL &&
        *(const int *)d->functionReturnValue == 0) {
        out = *(const uint64_t *)params[a->out];
    }
    static const uint64_t zero = 0;
    struct rocprofsys_gpu_part parts[5] = {
        {&r, sizeof r, 0},
        {&head, sizeof head, 0},
        {params, a->size, 0},
        {&zero, (uint32_t)((8 - a->size % 8) % 8), 0},
        {&out, sizeof out, 0},
    };
    agent_record(RSYS_REC_CUDA_API, dom, parts, head.has_out ? 5 : 4);
}

/* An NVTX message as UTF-8 (wide strings narrowed to their ASCII characters). */
static const char *attr_message(const nvtxEventAttributes_t *a, char *wide_buf, size_t cap)
{
    if (a == NULL) {
        return "";
    }
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: return a->message.ascii != NULL ? a->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE: {
        size_t n = 0;
        for (const wchar_t *w = a->message.unicode; w != NULL && *w && n + 1 < cap; w++) {
            wide_buf[n++] = *w < 128 ? (char)*w : '?';
        }
        wide_buf[n] = 0;
        return wide_buf;
    }
    default: return "";
    }
}

static const char *wide_message(const wchar_t *w, char *buf, size_t cap)
{
    size_t n = 0;
    for (; w != NULL && *w && n + 1 < cap; w++) {
        buf[n++] = *w < 128 ? (char)*w : '?';
    }
    buf[n] = 0;
    return buf;
}

static void on_nvtx(uint32_t cbid, const CUpti_NvtxData *d)
{
    uint64_t now = monotonic_ns();
    const void *p = d->functionParams;
    const void *ret = d->functionReturnValue;
    char wide[512];
    const char *msg = "";
    uint64_t id = 0;
    uint64_t domain = 0;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxMarkA:
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
    case CUPTI_CBID_NVTX_nvtxRangePushA: msg = ((const nvtxMarkA_params *)p)->message; break;
    case CUPTI_CBID_NVTX_nvtxMarkW:
    case CUPTI_CBID_NVTX_nvtxRangeStartW:
    case CUPTI_CBID_NVTX_nvtxRangePushW:
        msg = wide_message(((const nvtxMarkW_params *)p)->message, wide, sizeof wide);
        break;
    case CUPTI_CBID_NVTX_nvtxMarkEx:
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
        msg = attr_message(((const nvtxMarkEx_params *)p)->eventAttrib, wide, sizeof wide);
        break;
    case CUPTI_CBID_NVTX_nvtxRangeEnd: id = ((const nvtxRangeEnd_params *)p)->id; break;
    case CUPTI_CBID_NVTX_nvtxRangePop: break;
    case CUPTI_CBID_NVTX_nvtxDomainMarkEx:
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx:
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
        const nvtxDomainMarkEx_params *q = p;
        domain = (uint64_t)(uintptr_t)q->domain;
        msg = attr_message(q->core.eventAttrib, wide, sizeof wide);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd: {
        const nvtxDomainRangeEnd_params *q = p;
        domain = (uint64_t)(uintptr_t)q->domain;
        id = q->core.id;
        break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        domain = (uint64_t)(uintptr_t)((const nvtxDomainRangePop_params *)p)->domain;
        break;
    case CUPTI_CBID_NVTX_nvtxDomainCreateA:
        msg = ((const nvtxDomainCreateA_params *)p)->name;
        if (ret != NULL) {
            id = (uint64_t)(uintptr_t) * (const nvtxDomainHandle_t *)ret;
        }
        break;
    default: return; /* naming, sync and resource calls are not recorded */
    }
    if ((cbid == CUPTI_CBID_NVTX_nvtxRangeStartA || cbid == CUPTI_CBID_NVTX_nvtxRangeStartW ||
         cbid == CUPTI_CBID_NVTX_nvtxRangeStartEx || cbid == CUPTI_CBID_NVTX_nvtxDomainRangeStartEx) &&
        ret != NULL) {
        id = *(const nvtxRangeId_t *)ret;
    }
    uint64_t head[3] = {now, id, domain};
    struct rocprofsys_gpu_part parts[2] = {{head, sizeof head, 0},
                                           {msg != NULL ? msg : "", 0, RSYS_GPU_PART_STRING}};
    agent_record(RSYS_REC_CUDA_NVTX, cbid, parts, 2);
}

/* Set while the unified-memory counters wait for the driver: CUPTI configures them only after
 * cuInit, and the injection library runs inside cuInit, so the first context creation does it. */
static int um_pending;
static void enable_unified_memory(void);

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)userdata;
    switch (dom) {
    case CUPTI_CB_DOMAIN_RUNTIME_API: on_api((uint32_t)dom, cbid, data); break;
    case CUPTI_CB_DOMAIN_DRIVER_API:
        /* with counters on, the launch callbacks come whether the driver domain is traced or not */
        if (counters_on) {
            counters_on_driver_api(cbid, data);
        }
        if (domains & DOM_DRIVER) {
            on_api((uint32_t)dom, cbid, data);
        }
        break;
    case CUPTI_CB_DOMAIN_NVTX: on_nvtx(cbid, data); break;
    case CUPTI_CB_DOMAIN_RESOURCE:
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && __atomic_exchange_n(&um_pending, 0, __ATOMIC_ACQ_REL)) {
            enable_unified_memory();
        }
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && counters_on) {
            counters_on_context_created();
        }
        break;
    default: break;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Activity buffers
 */
static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* zeroed here (fresh pages from calloc's mmap cost nothing to zero), so that CUPTI does not
     * zero it on the application's thread (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER) */
    void *p = calloc(1, buffer_size);
    *buffer = p;
    *size = p != NULL ? buffer_size : 0;
    *max_records = 0;
}

/* The string fields of the kinds whose records carry any, in declaration order. */
static uint32_t record_strings(const CUpti_Activity *r, size_t raw, const char *out[2])
{
#define FIELD_FITS(type, field) (offsetof(type, field) + sizeof(const char *) <= raw)
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        if (!FIELD_FITS(CUpti_ActivityKernel10, name)) {
            return 0;
        }
        out[0] = ((const CUpti_ActivityKernel10 *)r)->name;
        return 1;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        if (!FIELD_FITS(CUpti_ActivityDevice5, name)) {
            return 0;
        }
        out[0] = ((const CUpti_ActivityDevice5 *)r)->name;
        return 1;
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        if (!FIELD_FITS(CUpti_ActivityMemory4, source)) {
            return 0;
        }
        out[0] = ((const CUpti_ActivityMemory4 *)r)->name;
        out[1] = ((const CUpti_ActivityMemory4 *)r)->source;
        return 2;
    default: return 0;
    }
#undef FIELD_FITS
}

static void write_activity(const CUpti_Activity *r, size_t raw)
{
    const char *strings[2] = {NULL, NULL};
    uint32_t n = record_strings(r, raw, strings);
    uint32_t sizes[2] = {(uint32_t)raw, n};
    static const uint64_t zero = 0;
    struct rocprofsys_gpu_part parts[5] = {
        {sizes, 8, 0},
        {r, (uint32_t)raw, 0},
        {&zero, (uint32_t)((8 - raw % 8) % 8), 0},
    };
    uint32_t np = 3;
    for (uint32_t i = 0; i < n; i++) {
        parts[np++] = (struct rocprofsys_gpu_part){strings[i] != NULL ? strings[i] : "", 0,
                                                   RSYS_GPU_PART_STRING};
    }
    agent_record(RSYS_REC_CUDA_ACTIVITY, (uint32_t)r->kind, parts, np);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    if (buffer == NULL) {
        return;
    }
    /* a record's raw size is the distance to the next one (CUPTI packs them); the last one ends
     * where the valid bytes end */
    CUpti_Activity *cur = NULL;
    if (valid > 0 && p_next_record(buffer, valid, &cur) == CUPTI_SUCCESS) {
        for (;;) {
            CUpti_Activity *next = cur;
            CUptiResult rc = p_next_record(buffer, valid, &next);
            size_t end = rc == CUPTI_SUCCESS ? (size_t)((uint8_t *)next - buffer) : valid;
            write_activity(cur, end - (size_t)((uint8_t *)cur - buffer));
            if (rc != CUPTI_SUCCESS) {
                break;
            }
            cur = next;
        }
    }
    free(buffer);
}

/* ---------------------------------------------------------------------------------------------
 * Flushing
 */
static void *flush_thread(void *arg)
{
    (void)arg;
    struct timespec period = {(time_t)(flush_ms / 1000), (long)(flush_ms % 1000) * 1000000L};
    while (!__atomic_load_n(&flushed_final, __ATOMIC_ACQUIRE)) {
        nanosleep(&period, NULL);
        if (__atomic_load_n(&flushed_final, __ATOMIC_ACQUIRE)) {
            break;
        }
        p_flush_all(0); /* every completed buffer, full or not */
    }
    return NULL;
}

static void final_flush(void)
{
    if (!tracing || __atomic_exchange_n(&flushed_final, 1, __ATOMIC_ACQ_REL)) {
        return;
    }
    counters_flush(1);
    p_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* ---------------------------------------------------------------------------------------------
 * Set-up (once, from whichever of the CUDA or NVTX entry points comes first)
 */
static void read_settings(void)
{
    const char *d = getenv("ROCPROFSYS_AGENT_CUDA_DOMAINS");
    if (d != NULL && *d) {
        domains = 0;
        char buf[512];
        snprintf(buf, sizeof buf, "%s", d);
        for (char *save = NULL, *tok = strtok_r(buf, ", ", &save); tok != NULL;
             tok = strtok_r(NULL, ", ", &save)) {
            for (size_t i = 0; i < sizeof domain_names / sizeof domain_names[0]; i++) {
                if (strcmp(tok, domain_names[i].name) == 0) {
                    domains |= domain_names[i].bit;
                }
            }
        }
    }
    const char *f = getenv("ROCPROFSYS_AGENT_CUDA_FLUSH_MS");
    if (f != NULL && *f) {
        flush_ms = (unsigned)strtoul(f, NULL, 10);
    }
    const char *v = getenv("ROCPROFSYS_AGENT_CUDA_VERBOSE");
    verbose = v != NULL && atoi(v) > 0;
    const char *a = getenv("ROCPROFSYS_AGENT_CUDA_API_ARGS");
    api_args = a == NULL || !*a || atoi(a) != 0;
    const char *b = getenv("ROCPROFSYS_AGENT_CUDA_BUFFER_KB");
    if (b != NULL && *b && strtoul(b, NULL, 10) >= 64) {
        buffer_size = (size_t)strtoul(b, NULL, 10) << 10;
    }
    const char *db = getenv("ROCPROFSYS_AGENT_CUDA_DEVICE_BUFFER_KB");
    if (db != NULL && *db && strtoul(db, NULL, 10) > 0) {
        device_buffer_size = (size_t)strtoul(db, NULL, 10) << 10;
    }
}

static void enable_kind(CUpti_ActivityKind kind, const char *what)
{
    CUptiResult rc = p_activity_enable(kind);
    if (rc != CUPTI_SUCCESS) {
        notice("CUPTI refused to record %s (%s)", what, result_text(rc));
    }
}

/* Migrations each way and the CPU and GPU page faults, for every device of the process (the
 * sample's single-device scope on drivers that refuse that). */
static void enable_unified_memory(void)
{
    static const CUpti_ActivityUnifiedMemoryCounterKind kinds[] = {
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
    };
    enum { N = sizeof kinds / sizeof kinds[0] };
    CUpti_ActivityUnifiedMemoryCounterConfig config[N];
    CUptiResult rc = CUPTI_ERROR_UNKNOWN;
    const CUpti_ActivityUnifiedMemoryCounterScope scopes[] = {
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_ALL_DEVICES,
        CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE,
    };
    for (size_t s = 0; s < 2 && rc != CUPTI_SUCCESS; s++) {
        for (int i = 0; i < N; i++) {
            config[i] = (CUpti_ActivityUnifiedMemoryCounterConfig){scopes[s], kinds[i], 0, 1};
        }
        rc = p_configure_unified_memory(config, N);
    }
    if (rc != CUPTI_SUCCESS) {
        notice("CUPTI refused unified-memory counters (%s): no migrations or page faults are traced",
               result_text(rc));
        return;
    }
    enable_kind(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER, "unified-memory counters");
}

static void setup(void)
{
    *(void **)&agent_record = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_record");
    *(void **)&agent_set_flush = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_set_flush");
    int (*active)(void);
    *(void **)&active = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_active");
    if (agent_record == NULL || agent_set_flush == NULL || active == NULL || !active()) {
        agent_record = NULL;
        return; /* no profiling session in this process: stay dormant */
    }
    read_settings();
    init_arg_specs();
    cupti = load_cupti();
    if (cupti == NULL || !resolve_cupti()) {
        return;
    }
    /* before any activity kind is enabled, so that every record has CLOCK_MONOTONIC times */
    CUptiResult rc = p_register_timestamp(monotonic_ns);
    if (rc != CUPTI_SUCCESS) {
        notice("CUPTI refused a CLOCK_MONOTONIC timestamp source (%s): CUDA activity is not traced",
               result_text(rc));
        return;
    }
    CUpti_SubscriberHandle subscriber;
    rc = p_subscribe(&subscriber, on_callback, NULL);
    int subscribed = rc == CUPTI_SUCCESS;
    if (rc != CUPTI_SUCCESS) {
        notice("CUPTI refused the callback subscription (%s), another CUDA profiling tool may be "
               "attached: CUDA API calls and NVTX ranges are not traced",
               result_text(rc));
    } else {
        if (domains & DOM_RUNTIME) {
            p_enable_domain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
        }
        if (domains & DOM_DRIVER) {
            p_enable_domain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
        }
        if (domains & DOM_NVTX) {
            p_enable_domain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
        }
    }
    uint8_t zeroed = 1;
    size_t attr_size = sizeof zeroed;
    p_set_attribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &attr_size, &zeroed);
    if (device_buffer_size > 0) {
        attr_size = sizeof device_buffer_size;
        rc = p_set_attribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &attr_size, &device_buffer_size);
        if (rc != CUPTI_SUCCESS) {
            notice("CUPTI refused a device buffer of %zu bytes (%s)", device_buffer_size, result_text(rc));
        }
    }
    rc = p_register_callbacks(buffer_requested, buffer_completed);
    if (rc != CUPTI_SUCCESS) {
        notice("CUPTI refused activity buffers (%s): CUDA kernels and copies are not traced",
               result_text(rc));
        return;
    }
    tracing = 1;
    enable_kind(CUPTI_ACTIVITY_KIND_DEVICE, "devices");
    enable_kind(CUPTI_ACTIVITY_KIND_CONTEXT, "contexts");
    if (domains & DOM_KERNEL) {
        enable_kind(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernels");
    }
    if (domains & DOM_MEMCPY) {
        enable_kind(CUPTI_ACTIVITY_KIND_MEMCPY, "memory copies");
        enable_kind(CUPTI_ACTIVITY_KIND_MEMCPY2, "peer memory copies");
    }
    if (domains & DOM_MEMSET) {
        enable_kind(CUPTI_ACTIVITY_KIND_MEMSET, "memsets");
    }
    if (domains & DOM_SYNC) {
        enable_kind(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronisations");
    }
    if (domains & DOM_ALLOC) {
        enable_kind(CUPTI_ACTIVITY_KIND_MEMORY2, "memory allocations");
    }
    if ((domains & DOM_UNIFIED_MEMORY) && subscribed) {
        um_pending = 1;
        rc = p_enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
        if (rc != CUPTI_SUCCESS) {
            um_pending = 0;
            notice("CUPTI refused the context callback (%s): no migrations or page faults are traced",
                   result_text(rc));
        }
    } else if (domains & DOM_UNIFIED_MEMORY) {
        notice("without a CUPTI callback subscription no migrations or page faults are traced");
    }
    if (subscribed) {
        counters_setup(subscriber);
    } else if (getenv("ROCPROFSYS_AGENT_CUDA_EVENTS") != NULL) {
        notice("without a CUPTI callback subscription no GPU counters are collected");
    }
    agent_set_flush(final_flush);
    if (flush_ms > 0) {
        pthread_t th;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&th, &attr, flush_thread, NULL) != 0) {
            notice("no flush thread (%s): GPU activity reaches the trace only at exit", strerror(errno));
        }
        pthread_attr_destroy(&attr);
    }
    if (verbose) {
        uint32_t version = 0;
        p_get_version(&version);
        notice("CUPTI API version %u: tracing (domains 0x%x, flush every %u ms)", version,
               (unsigned)domains, flush_ms);
    }
}

/* Called by the CUDA driver inside cuInit (CUDA_INJECTION64_PATH). */
RSYS_CUDA_EXPORT int InitializeInjection(void)
{
    pthread_once(&setup_once, setup);
    /* registered after CUDA's own exit handlers: runs before them, while contexts still live */
    static int registered;
    if (tracing && !__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL)) {
        atexit(final_flush);
    }
    return 1;
}

/* Called by the NVTX stubs on the first NVTX call (NVTX_INJECTION64_PATH): CUPTI's own NVTX
 * entry does the work, with our subscription to CUPTI_CB_DOMAIN_NVTX. */
RSYS_CUDA_EXPORT int InitializeInjectionNvtx2(const void *get_export_table)
{
    pthread_once(&setup_once, setup);
    if (cupti == NULL || agent_record == NULL || !(domains & DOM_NVTX)) {
        return 0;
    }
    int (*forward)(const void *);
    *(void **)&forward = dlsym(cupti, "InitializeInjectionNvtx2");
    return forward != NULL ? forward(get_export_table) : 0;
}
