/*
 * GPU counters per kernel through CUPTI's range profiler (CUDA 13: cupti_range_profiler.h for the
 * target side, cupti_profiler_host.h for configuration and evaluation), and the metric catalog
 * rocprof-sys-avail -H lists.
 *
 * ROCPROFSYS_AGENT_CUDA_EVENTS (set by the collector from ROCPROFSYS_CUDA_EVENTS) names the metrics
 * as CUPTI's profiling API knows them (smsp__inst_executed.sum, dram__bytes_read.sum, ...). At the
 * first kernel launch in a context the profiler is configured for that context in auto-range mode
 * with kernel replay: every kernel is one range, and CUPTI replays a kernel as often as the
 * metrics need passes, saving and restoring the memory it touches. Kernels are serialised while
 * counters are collected (docs/gpu.md, "Counters").
 *
 * The driver's launch callbacks (enter) note each launch's correlation id in launch order; after
 * ROCPROFSYS_AGENT_CUDA_COUNTER_BATCH launches (default 64, the ranges one counter-data image
 * holds), at the next launch, and at exit, the ranges are collected: the profiler stops, CUPTI
 * decodes the counter data and evaluates each range's metrics to GPU values, and one CUDA_COUNTERS
 * record per range carries the launch's correlation id and the values as CUPTI evaluated them
 * (doubles, in the order of the CUDA_COUNTER_NAMES record written when the context was set up).
 * The collector joins them to the kernels (org.rocprofsys.cuda.decode.CudaDecoder).
 */
#include "rsys_cuda.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_METRICS 32
#define MAX_CONTEXTS 16

int counters_on;

static char metric_text[4096];
static const char *metrics[MAX_METRICS];
static size_t n_metrics;
static size_t batch = 64;

static __typeof__(&cuptiProfilerInitialize) p_profiler_init;
static __typeof__(&cuptiDeviceGetChipName) p_chip_name;
static __typeof__(&cuptiProfilerGetCounterAvailability) p_availability;
static __typeof__(&cuptiGetDeviceId) p_device_id;
static __typeof__(&cuptiProfilerHostInitialize) p_host_init;
static __typeof__(&cuptiProfilerHostDeinitialize) p_host_deinit;
static __typeof__(&cuptiProfilerHostConfigAddMetrics) p_host_add;
static __typeof__(&cuptiProfilerHostGetConfigImageSize) p_host_config_size;
static __typeof__(&cuptiProfilerHostGetConfigImage) p_host_config;
static __typeof__(&cuptiProfilerHostGetNumOfPasses) p_host_passes;
static __typeof__(&cuptiProfilerHostEvaluateToGpuValues) p_host_evaluate;
static __typeof__(&cuptiProfilerHostGetRangeName) p_host_range_name;
static __typeof__(&cuptiProfilerHostGetBaseMetrics) p_host_base_metrics;
static __typeof__(&cuptiProfilerHostGetMetricProperties) p_host_properties;
static __typeof__(&cuptiRangeProfilerEnable) p_rp_enable;
static __typeof__(&cuptiRangeProfilerDisable) p_rp_disable;
static __typeof__(&cuptiRangeProfilerSetConfig) p_rp_set_config;
static __typeof__(&cuptiRangeProfilerStart) p_rp_start;
static __typeof__(&cuptiRangeProfilerStop) p_rp_stop;
static __typeof__(&cuptiRangeProfilerDecodeData) p_rp_decode;
static __typeof__(&cuptiRangeProfilerGetCounterDataSize) p_rp_data_size;
static __typeof__(&cuptiRangeProfilerCounterDataImageInitialize) p_rp_data_init;
static __typeof__(&cuptiRangeProfilerGetCounterDataInfo) p_rp_data_info;

struct launch {
    uint32_t correlation;
    uint64_t time_ns;
};

enum { CTX_NEW, CTX_COLLECTING, CTX_DONE, CTX_FAILED };

struct context_state {
    CUcontext ctx;
    uint32_t device;
    int state;
    CUpti_RangeProfiler_Object *profiler;
    CUpti_Profiler_Host_Object *host;
    uint8_t *config;
    size_t config_size;
    uint8_t *data;
    size_t data_size;
    struct launch *launches; /* batch entries, in launch order */
    size_t n_launches;
    uint32_t next_range; /* ranges of this context so far */
    int mismatch_told;
};

