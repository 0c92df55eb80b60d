/*
 * A replay rocprofiler-sdk for tests: librocprofiler-sdk.so of our own that implements the SDK
 * entry points the ROCm tool calls, loads the tool the way the SDK does (every library named in
 * ROCP_TOOL_LIBRARIES, then rocprofiler_configure where the process already has one), and lets a
 * test program (replay_app.c) replay what the SDK would deliver for a HIP program: API callbacks
 * (enter/exit, with the SDK's record and payload layouts), HIP stream announcements, kernel symbol
 * registrations, and buffer records (kernel dispatches, memory copies, scratch memory) handed to
 * the tool's buffer callback when it flushes. Every struct is laid out as SDK 1.0.0 lays it out
 * (rsys_rocm_sdk.h, checked against the headers); operation ids of HIP/HSA/RCCL/rocDecode/rocJPEG
 * are assigned here in order of first use (the tool takes names from
 * rocprofiler_query_callback_tracing_kind_operation_name), roctx's are the SDK's.
 * Timestamps are CLOCK_BOOTTIME, so the collector's conversion to CLOCK_MONOTONIC is exercised.
 * Test code only.
 */
#include "replay_sdk.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- configuration the tool made ---------------------------------------------------------------- */
static rsdk_callback_tracing_cb_t callbacks[RSDK_CB_LAST];
static void *callback_data[RSDK_CB_LAST];
static int buffered[RSDK_BUF_LAST];
static rsdk_buffer_tracing_cb_t buffer_cb;
static void *buffer_cb_data;
static int started;
static int refuse_kind = -1;
static rsdk_tool_configure_result_t *tool;

/* ---- operation names -------------------------------------------------------------------------------- */
#define MAX_OPS 512
static struct {
    int32_t kind;
    char name[96];
} ops[MAX_OPS];
static int nops;

static int32_t op_id(int32_t kind, const char *name)
{
    static const char *roctx[] = {"roctxMarkA",       "roctxRangePushA", "roctxRangePop",
                                  "roctxRangeStartA", "roctxRangeStop",  "roctxGetThreadId"};
    if (kind == RSDK_CB_MARKER_CORE_API) {
        for (int32_t i = 0; i < 6; i++) {
            if (strcmp(roctx[i], name) == 0) {
                return i;
            }
        }
    }
    pthread_mutex_lock(&lock);
    int32_t id = 0;
    for (int i = 0; i < nops; i++) {
        if (ops[i].kind == kind) {
            if (strcmp(ops[i].name, name) == 0) {
                pthread_mutex_unlock(&lock);
                return id;
            }
            id++;
        }
    }
    if (nops < MAX_OPS) {
        ops[nops].kind = kind;
        snprintf(ops[nops].name, sizeof ops[nops].name, "%s", name);
        nops++;
    }
    pthread_mutex_unlock(&lock);
    return id;
}

static const char *op_name(int32_t kind, int32_t op)
{
    static const char *roctx[] = {"roctxMarkA",       "roctxRangePushA", "roctxRangePop",
                                  "roctxRangeStartA", "roctxRangeStop",  "roctxGetThreadId"};
    if (kind == RSDK_CB_MARKER_CORE_API) {
        return op >= 0 && op < 6 ? roctx[op] : NULL;
    }
    int32_t id = 0;
    for (int i = 0; i < nops; i++) {
        if (ops[i].kind == kind) {
            if (id == op) {
                return ops[i].name;
            }
            id++;
        }
    }
    return NULL;
}

/* ---- the SDK's entry points ------------------------------------------------------------------------ */

uint64_t replay_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_BOOTTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

EXPORT rsdk_status_t rocprofiler_get_timestamp(uint64_t *ts)
{
    *ts = replay_now();
    return RSDK_STATUS_SUCCESS;
}