static struct context_state contexts[MAX_CONTEXTS];
static size_t n_contexts;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define FIND(var, sym) (*(void **)&(var) = dlsym(handle, #sym)) != NULL

static int resolve_host(void *handle)
{
    return FIND(p_host_init, cuptiProfilerHostInitialize) && FIND(p_host_deinit, cuptiProfilerHostDeinitialize) &&
           FIND(p_host_add, cuptiProfilerHostConfigAddMetrics) &&
           FIND(p_host_config_size, cuptiProfilerHostGetConfigImageSize) &&
           FIND(p_host_config, cuptiProfilerHostGetConfigImage) &&
           FIND(p_host_passes, cuptiProfilerHostGetNumOfPasses) &&
           FIND(p_host_evaluate, cuptiProfilerHostEvaluateToGpuValues) &&
           FIND(p_host_range_name, cuptiProfilerHostGetRangeName) &&
           FIND(p_host_base_metrics, cuptiProfilerHostGetBaseMetrics) &&
           FIND(p_host_properties, cuptiProfilerHostGetMetricProperties) &&
           FIND(p_chip_name, cuptiDeviceGetChipName);
}

static int resolve_target(void *handle)
{
    return FIND(p_profiler_init, cuptiProfilerInitialize) &&
           FIND(p_availability, cuptiProfilerGetCounterAvailability) && FIND(p_device_id, cuptiGetDeviceId) &&
           FIND(p_rp_enable, cuptiRangeProfilerEnable) && FIND(p_rp_disable, cuptiRangeProfilerDisable) &&
           FIND(p_rp_set_config, cuptiRangeProfilerSetConfig) && FIND(p_rp_start, cuptiRangeProfilerStart) &&
           FIND(p_rp_stop, cuptiRangeProfilerStop) && FIND(p_rp_decode, cuptiRangeProfilerDecodeData) &&
           FIND(p_rp_data_size, cuptiRangeProfilerGetCounterDataSize) &&
           FIND(p_rp_data_init, cuptiRangeProfilerCounterDataImageInitialize) &&
           FIND(p_rp_data_info, cuptiRangeProfilerGetCounterDataInfo);
}

int counters_setup(CUpti_SubscriberHandle subscriber)
{
    const char *e = getenv("ROCPROFSYS_AGENT_CUDA_EVENTS");
    if (e == NULL || !*e) {
        return 0;
    }
    snprintf(metric_text, sizeof metric_text, "%s", e);
    for (char *save = NULL, *tok = strtok_r(metric_text, ", ", &save); tok != NULL && n_metrics < MAX_METRICS;
         tok = strtok_r(NULL, ", ", &save)) {
        metrics[n_metrics++] = tok;
    }
    const char *b = getenv("ROCPROFSYS_AGENT_CUDA_COUNTER_BATCH");
    if (b != NULL && *b && strtoul(b, NULL, 10) > 0) {
        batch = strtoul(b, NULL, 10);
    }
    if (n_metrics == 0) {
        return 0;
    }
    if (!resolve_host(cupti) || !resolve_target(cupti)) {
        notice("this libcupti has no range profiler (CUDA 12.6 or later): GPU counters are not collected");
        return 0;
    }
    CUptiResult rc;
    static const CUpti_CallbackId launches[] = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunch,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    };
    __typeof__(&cuptiEnableCallback) enable_callback;
    *(void **)&enable_callback = dlsym(cupti, "cuptiEnableCallback");
    for (size_t i = 0; i < sizeof launches / sizeof launches[0]; i++) {
        rc = enable_callback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, launches[i]);
        if (rc != CUPTI_SUCCESS) {
            notice("CUPTI refused the kernel launch callbacks (%s): GPU counters are not collected",
                   result_text(rc));
            return 0;
        }
    }
    rc = enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    if (rc != CUPTI_SUCCESS && verbose) {
        notice("CUPTI refused the context callback (%s): the profiler starts at the first launch", result_text(rc));
    }
    counters_on = 1;
    return 1;
}

/*
 * cuptiProfilerInitialize fails inside cuInit, where the driver calls InitializeInjection: it runs
 * at the first context creation (resource callback) or, failing that, at the first launch.
 * Returns whether the profiler is initialised; after a second failure, counters are off.
 */
static int profiler_ready(const char *where)
{
    static int state; /* 0: not tried, 1: ready, -1: failed once, -2: given up */
    if (state == 1 || state == -2) {
        return state == 1;
    }
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUptiResult rc = p_profiler_init(&init);
    if (rc == CUPTI_SUCCESS) {
        state = 1;
        if (verbose) {
            notice("CUPTI's profiler initialised at %s", where);
        }
        return 1;
    }
    if (state == -1) {
        notice("CUPTI's profiler refused to start (%s, at %s): GPU counters are not collected", result_text(rc), where);
        state = -2;
        counters_on = 0;
        return 0;
    }
    if (verbose) {
        notice("CUPTI's profiler refused to start at %s (%s)", where, result_text(rc));
    }
    state = -1;
    return 0;
}

void counters_on_context_created(void)
{
    pthread_mutex_lock(&lock);
    profiler_ready("context creation");
    pthread_mutex_unlock(&lock);
}

static int is_launch(CUpti_CallbackId cbid)
{
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: return 1;
    default: return 0;
    }
}

/* One CUDA_COUNTER_NAMES record (docs/wire-protocol.md): u32 metrics, u32 passes, chip, names. */
static void write_names(const struct context_state *s, const char *chip, size_t passes)
{
    uint32_t head[2] = {(uint32_t)n_metrics, (uint32_t)passes};
    struct rocprofsys_gpu_part parts[2 + MAX_METRICS] = {{head, sizeof head, 0}, {chip, 0, RSYS_GPU_PART_STRING}};
    for (size_t i = 0; i < n_metrics; i++) {
        parts[2 + i] = (struct rocprofsys_gpu_part){metrics[i], 0, RSYS_GPU_PART_STRING};
    }
    agent_record(RSYS_REC_CUDA_COUNTER_NAMES, s->device, parts, (uint32_t)(2 + n_metrics));
}

static int fail(struct context_state *s, const char *what, CUptiResult rc)
{
    notice("CUPTI's range profiler refused %s on device %u (%s): GPU counters of this context are not "
           "collected",
           what, s->device, result_text(rc));
    s->state = CTX_FAILED;
    return 0;
}

/* The counter-data image emptied and the profiler started again (the next batch of ranges). */
static int arm(struct context_state *s)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params di = {.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    di.pRangeProfilerObject = s->profiler;
    di.counterDataSize = s->data_size;
    di.pCounterData = s->data;
    CUptiResult rc = p_rp_data_init(&di);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the counter data image", rc);
    }
    CUpti_RangeProfiler_SetConfig_Params sc = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = s->profiler;
    sc.configSize = s->config_size;
    sc.pConfig = s->config;
    sc.counterDataImageSize = s->data_size;
    sc.pCounterDataImage = s->data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = batch;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    rc = p_rp_set_config(&sc);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the configuration", rc);
    }
    CUpti_RangeProfiler_Start_Params st = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    st.pRangeProfilerObject = s->profiler;
    rc = p_rp_start(&st);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "to start", rc);
    }
    return 1;
}

/* Host object and configuration for the context's chip, the profiler enabled on the context. An
 * unknown metric stops counter collection in the whole process, with its name. */