EXPORT const char *rocprofiler_get_status_string(rsdk_status_t s)
{
    return s == RSDK_STATUS_SUCCESS ? "ROCPROFILER_STATUS_SUCCESS"
                                    : "ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED";
}

static uint64_t contexts;

EXPORT rsdk_status_t rocprofiler_create_context(rsdk_context_id_t *ctx)
{
    ctx->handle = __atomic_add_fetch(&contexts, 1, __ATOMIC_RELAXED);
    return RSDK_STATUS_SUCCESS;
}

EXPORT rsdk_status_t rocprofiler_start_context(rsdk_context_id_t ctx)
{
    (void)ctx;
    started = 1;
    return RSDK_STATUS_SUCCESS;
}

EXPORT rsdk_status_t rocprofiler_configure_callback_tracing_service(rsdk_context_id_t ctx, int32_t kind,
                                                                    const int32_t *operations, size_t n,
                                                                    rsdk_callback_tracing_cb_t cb, void *data)
{
    (void)ctx, (void)operations, (void)n;
    if (kind <= 0 || kind >= RSDK_CB_LAST) {
        return 1;
    }
    if (kind == refuse_kind) {
        return 12; /* ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED, as a locked SDK answers */
    }
    callbacks[kind] = cb;
    callback_data[kind] = data;
    return RSDK_STATUS_SUCCESS;
}

EXPORT rsdk_status_t rocprofiler_create_buffer(rsdk_context_id_t ctx, size_t size, size_t watermark, int policy,
                                               rsdk_buffer_tracing_cb_t cb, void *data, rsdk_buffer_id_t *id)
{
    (void)ctx, (void)size, (void)watermark, (void)policy;
    buffer_cb = cb;
    buffer_cb_data = data;
    id->handle = 7;
    return RSDK_STATUS_SUCCESS;
}

EXPORT rsdk_status_t rocprofiler_configure_buffer_tracing_service(rsdk_context_id_t ctx, int32_t kind,
                                                                  const int32_t *operations, size_t n,
                                                                  rsdk_buffer_id_t buffer)
{
    (void)ctx, (void)operations, (void)n, (void)buffer;
    if (kind <= 0 || kind >= RSDK_BUF_LAST) {
        return 1;
    }
    buffered[kind] = 1;
    return RSDK_STATUS_SUCCESS;
}

EXPORT rsdk_status_t rocprofiler_query_callback_tracing_kind_operation_name(int32_t kind, int32_t op,
                                                                            const char **name, uint64_t *len)
{
    const char *n = op_name(kind, op);
    if (n == NULL) {
        return 1;
    }
    *name = n;
    if (len != NULL) {
        *len = strlen(n);
    }
    return RSDK_STATUS_SUCCESS;
}

/* the arguments of the call being delivered on this thread */
static __thread const struct replay_arg *current_args;
static __thread int current_nargs;

EXPORT rsdk_status_t rocprofiler_iterate_callback_tracing_kind_operation_args(rsdk_callback_record_t record,
                                                                              rsdk_operation_args_cb_t cb,
                                                                              int32_t max_deref, void *data)
{
    (void)max_deref;
    for (int i = 0; i < current_nargs; i++) {
        if (cb(record.kind, record.operation, (uint32_t)i, NULL, 0, "", current_args[i].name, current_args[i].value,
               0, data) != 0) {
            break;
        }
    }
    return RSDK_STATUS_SUCCESS;
}

/* ---- agents ----------------------------------------------------------------------------------------- */

static unsigned char agent_bytes[3][RSDK_AGENT_SIZE];
static const char *agent_strings[3][4] = {
    {"AMD EPYC 9654", "CPU", "AMD EPYC 9654 96-Core Processor", ""},
    {"gfx942", "AMD", "AMD Instinct MI300X", "ig_mi300x"},
    {"gfx942", "AMD", "AMD Instinct MI300X", "ig_mi300x"},
};

static void build_agents(void)
{
    static int built;
    if (built) {
        return;
    }
    built = 1;
    for (int i = 0; i < 3; i++) {
        unsigned char *a = agent_bytes[i];
        memset(a, 0, RSDK_AGENT_SIZE);
        *(uint64_t *)a = RSDK_AGENT_SIZE;
        *(uint64_t *)(a + RSDK_AGENT_ID) = replay_agent_handle(i);
        *(int32_t *)(a + RSDK_AGENT_TYPE) = i == 0 ? RSDK_AGENT_TYPE_CPU : RSDK_AGENT_TYPE_GPU;
        *(uint32_t *)(a + RSDK_AGENT_CU_COUNT) = i == 0 ? 0 : 304;
        *(uint32_t *)(a + RSDK_AGENT_GFX_TARGET_VERSION) = i == 0 ? 0 : 90402;
        *(uint64_t *)(a + RSDK_AGENT_LOCAL_MEM_SIZE) = i == 0 ? 0 : 205822885888ull;
        for (int s = 0; s < 4; s++) {
            *(const char **)(a + RSDK_AGENT_NAME + 8 * s) = agent_strings[i][s];
        }
        *(uint32_t *)(a + RSDK_AGENT_NODE_ID) = (uint32_t)i;
        *(int32_t *)(a + RSDK_AGENT_LOGICAL_NODE_ID) = i;
        *(int32_t *)(a + RSDK_AGENT_LOGICAL_NODE_TYPE_ID) = i == 0 ? 0 : i - 1;
        /* uuid: 16 bytes */
        for (int b = 0; b < 16; b++) {
            a[RSDK_AGENT_UUID + b] = (unsigned char)(i == 0 ? 0 : 0x10 * i + b);
        }
    }
}

uint64_t replay_agent_handle(int index)
{
    return 0x1000u + (uint64_t)index;
}

EXPORT rsdk_status_t rocprofiler_query_available_agents(int version, rsdk_query_agents_cb_t cb, size_t size,
                                                        void *data)
{
    (void)size;
    build_agents(); /* also outside a profiled program: rocprof-sys-avail -H lists the counters */
    const void *list[3] = {agent_bytes[0], agent_bytes[1], agent_bytes[2]};
    return cb(version, list, 3, data);
}

/* ---- counters: a catalog per GPU agent, configs, the dispatch counting service ---------------------
 * Every GPU has the same six counters (ids 0x10000 * (gpu + 1) + k). Their values per dispatch follow
 * from the dispatch so that tests know them: SQ_WAVES = ceil(grid / 64) (one instance), SQ_INSTS_VALU
 * = 20 per wave over 4 instances, GRBM_COUNT = the duration in ns (one instance), GRBM_GUI_ACTIVE =
 * the same, TA_TA_BUSY = half the duration over 16 instances, TCC_HIT = grid over 16 instances. An
 * instance id is the counter id plus the instance index in bits 48 and up, so only
 * rocprofiler_query_record_counter_id gives the counter. */
static const struct {
    const char *name, *description, *block;
    int instances;
} catalog[] = {
    {"GRBM_COUNT", "Tie High - Count Number of Clocks", "GRBM", 1},
    {"GRBM_GUI_ACTIVE", "The GUI is Active", "GRBM", 1},
    {"SQ_WAVES", "Count number of waves sent to SQs. (per-simd, emulated, global)", "SQ", 1},
    {"SQ_INSTS_VALU", "Number of VALU instructions issued. (per-simd, emulated)", "SQ", 4},
    {"TA_TA_BUSY", "TA block is busy. Perf_Windowing not supported for this counter.", "TA", 16},
    {"TCC_HIT", "Number of cache hits.", "TCC", 16},
};
#define NCATALOG (int)(sizeof catalog / sizeof catalog[0])