static int begin_context(struct context_state *s)
{
    CUptiResult rc = p_device_id(s->ctx, &s->device);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the context's device", rc);
    }
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = s->device;
    rc = p_chip_name(&cn);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the chip name", rc);
    }
    CUpti_Profiler_GetCounterAvailability_Params av = {.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    av.ctx = s->ctx;
    rc = p_availability(&av);
    uint8_t *availability = NULL;
    if (rc == CUPTI_SUCCESS && av.counterAvailabilityImageSize > 0) {
        availability = malloc(av.counterAvailabilityImageSize);
        av.pCounterAvailabilityImage = availability;
        rc = p_availability(&av);
    }
    if (rc != CUPTI_SUCCESS) {
        free(availability);
        return fail(s, "the counter availability query (profiling may be restricted to admin users: "
                       "NVreg_RestrictProfilingToAdminUsers)",
                    rc);
    }
    CUpti_Profiler_Host_Initialize_Params hi = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = cn.pChipName;
    hi.pCounterAvailabilityImage = availability;
    rc = p_host_init(&hi);
    if (rc != CUPTI_SUCCESS) {
        free(availability);
        return fail(s, "the host configuration", rc);
    }
    s->host = hi.pHostObject;
    /* one at a time, so that a refusal names its metric */
    for (size_t i = 0; i < n_metrics; i++) {
        CUpti_Profiler_Host_ConfigAddMetrics_Params am = {.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        am.pHostObject = s->host;
        am.ppMetricNames = &metrics[i];
        am.numMetrics = 1;
        rc = p_host_add(&am);
        if (rc != CUPTI_SUCCESS) {
            notice("ROCPROFSYS_CUDA_EVENTS: '%s' is not a metric of %s (device %u; %s): no GPU counters are "
                   "collected. rocprof-sys-avail -H lists the metrics of this machine's GPUs; add a "
                   "rollup such as .sum, .avg, .max or .min to a counter's name",
                   metrics[i], cn.pChipName, s->device, result_text(rc));
            counters_on = 0;
            free(availability);
            s->state = CTX_FAILED;
            return 0;
        }
    }
    free(availability);
    CUpti_Profiler_Host_GetConfigImageSize_Params cs = {.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    cs.pHostObject = s->host;
    rc = p_host_config_size(&cs);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the configuration size", rc);
    }
    s->config_size = cs.configImageSize;
    s->config = malloc(s->config_size);
    CUpti_Profiler_Host_GetConfigImage_Params ci = {.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    ci.pHostObject = s->host;
    ci.configImageSize = s->config_size;
    ci.pConfigImage = s->config;
    rc = p_host_config(&ci);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the configuration image", rc);
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = s->config_size;
    np.pConfigImage = s->config;
    size_t passes = p_host_passes(&np) == CUPTI_SUCCESS ? np.numOfPasses : 0;
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = s->ctx;
    rc = p_rp_enable(&en);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "to be enabled", rc);
    }
    s->profiler = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params ds = {.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    ds.pRangeProfilerObject = s->profiler;
    ds.pMetricNames = metrics;
    ds.numMetrics = n_metrics;
    ds.maxNumOfRanges = batch;
    ds.maxNumRangeTreeNodes = (uint32_t)batch;
    rc = p_rp_data_size(&ds);
    if (rc != CUPTI_SUCCESS) {
        return fail(s, "the counter data size", rc);
    }
    s->data_size = ds.counterDataSize;
    s->data = calloc(1, s->data_size);
    s->launches = calloc(batch, sizeof *s->launches);
    if (s->config == NULL || s->data == NULL || s->launches == NULL) {
        return fail(s, "memory", CUPTI_ERROR_OUT_OF_MEMORY);
    }
    if (!arm(s)) {
        return 0;
    }
    write_names(s, cn.pChipName, passes);
    s->state = CTX_COLLECTING;
    if (verbose) {
        notice("device %u (%s): %zu metrics, %zu passes per kernel, %zu kernels per counter image of %zu bytes",
               s->device, cn.pChipName, n_metrics, passes, batch, s->data_size);
    }
    return 1;
}

/* One CUDA_COUNTERS record: u64 launch time, u32 correlation id, u32 range, u32 metrics, u32 flags
 * (1: the range has no launch of ours), the values (f64), the range's name. */
static void write_range(const struct context_state *s, size_t index, const double *values, const char *name)
{
    struct {
        uint64_t time_ns;
        uint32_t correlation, range, count, flags;
    } head = {0, 0, s->next_range, (uint32_t)n_metrics, 1};
    if (index < s->n_launches) {
        head.time_ns = s->launches[index].time_ns;
        head.correlation = s->launches[index].correlation;
        head.flags = 0;
    }
    struct rocprofsys_gpu_part parts[3] = {
        {&head, sizeof head, 0},
        {values, (uint32_t)(n_metrics * sizeof(double)), 0},
        {name != NULL ? name : "", 0, RSYS_GPU_PART_STRING},
    };
    agent_record(RSYS_REC_CUDA_COUNTERS, s->device, parts, 3);
}

/* Stops the profiler and writes the ranges it holds; restarts it unless `final`. */
static void collect(struct context_state *s, int final)
{
    CUpti_RangeProfiler_Stop_Params sp = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = s->profiler;
    CUptiResult rc = p_rp_stop(&sp);
    if (rc != CUPTI_SUCCESS) {
        fail(s, "to stop", rc);
        return;
    }
    CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dd.pRangeProfilerObject = s->profiler;
    rc = p_rp_decode(&dd);
    if (rc != CUPTI_SUCCESS) {
        fail(s, "to decode its counter data", rc);
        return;
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params di = {.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    di.pCounterDataImage = s->data;
    di.counterDataImageSize = s->data_size;
    rc = p_rp_data_info(&di);
    size_t ranges = rc == CUPTI_SUCCESS ? di.numTotalRanges : 0;
    double values[MAX_METRICS];
    for (size_t i = 0; i < ranges; i++) {
        CUpti_Profiler_Host_GetRangeName_Params rn = {.structSize = CUpti_Profiler_Host_GetRangeName_Params_STRUCT_SIZE};
        rn.pCounterDataImage = s->data;
        rn.counterDataImageSize = s->data_size;
        rn.rangeIndex = i;
        rn.delimiter = "/";
        const char *name = p_host_range_name(&rn) == CUPTI_SUCCESS ? rn.pRangeName : NULL;
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        ev.pHostObject = s->host;
        ev.pCounterDataImage = s->data;
        ev.counterDataImageSize = s->data_size;
        ev.rangeIndex = i;
        ev.ppMetricNames = metrics;
        ev.numMetrics = n_metrics;
        ev.pMetricValues = values;
        rc = p_host_evaluate(&ev);
        if (rc == CUPTI_SUCCESS) {
            write_range(s, i, values, name);
            if (verbose) {
                char text[1024];
                size_t at = 0;
                for (size_t m = 0; m < n_metrics && at < sizeof text; m++) {
                    at += (size_t)snprintf(text + at, sizeof text - at, " %s=%.17g", metrics[m], values[m]);
                }
                notice("device %u range %u (%s) correlation %u:%s", s->device, s->next_range, name ? name : "",
                       i < s->n_launches ? s->launches[i].correlation : 0, text);
            }
        } else {
            notice("CUPTI could not evaluate range %zu on device %u (%s)", i, s->device, result_text(rc));
        }
        s->next_range++;
        free((void *)name);
    }
    if ((ranges != s->n_launches || dd.numOfRangeDropped > 0) && !s->mismatch_told) {
        s->mismatch_told = 1;
        notice("device %u: %zu kernel launches gave %zu counter ranges (%zu dropped): counters may be "
               "attributed to the wrong kernels",
               s->device, s->n_launches, ranges, dd.numOfRangeDropped);
    }
    s->n_launches = 0;
    if (!final) {
        arm(s);
        return;
    }
    CUpti_RangeProfiler_Disable_Params dp = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    dp.pRangeProfilerObject = s->profiler;
    p_rp_disable(&dp);
    CUpti_Profiler_Host_Deinitialize_Params hd = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    hd.pHostObject = s->host;
    p_host_deinit(&hd);
    s->state = CTX_DONE;
}

static struct context_state *context_of(CUcontext ctx)
{
    for (size_t i = 0; i < n_contexts; i++) {
        if (contexts[i].ctx == ctx) {
            return &contexts[i];
        }
    }
    if (n_contexts == MAX_CONTEXTS) {
        return NULL;
    }
    struct context_state *s = &contexts[n_contexts++];
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    return s;
}

void counters_on_driver_api(CUpti_CallbackId cbid, const CUpti_CallbackData *d)
{
    if (!__atomic_load_n(&counters_on, __ATOMIC_ACQUIRE) || d->callbackSite != CUPTI_API_ENTER ||
        !is_launch(cbid) || d->context == NULL) {
        return;
    }
    uint64_t now = monotonic_ns();
    pthread_mutex_lock(&lock);
    struct context_state *s = profiler_ready("a kernel launch") ? context_of(d->context) : NULL;
    if (s != NULL && s->state == CTX_NEW) {
        begin_context(s);
    }
    if (s != NULL && s->state == CTX_COLLECTING) {
        if (s->n_launches == batch) {
            collect(s, 0);
        }
        if (s->state == CTX_COLLECTING) {
            s->launches[s->n_launches++] = (struct launch){d->correlationId, now};
        }
    }
    pthread_mutex_unlock(&lock);
}

void counters_flush(int final)
{
    if (n_metrics == 0) {
        return;
    }
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < n_contexts; i++) {
        if (contexts[i].state == CTX_COLLECTING) {
            collect(&contexts[i], final);
        }
    }
    pthread_mutex_unlock(&lock);
}

/* ---------------------------------------------------------------------------------------------
 * The metric catalog (rocprof-sys-avail -H; called by the collector's JVM through FFM)
 */
static const char *const metric_types[] = {"counter", "ratio", "throughput"};

static int catalog_chip(const char *chip, int device, FILE *out)
{
    CUpti_Profiler_Host_Initialize_Params hi = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip;
    CUptiResult rc = p_host_init(&hi);
    if (rc != CUPTI_SUCCESS) {
        fprintf(out, "error\t%d\t%s\tCUPTI's profiler host refused the chip (CUPTI error %d)\n", device, chip, (int)rc);
        return 0;
    }
    for (int t = 0; t < CUPTI_METRIC_TYPE__COUNT; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params bm = {.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        bm.pHostObject = hi.pHostObject;
        bm.metricType = (CUpti_MetricType)t;
        if (p_host_base_metrics(&bm) != CUPTI_SUCCESS) {
            continue;
        }
        for (size_t i = 0; i < bm.numMetrics; i++) {
            CUpti_Profiler_Host_GetMetricProperties_Params mp = {.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
            mp.pHostObject = hi.pHostObject;
            mp.pMetricName = bm.ppMetricNames[i];
            int ok = p_host_properties(&mp) == CUPTI_SUCCESS;
            fprintf(out, "metric\t%d\t%s\t%s\t%s\t%s\t%s\n", device, chip, bm.ppMetricNames[i], metric_types[t],
                    ok && mp.pDimUnit != NULL ? mp.pDimUnit : "",
                    ok && mp.pDescription != NULL ? mp.pDescription : "");
        }
    }
    CUpti_Profiler_Host_Deinitialize_Params hd = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    hd.pHostObject = hi.pHostObject;
    p_host_deinit(&hd);
    return 1;
}

/*
 * Writes the metrics of every CUDA device (or of `chip` alone, as device -1, when given) to the
 * file `path`,
 * one line each: `metric <TAB> device <TAB> chip <TAB> name <TAB> type <TAB> unit <TAB> description`,
 * and `error <TAB> device <TAB> chip <TAB> reason` lines for what could not be listed. Loads
 * libcupti and libcuda itself (the JVM has neither). Returns the number of devices listed, -1 when
 * CUPTI or the driver cannot be loaded (one error line says why).
 */
__attribute__((visibility("default"))) int rocprofsys_cuda_metric_catalog(const char *chip, const char *path)
{
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        return -1;
    }
    int listed = -1;
    const char *lib = getenv("ROCPROFSYS_CUPTI_LIBRARY");
    static const char *const cupti_names[] = {"libcupti.so", "/usr/local/cuda/lib64/libcupti.so",
                                              "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so", "libcupti.so.13"};
    void *handle = lib != NULL && *lib ? dlopen(lib, RTLD_NOW | RTLD_LOCAL) : NULL;
    for (size_t i = 0; handle == NULL && i < sizeof cupti_names / sizeof cupti_names[0]; i++) {
        handle = dlopen(cupti_names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL || !resolve_host(handle)) {
        fprintf(out, "error\t-1\t\tCUPTI with the profiler host API (CUDA 12.6 or later) was not found\n");
        goto done;
    }
    if (chip != NULL && *chip) {
        listed = catalog_chip(chip, -1, out);
        goto done;
    }
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    CUresult (*cu_init)(unsigned) = NULL;
    CUresult (*cu_count)(int *) = NULL;
    if (cuda != NULL) {
        *(void **)&cu_init = dlsym(cuda, "cuInit");
        *(void **)&cu_count = dlsym(cuda, "cuDeviceGetCount");
    }
    int devices = 0;
    if (cu_init == NULL || cu_count == NULL || cu_init(0) != CUDA_SUCCESS || cu_count(&devices) != CUDA_SUCCESS) {
        fprintf(out, "error\t-1\t\tno CUDA driver or device\n");
        listed = 0;
        goto done;
    }
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (!resolve_target(handle) || p_profiler_init(&init) != CUPTI_SUCCESS) {
        fprintf(out, "error\t-1\t\tCUPTI's profiler could not be initialised\n");
        goto done;
    }
    listed = 0;
    for (int d = 0; d < devices; d++) {
        CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
        cn.deviceIndex = (size_t)d;
        CUptiResult rc = p_chip_name(&cn);
        if (rc != CUPTI_SUCCESS) {
            fprintf(out, "error\t%d\t\tno chip name (CUPTI error %d)\n", d, (int)rc);
            continue;
        }
        listed += catalog_chip(cn.pChipName, d, out);
    }
done:
    fclose(out);
    return listed;
}