static double counter_value(int k, uint64_t grid, uint64_t duration_ns)
{
    uint64_t waves = (grid + 63) / 64;
    switch (k) {
    case 0:
    case 1:
        return (double)duration_ns;
    case 2:
        return (double)waves;
    case 3:
        return (double)waves * 20 / 4;
    case 4:
        return (double)duration_ns / 2 / 16;
    default:
        return (double)grid / 16;
    }
}

EXPORT rsdk_status_t rocprofiler_iterate_agent_supported_counters(uint64_t agent, rsdk_available_counters_cb_t cb,
                                                                  void *data)
{
    int gpu = (int)(agent - replay_agent_handle(1));
    if (gpu < 0 || gpu > 1) {
        return 1; /* not a GPU agent */
    }
    uint64_t ids[NCATALOG];
    for (int k = 0; k < NCATALOG; k++) {
        ids[k] = 0x10000ull * (uint64_t)(gpu + 1) + (uint64_t)k;
    }
    return cb(agent, ids, NCATALOG, data);
}

EXPORT rsdk_status_t rocprofiler_query_counter_info(uint64_t id, int version, void *info)
{
    int k = (int)(id & 0xffff);
    if (version != RSDK_COUNTER_INFO_VERSION_0 || k >= NCATALOG || (id >> 16) < 1 || (id >> 16) > 2) {
        return 1;
    }
    rsdk_counter_info_v0_t *i = info;
    memset(i, 0, sizeof *i);
    i->id = id;
    i->name = catalog[k].name;
    i->description = catalog[k].description;
    i->block = catalog[k].block;
    i->expression = "";
    return RSDK_STATUS_SUCCESS;
}

EXPORT rsdk_status_t rocprofiler_query_record_counter_id(uint64_t instance, uint64_t *id)
{
    *id = instance & 0xffffffffffffull;
    return RSDK_STATUS_SUCCESS;
}

#define MAX_CONFIGS 8
static struct {
    uint64_t agent;
    uint64_t ids[NCATALOG];
    size_t n;
} counter_configs[MAX_CONFIGS];
static int nconfigs;

EXPORT rsdk_status_t rocprofiler_create_counter_config(uint64_t agent, uint64_t *ids, size_t n, uint64_t *config)
{
    if (nconfigs == MAX_CONFIGS || n > (size_t)NCATALOG) {
        return 1;
    }
    counter_configs[nconfigs].agent = agent;
    memcpy(counter_configs[nconfigs].ids, ids, n * sizeof ids[0]);
    counter_configs[nconfigs].n = n;
    *config = (uint64_t)++nconfigs;
    return RSDK_STATUS_SUCCESS;
}

static rsdk_dispatch_counting_cb_t counting_dispatch_cb;
static rsdk_dispatch_counting_record_cb_t counting_record_cb;
static void *counting_dispatch_data, *counting_record_data;

EXPORT rsdk_status_t rocprofiler_configure_callback_dispatch_counting_service(rsdk_context_id_t ctx,
                                                                             rsdk_dispatch_counting_cb_t dispatch_cb,
                                                                             void *dispatch_data,
                                                                             rsdk_dispatch_counting_record_cb_t record_cb,
                                                                             void *record_data)
{
    (void)ctx;
    counting_dispatch_cb = dispatch_cb;
    counting_dispatch_data = dispatch_data;
    counting_record_cb = record_cb;
    counting_record_data = record_data;
    return RSDK_STATUS_SUCCESS;
}

/* what the SDK does around a dispatch when the counting service is on: ask the tool for a config,
 * then (after the kernel) hand it the counter records of every instance */
static void count_dispatch(const unsigned char *kd)
{
    if (counting_dispatch_cb == NULL || !started) {
        return;
    }
    rsdk_dispatch_counting_data_t d;
    memset(&d, 0, sizeof d);
    d.size = sizeof d;
    d.correlation_internal = *(const uint64_t *)(kd + RSDK_KD_CORRELATION_INTERNAL);
    d.start = *(const uint64_t *)(kd + RSDK_KD_START);
    d.end = *(const uint64_t *)(kd + RSDK_KD_END);
    memcpy(&d.dispatch_info_size, kd + 56, sizeof d - offsetof(rsdk_dispatch_counting_data_t, dispatch_info_size));
    uint64_t config = 0;
    rsdk_user_data_t user = {0};
    counting_dispatch_cb(d, &config, &user, counting_dispatch_data);
    if (config == 0 || config > (uint64_t)nconfigs) {
        return;
    }
    uint32_t grid = *(const uint32_t *)(kd + RSDK_KD_GRID);
    rsdk_counter_record_t records[NCATALOG * 16];
    size_t n = 0;
    for (size_t c = 0; c < counter_configs[config - 1].n; c++) {
        uint64_t id = counter_configs[config - 1].ids[c];
        int k = (int)(id & 0xffff);
        for (int i = 0; i < catalog[k].instances; i++) {
            records[n].id = id | ((uint64_t)i << 48);
            records[n].value = counter_value(k, grid, d.end - d.start);
            records[n].dispatch_id = d.dispatch_id;
            records[n].user_data.value = 0;
            records[n].agent_id = d.agent_id;
            n++;
        }
    }
    counting_record_cb(d, records, n, user, counting_record_data);
}

/* ---- buffer records --------------------------------------------------------------------------------- */

EXPORT rsdk_status_t rocprofiler_flush_buffer(rsdk_buffer_id_t id);

#define MAX_PENDING 8192
static struct pending {
    uint32_t kind;
    unsigned char bytes[RSDK_KD_SIZE];
} pending[MAX_PENDING];
static int npending;

static void enqueue(uint32_t kind, const unsigned char *bytes, size_t size)
{
    if (!started || !buffered[kind]) {
        return;
    }
    pthread_mutex_lock(&lock);
    if (npending == MAX_PENDING) {
        pthread_mutex_unlock(&lock);
        rocprofiler_flush_buffer((rsdk_buffer_id_t){7});
        pthread_mutex_lock(&lock);
    }
    pending[npending].kind = kind;
    memcpy(pending[npending].bytes, bytes, size);
    npending++;
    pthread_mutex_unlock(&lock);
}

static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;

EXPORT rsdk_status_t rocprofiler_flush_buffer(rsdk_buffer_id_t id)
{
    (void)id;
    pthread_mutex_lock(&flush_lock);
    static struct pending taken[MAX_PENDING];
    static rsdk_record_header_t headers[MAX_PENDING];
    static rsdk_record_header_t *list[MAX_PENDING];
    pthread_mutex_lock(&lock);
    int n = npending;
    memcpy(taken, pending, (size_t)n * sizeof pending[0]);
    npending = 0;
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++) {
        headers[i].category = RSDK_BUFFER_CATEGORY_TRACING;
        headers[i].kind = taken[i].kind;
        headers[i].payload = taken[i].bytes;
        list[i] = &headers[i];
    }
    if (n > 0 && buffer_cb != NULL) {
        buffer_cb((rsdk_context_id_t){1}, (rsdk_buffer_id_t){7}, list, (size_t)n, buffer_cb_data, 0);
    }
    pthread_mutex_unlock(&flush_lock);
    return RSDK_STATUS_SUCCESS;
}

void replay_kernel(uint64_t corr, int gpu, uint64_t queue, uint64_t kernel_id, uint64_t dispatch_id, uint64_t begin,
                   uint64_t end, uint32_t grid, uint32_t workgroup, uint32_t private_segment, uint32_t group_segment)
{
    unsigned char r[RSDK_KD_SIZE];
    memset(r, 0, sizeof r);
    *(uint64_t *)r = RSDK_KD_SIZE;
    *(uint32_t *)(r + 8) = RSDK_BUF_KERNEL_DISPATCH;
    *(uint32_t *)(r + 12) = 1; /* ROCPROFILER_KERNEL_DISPATCH_COMPLETE */
    *(uint64_t *)(r + RSDK_KD_CORRELATION_INTERNAL) = corr;
    *(uint64_t *)(r + RSDK_KD_THREAD_ID) = (uint64_t)syscall(SYS_gettid);
    *(uint64_t *)(r + RSDK_KD_START) = begin;
    *(uint64_t *)(r + RSDK_KD_END) = end;
    *(uint64_t *)(r + 56) = 128; /* dispatch_info.size */
    *(uint64_t *)(r + RSDK_KD_AGENT_ID) = replay_agent_handle(1 + gpu);
    *(uint64_t *)(r + RSDK_KD_QUEUE_ID) = queue;
    *(uint64_t *)(r + RSDK_KD_KERNEL_ID) = kernel_id;
    *(uint64_t *)(r + RSDK_KD_DISPATCH_ID) = dispatch_id;
    *(uint32_t *)(r + RSDK_KD_PRIVATE_SEGMENT) = private_segment;
    *(uint32_t *)(r + RSDK_KD_GROUP_SEGMENT) = group_segment;
    uint32_t wg[3] = {workgroup, 1, 1}, gr[3] = {grid, 1, 1};
    memcpy(r + RSDK_KD_WORKGROUP, wg, sizeof wg);
    memcpy(r + RSDK_KD_GRID, gr, sizeof gr);
    enqueue(RSDK_BUF_KERNEL_DISPATCH, r, sizeof r);
    count_dispatch(r);
}

void replay_page_migrate(int src_agent, int dst_agent, uint64_t address, uint64_t bytes, uint64_t begin, uint64_t end,
                         int prefetch)
{
    unsigned char r[RSDK_PM_SIZE];
    memset(r, 0, sizeof r);
    *(uint64_t *)r = RSDK_PM_SIZE;
    *(uint32_t *)(r + 8) = RSDK_BUF_KFD_PAGE_MIGRATE;
    *(int32_t *)(r + 12) = -1; /* ROCPROFILER_KFD_PAGE_MIGRATE_NONE: the kind has no operations */
    *(uint64_t *)(r + RSDK_PM_START) = begin;
    *(uint64_t *)(r + RSDK_PM_END) = end;
    *(uint32_t *)(r + 32) = (uint32_t)getpid();
    *(uint64_t *)(r + RSDK_PM_START_ADDRESS) = address;
    *(uint64_t *)(r + RSDK_PM_END_ADDRESS) = address + bytes;
    *(uint64_t *)(r + RSDK_PM_SRC_AGENT) = replay_agent_handle(src_agent);
    *(uint64_t *)(r + RSDK_PM_DST_AGENT) = replay_agent_handle(dst_agent);
    *(uint64_t *)(r + RSDK_PM_PREFETCH_AGENT) = prefetch ? replay_agent_handle(dst_agent) : replay_agent_handle(0);
    enqueue(RSDK_BUF_KFD_PAGE_MIGRATE, r, sizeof r);
}

void replay_page_fault(int gpu, uint64_t address, uint64_t begin, uint64_t end)
{
    unsigned char r[RSDK_PF_SIZE];
    memset(r, 0, sizeof r);
    *(uint64_t *)r = RSDK_PF_SIZE;
    *(uint32_t *)(r + 8) = RSDK_BUF_KFD_PAGE_FAULT;
    *(int32_t *)(r + 12) = -1;
    *(uint64_t *)(r + RSDK_PF_START) = begin;
    *(uint64_t *)(r + RSDK_PF_END) = end;
    *(uint32_t *)(r + 32) = (uint32_t)getpid();
    *(uint64_t *)(r + RSDK_PF_AGENT_ID) = replay_agent_handle(1 + gpu);
    *(uint64_t *)(r + RSDK_PF_ADDRESS) = address;
    enqueue(RSDK_BUF_KFD_PAGE_FAULT, r, sizeof r);
}

void replay_copy(uint64_t corr, int direction, int dst_agent, int src_agent, uint64_t bytes, uint64_t begin,
                 uint64_t end)
{
    unsigned char r[RSDK_MC_SIZE];
    memset(r, 0, sizeof r);
    *(uint64_t *)r = RSDK_MC_SIZE;
    *(uint32_t *)(r + 8) = RSDK_BUF_MEMORY_COPY;
    *(int32_t *)(r + RSDK_MC_OPERATION) = direction;
    *(uint64_t *)(r + RSDK_MC_CORRELATION_INTERNAL) = corr;
    *(uint64_t *)(r + RSDK_MC_THREAD_ID) = (uint64_t)syscall(SYS_gettid);
    *(uint64_t *)(r + RSDK_MC_START) = begin;
    *(uint64_t *)(r + RSDK_MC_END) = end;
    *(uint64_t *)(r + RSDK_MC_DST_AGENT) = replay_agent_handle(dst_agent);
    *(uint64_t *)(r + RSDK_MC_SRC_AGENT) = replay_agent_handle(src_agent);
    *(uint64_t *)(r + RSDK_MC_BYTES) = bytes;
    enqueue(RSDK_BUF_MEMORY_COPY, r, sizeof r);
}

void replay_scratch(int operation, int gpu, uint64_t queue, uint64_t bytes, uint64_t begin, uint64_t end)
{
    unsigned char r[RSDK_SM_SIZE];
    memset(r, 0, sizeof r);
    *(uint64_t *)r = RSDK_SM_SIZE;
    *(uint32_t *)(r + 8) = RSDK_BUF_SCRATCH_MEMORY;
    *(int32_t *)(r + RSDK_SM_OPERATION) = operation;
    *(uint64_t *)(r + RSDK_SM_AGENT_ID) = replay_agent_handle(1 + gpu);
    *(uint64_t *)(r + RSDK_SM_QUEUE_ID) = queue;
    *(uint64_t *)(r + RSDK_SM_THREAD_ID) = (uint64_t)syscall(SYS_gettid);
    *(uint64_t *)(r + RSDK_SM_START) = begin;
    *(uint64_t *)(r + RSDK_SM_END) = end;
    *(uint64_t *)(r + RSDK_SM_ALLOCATION_SIZE) = bytes;
    enqueue(RSDK_BUF_SCRATCH_MEMORY, r, sizeof r);
}

/* ---- callbacks ----------------------------------------------------------------------------------------- */

static uint64_t next_corr = 1;

static void deliver(rsdk_callback_record_t *rec, rsdk_user_data_t *user, int phase)
{
    rec->phase = phase;
    if (callbacks[rec->kind] != NULL && started) {
        callbacks[rec->kind](*rec, user, callback_data[rec->kind]);
    }
}

static rsdk_callback_record_t record_of(int32_t kind, int32_t op, void *payload)
{
    rsdk_callback_record_t rec;
    memset(&rec, 0, sizeof rec);
    rec.context_id.handle = 1;
    rec.thread_id = (uint64_t)syscall(SYS_gettid);
    rec.correlation_id.internal = __atomic_fetch_add(&next_corr, 1, __ATOMIC_RELAXED);
    rec.kind = kind;
    rec.operation = op;
    rec.payload = payload;
    return rec;
}

uint64_t replay_call(int32_t kind, const char *function, const struct replay_arg *args, int nargs, uint64_t stream,
                     const char *message, unsigned duration_us)
{
    /* payload: size, then the args union (a roctx message is its first member) */
    struct {
        uint64_t size;
        const char *message;
        uint64_t rest[30];
    } payload = {sizeof payload, message, {0}};
    rsdk_callback_record_t rec = record_of(kind, op_id(kind, function), &payload);
    rsdk_user_data_t user = {0};
    unsigned char stream_data[RSDK_HIP_STREAM_DATA_SIZE] = {0};
    *(uint64_t *)stream_data = RSDK_HIP_STREAM_DATA_SIZE;
    *(uint64_t *)(stream_data + RSDK_HIP_STREAM_DATA_STREAM_ID) = stream;
    rsdk_callback_record_t srec = record_of(RSDK_CB_HIP_STREAM, RSDK_HIP_STREAM_SET, stream_data);
    srec.correlation_id.internal = rec.correlation_id.internal;
    rsdk_user_data_t suser = {0};
    current_args = args;
    current_nargs = nargs;
    /* the SDK announces the stream around the whole call: upstream pushes it at SET's enter and
     * reads the top of its stack at the API call's exit */
    if (stream != 0) {
        deliver(&srec, &suser, RSDK_PHASE_ENTER);
    }
    deliver(&rec, &user, RSDK_PHASE_ENTER);
    if (duration_us) {
        usleep(duration_us);
    }
    deliver(&rec, &user, RSDK_PHASE_EXIT);
    if (stream != 0) {
        deliver(&srec, &suser, RSDK_PHASE_EXIT);
    }
    current_args = NULL;
    current_nargs = 0;
    return rec.correlation_id.internal;
}

void replay_kernel_symbol(uint64_t kernel_id, const char *name)
{
    unsigned char data[RSDK_KSYM_SIZE] = {0};
    *(uint64_t *)data = RSDK_KSYM_SIZE;
    *(uint64_t *)(data + RSDK_KSYM_KERNEL_ID) = kernel_id;
    *(uint64_t *)(data + 16) = 1; /* code_object_id */
    *(const char **)(data + RSDK_KSYM_KERNEL_NAME) = name;
    rsdk_callback_record_t rec = record_of(RSDK_CB_CODE_OBJECT, RSDK_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER, data);
    rsdk_user_data_t user = {0};
    deliver(&rec, &user, RSDK_PHASE_ENTER);
}

/* ---- loading the tool, as the SDK does ---------------------------------------------------------------- */

static void finalize_client(rsdk_client_id_t id)
{
    (void)id;
}

static void at_exit(void)
{
    if (tool != NULL && tool->finalize != NULL) {
        tool->finalize(tool->tool_data);
    }
}

typedef rsdk_tool_configure_result_t *(*configure_fn)(uint32_t, const char *, uint32_t, rsdk_client_id_t *);

int replay_init(void)
{
    const char *refuse = getenv("REPLAY_SDK_REFUSE_KIND");
    if (refuse != NULL) {
        refuse_kind = atoi(refuse);
    }
    build_agents();
    configure_fn configure = NULL;
    const char *libs = getenv("ROCP_TOOL_LIBRARIES");
    if (libs != NULL && *libs) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", libs);
        char *save = NULL;
        for (char *p = strtok_r(buf, ":", &save); p != NULL && configure == NULL; p = strtok_r(NULL, ":", &save)) {
            void *h = dlopen(p, RTLD_NOW | RTLD_GLOBAL);
            if (h == NULL) {
                fprintf(stderr, "[replay-sdk] cannot load %s: %s\n", p, dlerror());
                continue;
            }
            *(void **)&configure = dlsym(h, "rocprofiler_configure");
        }
    }
    if (configure == NULL) {
        *(void **)&configure = dlsym(RTLD_DEFAULT, "rocprofiler_configure");
    }
    if (configure == NULL) {
        return 0;
    }
    rsdk_client_id_t id = {sizeof id, NULL, 1};
    tool = configure(10000, "1.0.0", 0, &id);
    if (tool == NULL) {
        return 0;
    }
    if (tool->initialize(finalize_client, tool->tool_data) != 0) {
        tool = NULL;
        return -1;
    }
    atexit(at_exit);
    return 1;
}
