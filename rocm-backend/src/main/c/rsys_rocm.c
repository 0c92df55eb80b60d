/*
 * librocprof-sys-rocm.so: the ROCm backend's native half, a rocprofiler-sdk tool.
 *
 * It exports rocprofiler_configure, as every rocprofiler-sdk tool does: the SDK (inside
 * librocprofiler-sdk.so, which the HIP and HSA runtimes load) calls it when the library is in the
 * process or named in ROCP_TOOL_LIBRARIES, which the launcher sets. A program that never loads a
 * ROCm runtime never loads the SDK, and so never this library. It only records: it finds the
 * agent's GPU entry point (rocprofsys_gpu_record, agent_gpu.c) and the SDK's functions in the
 * process (dlsym: it is not linked against the SDK, so it builds without ROCm), and writes
 *   - ROCM_AGENT per agent (the SDK's rocprofiler_agent_v0_t raw, with its strings),
 *   - ROCM_API per traced API call (HIP, HSA, roctx, RCCL, rocDecode, rocJPEG), at its exit on
 *     the calling thread: CLOCK_MONOTONIC times, correlation id, the HIP stream the call was made on, the
 *     function's name, the roctx message, the arguments as the SDK prints them,
 *   - ROCM_BUFFER per buffer record (kernel dispatch, memory copy, scratch memory), raw as the SDK
 *     laid it out, with what only this process can resolve: the HIP stream of the launching call,
 *     the device numbers of the agents, the kernel's name, and the offset of the SDK's clock from
 *     CLOCK_MONOTONIC (read together at initialisation; the SDK's times are its own clock's).
 * docs/wire-protocol.md ("ROCm records") is the format; the collector decodes everything
 * (rocm-backend's Java, org.rocprofsys.rocm.decode).
 *
 * Settings (environment, set by the collector):
 *   ROCPROFSYS_AGENT_ROCM_DOMAINS   comma list of SDK domain names (meta-domains already expanded)
 *   ROCPROFSYS_AGENT_ROCM_ARGS      0: no arguments on API records (PERFETTO_ANNOTATIONS off)
 *   ROCPROFSYS_AGENT_ROCM_FLUSH_MS  buffer flush period (default 100, 0: only at exit)
 *   ROCPROFSYS_AGENT_ROCM_EVENTS    GPU counters per kernel (ROCPROFSYS_ROCM_EVENTS' syntax)
 * Without the agent in the process (or with no session) rocprofiler_configure returns NULL and
 * the SDK leaves the tool out.
 */
#include "rocprofsys_wire.h"
#include "rsys_rocm_sdk.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RSYS_ROCM_EXPORT __attribute__((visibility("default")))

/* the agent's entry points */
static int (*agent_record)(uint32_t, uint32_t, const struct rocprofsys_gpu_part *, uint32_t);
static void (*agent_set_flush)(void (*)(void));

/* the SDK's */
#define DECLARE(ret, name, args) static ret(*sdk_##name) args;
RSDK_FUNCTIONS(DECLARE)
#undef DECLARE

static rsdk_context_id_t context;
static rsdk_buffer_id_t buffer;
static int have_buffer;
static int record_args = 1;
static long flush_ms = 100;
static volatile int stopping;

/* ---- domains ------------------------------------------------------------------------------ */

static const struct {
    const char *name;
    int32_t kind;
    int buffered;
} domains[] = {
    {"hsa_core_api", RSDK_CB_HSA_CORE_API, 0},
    {"hsa_amd_ext_api", RSDK_CB_HSA_AMD_EXT_API, 0},
    {"hsa_image_ext_api", RSDK_CB_HSA_IMAGE_EXT_API, 0},
    {"hsa_finalize_ext_api", RSDK_CB_HSA_FINALIZE_EXT_API, 0},
    {"hip_runtime_api", RSDK_CB_HIP_RUNTIME_API, 0},
    {"hip_compiler_api", RSDK_CB_HIP_COMPILER_API, 0},
    {"marker_core_api", RSDK_CB_MARKER_CORE_API, 0},
    {"rccl_api", RSDK_CB_RCCL_API, 0},
    {"rocdecode_api", RSDK_CB_ROCDECODE_API, 0},
    {"rocjpeg_api", RSDK_CB_ROCJPEG_API, 0},
    {"kernel_dispatch", RSDK_BUF_KERNEL_DISPATCH, 1},
    {"memory_copy", RSDK_BUF_MEMORY_COPY, 1},
    {"scratch_memory", RSDK_BUF_SCRATCH_MEMORY, 1},
    {"kfd_page_migrate", RSDK_BUF_KFD_PAGE_MIGRATE, 1},
    {"kfd_page_fault", RSDK_BUF_KFD_PAGE_FAULT, 1},
};
#define NDOMAINS (sizeof domains / sizeof domains[0])
static int selected[NDOMAINS];

static void read_domains(void)
{
    const char *d = getenv("ROCPROFSYS_AGENT_ROCM_DOMAINS");
    for (size_t i = 0; i < NDOMAINS; i++) {
        selected[i] = d == NULL;
    }
    if (d == NULL) {
        return;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", d);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ;", &save); t != NULL; t = strtok_r(NULL, ", ;", &save)) {
        for (size_t i = 0; i < NDOMAINS; i++) {
            if (strcmp(t, domains[i].name) == 0) {
                selected[i] = 1;
            }
        }
    }
}

static int domain_selected(const char *name)
{
    for (size_t i = 0; i < NDOMAINS; i++) {
        if (strcmp(domains[i].name, name) == 0) {
            return selected[i];
        }
    }
    return 0;
}

/* ---- agents: SDK id -> device numbers -------------------------------------------------------- */

#define MAX_AGENTS 256
static struct agent_info {
    uint64_t id;
    int32_t node;   /* logical_node_id: upstream's src_agent / dst_agent */
    int32_t device; /* logical_node_type_id: the GPU's index among GPUs (-1 for a CPU) */
} agents[MAX_AGENTS];
static size_t nagents;

static const struct agent_info *agent_of(uint64_t id)
{
    for (size_t i = 0; i < nagents; i++) {
        if (agents[i].id == id) {
            return &agents[i];
        }
    }
    return NULL;
}

static int write_record(uint32_t type, uint32_t aux, const struct rocprofsys_gpu_part *parts, uint32_t n)
{
    return agent_record(type, aux, parts, n);
}

static rsdk_status_t agents_cb(int version, const void **list, size_t n, void *data)
{
    (void)version;
    (void)data;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *a = list[i];
        uint32_t raw = (uint32_t)*(const uint64_t *)a;
        if (raw > RSDK_AGENT_SIZE) {
            raw = RSDK_AGENT_SIZE;
        }
        uint32_t header[2] = {raw, 4};
        struct rocprofsys_gpu_part parts[] = {
            {header, sizeof header, 0},
            {a, (raw + 7u) & ~7u, 0},
            {*(const char *const *)(a + RSDK_AGENT_NAME), 0, RSYS_GPU_PART_STRING},
            {*(const char *const *)(a + RSDK_AGENT_VENDOR_NAME), 0, RSYS_GPU_PART_STRING},
            {*(const char *const *)(a + RSDK_AGENT_PRODUCT_NAME), 0, RSYS_GPU_PART_STRING},
            {*(const char *const *)(a + RSDK_AGENT_MODEL_NAME), 0, RSYS_GPU_PART_STRING},
        };
        /* the raw part is padded to 8 from the SDK's struct, which is at least that long */
        write_record(RSYS_REC_ROCM_AGENT, 0, parts, 6);
        if (nagents < MAX_AGENTS) {
            int32_t type = *(const int32_t *)(a + RSDK_AGENT_TYPE);
            agents[nagents].id = *(const uint64_t *)(a + RSDK_AGENT_ID);
            agents[nagents].node = *(const int32_t *)(a + RSDK_AGENT_LOGICAL_NODE_ID);
            agents[nagents].device =
                type == RSDK_AGENT_TYPE_GPU ? *(const int32_t *)(a + RSDK_AGENT_LOGICAL_NODE_TYPE_ID) : -1;
            nagents++;
        }
    }
    return RSDK_STATUS_SUCCESS;
}

/* ---- kernel names (code object callbacks) ----------------------------------------------------- */

static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kernel_name {
    uint64_t id;
    char *name;
} *kernels;
static size_t nkernels, kernels_cap;

static void kernel_register(uint64_t id, const char *name)
{
    pthread_mutex_lock(&kernels_lock);
    if (nkernels == kernels_cap) {
        size_t cap = kernels_cap ? kernels_cap * 2 : 256;
        struct kernel_name *k = realloc(kernels, cap * sizeof *k);
        if (k == NULL) {
            pthread_mutex_unlock(&kernels_lock);
            return;
        }
        kernels = k;
        kernels_cap = cap;
    }
    kernels[nkernels].id = id;
    kernels[nkernels].name = strdup(name != NULL ? name : "");
    nkernels++;
    pthread_mutex_unlock(&kernels_lock);
}

/* copies the name into out (the table may grow meanwhile) */
static void kernel_name(uint64_t id, char *out, size_t size)
{
    out[0] = 0;
    pthread_mutex_lock(&kernels_lock);
    for (size_t i = nkernels; i-- > 0;) {
        if (kernels[i].id == id && kernels[i].name != NULL) {
            snprintf(out, size, "%s", kernels[i].name);
            break;
        }
    }
    pthread_mutex_unlock(&kernels_lock);
}

/* ---- HIP streams: the stream each API call ran on, by correlation id ------------------------------
 * The SDK announces the stream of a HIP call with HIP_STREAM SET callbacks around it (upstream keeps
 * a per-thread stack of them). A call's device work arrives later in a buffer record carrying only
 * the correlation id, so the API exit stores (correlation id -> stream) here and the buffer callback
 * looks it up. Fixed size: a lookup that misses (overwritten after 64K newer calls) gives stream 0,
 * which upstream shows as "no stream" too. */
#define STREAM_SLOTS (1u << 16)
static struct {
    uint64_t corr;
    uint64_t stream;
} stream_of[STREAM_SLOTS];

static __thread uint64_t stream_stack[16];
static __thread int stream_depth;

static void stream_store(uint64_t corr, uint64_t stream)
{
    uint32_t i = (uint32_t)(corr * 0x9E3779B97F4A7C15ull >> 48) & (STREAM_SLOTS - 1);
    __atomic_store_n(&stream_of[i].corr, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&stream_of[i].stream, stream, __ATOMIC_RELAXED);
    __atomic_store_n(&stream_of[i].corr, corr, __ATOMIC_RELEASE);
}

static uint64_t stream_lookup(uint64_t corr)
{
    uint32_t i = (uint32_t)(corr * 0x9E3779B97F4A7C15ull >> 48) & (STREAM_SLOTS - 1);
    if (corr == 0 || __atomic_load_n(&stream_of[i].corr, __ATOMIC_ACQUIRE) != corr) {
        return 0;
    }
    uint64_t s = __atomic_load_n(&stream_of[i].stream, __ATOMIC_RELAXED);
    return __atomic_load_n(&stream_of[i].corr, __ATOMIC_ACQUIRE) == corr ? s : 0;
}

/* ---- API callbacks ------------------------------------------------------------------------------ */

static int64_t sdk_offset; /* SDK clock - CLOCK_MONOTONIC */
static void notice(const char *what, rsdk_status_t status);

static uint64_t now_sdk(void)
{
    uint64_t ts = 0;
    sdk_rocprofiler_get_timestamp(&ts);
    return ts;
}

static uint64_t now_monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

struct arg_buffer {
    char text[2048];
    size_t used;
    uint32_t count;
};

static int collect_arg(int32_t kind, int32_t operation, uint32_t arg_number, const void *const value_addr,
                       int32_t indirection, const char *type, const char *name, const char *value,
                       int32_t dereference, void *data)
{
    (void)kind, (void)operation, (void)arg_number, (void)value_addr, (void)indirection, (void)type;
    (void)dereference;
    struct arg_buffer *b = data;
    if (name == NULL) {
        return 0;
    }
    if (value == NULL) {
        value = "";
    }
    size_t n = strlen(name) + 1, v = strlen(value) + 1;
    if (v > 256) {
        v = 256;
    }
    if (b->used + n + v > sizeof b->text) {
        return 1; /* stop: the rest does not fit */
    }
    memcpy(b->text + b->used, name, n);
    memcpy(b->text + b->used + n, value, v - 1);
    b->text[b->used + n + v - 1] = 0;
    b->used += n + v;
    b->count++;
    return 0;
}

static void api_record(rsdk_callback_record_t record, uint64_t begin, uint64_t end)
{
    const char *name = NULL;
    uint64_t len = 0;
    if (sdk_rocprofiler_query_callback_tracing_kind_operation_name(record.kind, record.operation, &name, &len) !=
            RSDK_STATUS_SUCCESS ||
        name == NULL) {
        name = "";
    }
    const char *message = "";
    if (record.kind == RSDK_CB_MARKER_CORE_API && record.payload != NULL &&
        (record.operation == RSDK_ROCTX_MARK_A || record.operation == RSDK_ROCTX_RANGE_PUSH_A ||
         record.operation == RSDK_ROCTX_RANGE_START_A)) {
        const char *m = *(const char *const *)((const unsigned char *)record.payload + RSDK_MARKER_DATA_MESSAGE);
        message = m != NULL ? m : "";
    }
    uint64_t stream = stream_depth > 0 ? stream_stack[stream_depth - 1] : 0;
    if (stream != 0) {
        stream_store(record.correlation_id.internal, stream);
    }
    struct arg_buffer args;
    args.used = 0;
    args.count = 0;
    if (record_args && record.kind != RSDK_CB_MARKER_CORE_API) {
        sdk_rocprofiler_iterate_callback_tracing_kind_operation_args(record, collect_arg, 1, &args);
    }
    struct {
        uint64_t begin, end, corr, stream, thread;
        int32_t operation;
        uint32_t nargs;
    } head = {begin, end, record.correlation_id.internal, stream, record.thread_id, record.operation, args.count};
    struct rocprofsys_gpu_part parts[] = {
        {&head, sizeof head, 0},
        {name, 0, RSYS_GPU_PART_STRING},
        {message, 0, RSYS_GPU_PART_STRING},
        {args.text, (uint32_t)args.used, 0},
    };
    write_record(RSYS_REC_ROCM_API, (uint32_t)record.kind, parts, 4);
}

static void tracing_callback(rsdk_callback_record_t record, rsdk_user_data_t *user_data, void *data)
{
    (void)data;
    switch (record.kind) {
    case RSDK_CB_HIP_STREAM:
        if (record.operation == RSDK_HIP_STREAM_SET && record.payload != NULL) {
            if (record.phase == RSDK_PHASE_ENTER) {
                uint64_t s =
                    *(const uint64_t *)((const unsigned char *)record.payload + RSDK_HIP_STREAM_DATA_STREAM_ID);
                if (stream_depth < 16) {
                    stream_stack[stream_depth] = s;
                }
                stream_depth++;
            } else if (record.phase == RSDK_PHASE_EXIT && stream_depth > 0) {
                stream_depth--;
            }
        }
        return;
    case RSDK_CB_CODE_OBJECT:
        if (record.operation == RSDK_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER && record.phase == RSDK_PHASE_ENTER &&
            record.payload != NULL) {
            const unsigned char *k = record.payload;
            kernel_register(*(const uint64_t *)(k + RSDK_KSYM_KERNEL_ID),
                            *(const char *const *)(k + RSDK_KSYM_KERNEL_NAME));
        }
        return;
    default:
        break;
    }
    if (record.phase == RSDK_PHASE_ENTER) {
        user_data->value = now_monotonic();
    } else if (record.phase == RSDK_PHASE_EXIT) {
        api_record(record, user_data->value, now_monotonic());
    }
}

/* ---- buffer records -------------------------------------------------------------------------------- */

static void buffer_callback(rsdk_context_id_t ctx, rsdk_buffer_id_t buf, rsdk_record_header_t **headers, size_t n,
                            void *data, uint64_t drops)
{
    (void)ctx, (void)buf, (void)data, (void)drops;
    for (size_t i = 0; i < n; i++) {
        const rsdk_record_header_t *h = headers[i];
        if (h == NULL || h->category != RSDK_BUFFER_CATEGORY_TRACING || h->payload == NULL) {
            continue;
        }
        const unsigned char *r = h->payload;
        uint32_t known;
        uint64_t agent_a = 0, agent_b = 0, corr = 0;
        char name[1024] = "";
        switch (h->kind) {
        case RSDK_BUF_KERNEL_DISPATCH:
            known = RSDK_KD_SIZE;
            agent_a = *(const uint64_t *)(r + RSDK_KD_AGENT_ID);
            corr = *(const uint64_t *)(r + RSDK_KD_CORRELATION_INTERNAL);
            kernel_name(*(const uint64_t *)(r + RSDK_KD_KERNEL_ID), name, sizeof name);
            break;
        case RSDK_BUF_MEMORY_COPY:
            known = RSDK_MC_SIZE;
            agent_a = *(const uint64_t *)(r + RSDK_MC_DST_AGENT);
            agent_b = *(const uint64_t *)(r + RSDK_MC_SRC_AGENT);
            corr = *(const uint64_t *)(r + RSDK_MC_CORRELATION_INTERNAL);
            break;
        case RSDK_BUF_SCRATCH_MEMORY:
            known = RSDK_SM_SIZE;
            agent_a = *(const uint64_t *)(r + RSDK_SM_AGENT_ID);
            break;
        case RSDK_BUF_KFD_PAGE_MIGRATE:
            known = RSDK_PM_SIZE;
            agent_a = *(const uint64_t *)(r + RSDK_PM_DST_AGENT);
            agent_b = *(const uint64_t *)(r + RSDK_PM_SRC_AGENT);
            break;
        case RSDK_BUF_KFD_PAGE_FAULT:
            known = RSDK_PF_SIZE;
            agent_a = *(const uint64_t *)(r + RSDK_PF_AGENT_ID);
            break;
        default:
            continue;
        }
        uint32_t raw = (uint32_t)*(const uint64_t *)r;
        if (raw > known) {
            raw = known;
        }
        unsigned char copy[256];
        memset(copy, 0, sizeof copy);
        memcpy(copy, r, raw);
        const struct agent_info *a = agent_of(agent_a), *b = agent_of(agent_b);
        struct {
            uint32_t raw_size, nstrings;
            int64_t clock_offset;
            uint64_t stream;
            int32_t device_a, device_b, node_a, node_b;
        } head = {raw,
                  1,
                  sdk_offset,
                  stream_lookup(corr),
                  a ? a->device : -1,
                  b ? b->device : -1,
                  a ? a->node : -1,
                  b ? b->node : -1};
        struct rocprofsys_gpu_part parts[] = {
            {&head, sizeof head, 0},
            {copy, (raw + 7u) & ~7u, 0},
            {name, 0, RSYS_GPU_PART_STRING},
        };
        write_record(RSYS_REC_ROCM_BUFFER, h->kind, parts, 3);
    }
}


/* ---- hardware counters: ROCPROFSYS_ROCM_EVENTS through the dispatch counting service ------------------
 * The collector passes the setting as ROCPROFSYS_AGENT_ROCM_EVENTS, upstream's syntax: counter names
 * separated by commas, each optionally ":device=N" (only on GPU N, else on every GPU). At
 * initialisation every GPU agent's supported counters are listed (rocprofiler_iterate_agent_supported
 * _counters, names from rocprofiler_query_counter_info) and the requested ones go into one counter
 * config per agent; a name no GPU it applies to knows is an error naming it, and then no counter is
 * collected. After each kernel the SDK hands over the counter records of the dispatch: the instances
 * of one counter (per shader engine, XCD, ...) are summed, as upstream's counter_record_callback
 * does, and one ROCM_BUFFER record of kind RSYS_ROCM_KIND_COUNTERS carries the dispatch's data
 * (the SDK's struct) followed by the sums, with the kernel's name and the counter names as strings. */
#define RSYS_ROCM_KIND_COUNTERS 0x100 /* not an SDK buffer kind (those end at RSDK_BUF_LAST) */
#define MAX_REQUESTS 64
#define MAX_PER_DISPATCH 64

#define DECLARE(ret, name, args) static ret(*sdk_##name) args;
RSDK_COUNTER_FUNCTIONS(DECLARE)
#undef DECLARE

static struct request {
    char name[128];
    int device; /* -1: every GPU */
    int found;
} requests[MAX_REQUESTS];
static size_t nrequests;

static struct chosen_counter {
    uint64_t id;
    char name[128];
} chosen[MAX_AGENTS * 8];
static size_t nchosen;

static struct {
    uint64_t agent;
    uint64_t config;
} configs[MAX_AGENTS];
static size_t nconfigs;
static rsdk_context_id_t counter_context;

static void read_events(void)
{
    const char *e = getenv("ROCPROFSYS_AGENT_ROCM_EVENTS");
    if (e == NULL) {
        return;
    }
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", e);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", \t\n;", &save); t != NULL && nrequests < MAX_REQUESTS;
         t = strtok_r(NULL, ", \t\n;", &save)) {
        struct request *r = &requests[nrequests];
        r->device = -1;
        char *d = strstr(t, ":device=");
        if (d != NULL) {
            r->device = atoi(d + strlen(":device="));
            *d = 0;
        }
        /* upstream drops an instance index ("TCC_HIT[3]" asks for TCC_HIT): the SDK's names have none */
        size_t len = strlen(t);
        if (len > 0 && t[len - 1] == ']') {
            char *open = strrchr(t, '[');
            if (open != NULL && open[1] != ']' && strspn(open + 1, "0123456789") == (size_t)(t + len - 1 - (open + 1))) {
                *open = 0;
            }
        }
        if (*t == 0) {
            continue;
        }
        snprintf(r->name, sizeof r->name, "%s", t);
        nrequests++;
    }
}

static int counters_requested(void)
{
    return nrequests > 0;
}

struct agent_scan {
    int device;
    uint64_t ids[MAX_PER_DISPATCH];
    size_t n;
};

static const char *counter_name(uint64_t id)
{
    for (size_t i = 0; i < nchosen; i++) {
        if (chosen[i].id == id) {
            return chosen[i].name;
        }
    }
    return "";
}

static rsdk_status_t supported_cb(uint64_t agent, uint64_t *ids, size_t n, void *data)
{
    (void)agent;
    struct agent_scan *scan = data;
    for (size_t i = 0; i < n; i++) {
        rsdk_counter_info_v0_t info;
        memset(&info, 0, sizeof info);
        if (sdk_rocprofiler_query_counter_info(ids[i], RSDK_COUNTER_INFO_VERSION_0, &info) != RSDK_STATUS_SUCCESS ||
            info.name == NULL) {
            continue;
        }
        for (size_t r = 0; r < nrequests; r++) {
            if ((requests[r].device < 0 || requests[r].device == scan->device) &&
                strcmp(requests[r].name, info.name) == 0) {
                requests[r].found = 1;
                if (scan->n < MAX_PER_DISPATCH) {
                    scan->ids[scan->n++] = ids[i];
                }
                if (nchosen < sizeof chosen / sizeof chosen[0] && counter_name(ids[i])[0] == 0) {
                    chosen[nchosen].id = ids[i];
                    snprintf(chosen[nchosen].name, sizeof chosen[nchosen].name, "%s", info.name);
                    nchosen++;
                }
                break;
            }
        }
    }
    return RSDK_STATUS_SUCCESS;
}

static void dispatch_counting_cb(rsdk_dispatch_counting_data_t dispatch, uint64_t *config, rsdk_user_data_t *user,
                                 void *data)
{
    (void)user, (void)data;
    for (size_t i = 0; i < nconfigs; i++) {
        if (configs[i].agent == dispatch.agent_id) {
            *config = configs[i].config;
            return;
        }
    }
}

static void counter_record_cb(rsdk_dispatch_counting_data_t dispatch, rsdk_counter_record_t *records, size_t count,
                              rsdk_user_data_t user, void *data)
{
    (void)user, (void)data;
    struct {
        rsdk_dispatch_counting_data_t dispatch;
        double sums[MAX_PER_DISPATCH];
    } raw;
    uint64_t ids[MAX_PER_DISPATCH];
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t id = 0;
        if (sdk_rocprofiler_query_record_counter_id(records[i].id, &id) != RSDK_STATUS_SUCCESS) {
            continue;
        }
        size_t k = 0;
        while (k < n && ids[k] != id) {
            k++;
        }
        if (k == n) {
            if (n == MAX_PER_DISPATCH) {
                continue;
            }
            ids[n] = id;
            raw.sums[n] = 0;
            n++;
        }
        raw.sums[k] += records[i].value;
    }
    if (n == 0) {
        return;
    }
    raw.dispatch = dispatch;
    char names[MAX_PER_DISPATCH * 129 + 1024];
    size_t used = 0;
    kernel_name(dispatch.kernel_id, names, 1024);
    used = strlen(names) + 1;
    for (size_t k = 0; k < n; k++) {
        const char *c = counter_name(ids[k]);
        size_t len = strlen(c) + 1;
        memcpy(names + used, c, len);
        used += len;
    }
    const struct agent_info *a = agent_of(dispatch.agent_id);
    uint32_t raw_size = (uint32_t)(sizeof raw.dispatch + n * sizeof(double));
    struct {
        uint32_t raw_size, nstrings;
        int64_t clock_offset;
        uint64_t stream;
        int32_t device_a, device_b, node_a, node_b;
    } head = {raw_size, (uint32_t)(1 + n), sdk_offset, stream_lookup(dispatch.correlation_internal),
              a ? a->device : -1, -1, a ? a->node : -1, -1};
    struct rocprofsys_gpu_part parts[] = {
        {&head, sizeof head, 0},
        {&raw, (raw_size + 7u) & ~7u, 0},
        {names, (uint32_t)used, 0},
    };
    write_record(RSYS_REC_ROCM_BUFFER, RSYS_ROCM_KIND_COUNTERS, parts, 3);
}

static void counters_notice(const char *text)
{
    fprintf(stderr, "[rocprof-sys][rocm] ROCPROFSYS_ROCM_EVENTS: %s\n", text);
}

/* 0 when the counters are set up (or none was asked for); -1 when none will be collected */
static int setup_counters(void)
{
    if (nrequests == 0) {
        return 0;
    }
#define RESOLVE(ret, name, args) *(void **)&sdk_##name = dlsym(RTLD_DEFAULT, #name);
    RSDK_COUNTER_FUNCTIONS(RESOLVE)
#undef RESOLVE
#define CHECK(ret, name, args)                                                                                       \
    if (sdk_##name == NULL) {                                                                                        \
        counters_notice("the rocprofiler-sdk in this process lacks " #name ": no GPU counter is collected");        \
        return -1;                                                                                                   \
    }
    RSDK_COUNTER_FUNCTIONS(CHECK)
#undef CHECK
    struct agent_scan scans[MAX_AGENTS];
    size_t nscans = 0;
    for (size_t i = 0; i < nagents; i++) {
        if (agents[i].device < 0) {
            continue;
        }
        struct agent_scan *scan = &scans[nscans++];
        scan->device = agents[i].device;
        scan->n = 0;
        sdk_rocprofiler_iterate_agent_supported_counters(agents[i].id, supported_cb, scan);
    }
    int unknown = 0;
    for (size_t r = 0; r < nrequests; r++) {
        if (!requests[r].found) {
            char where[32] = "";
            if (requests[r].device >= 0) {
                snprintf(where, sizeof where, " on device %d", requests[r].device);
            }
            fprintf(stderr,
                    "[rocprof-sys][rocm] ROCPROFSYS_ROCM_EVENTS: unknown GPU counter '%.127s'%s (rocprof-sys-avail -H "
                    "lists the counters of each GPU)\n",
                    requests[r].name, where);
            unknown = 1;
        }
    }
    if (unknown) {
        counters_notice("no GPU counter is collected");
        return -1;
    }
    size_t s = 0;
    for (size_t i = 0; i < nagents; i++) {
        if (agents[i].device < 0) {
            continue;
        }
        struct agent_scan *scan = &scans[s++];
        if (scan->n == 0) {
            continue;
        }
        uint64_t config = 0;
        rsdk_status_t st = sdk_rocprofiler_create_counter_config(agents[i].id, scan->ids, scan->n, &config);
        if (st != RSDK_STATUS_SUCCESS) {
            notice("a counter config", st);
            return -1;
        }
        configs[nconfigs].agent = agents[i].id;
        configs[nconfigs].config = config;
        nconfigs++;
    }
    /* counters in a context of their own, as upstream does: the SDK serialises dispatches there */
    rsdk_status_t st = sdk_rocprofiler_create_context(&counter_context);
    if (st == RSDK_STATUS_SUCCESS) {
        st = sdk_rocprofiler_configure_callback_dispatch_counting_service(counter_context, dispatch_counting_cb, NULL,
                                                                           counter_record_cb, NULL);
    }
    if (st == RSDK_STATUS_SUCCESS) {
        st = sdk_rocprofiler_start_context(counter_context);
    }
    if (st != RSDK_STATUS_SUCCESS) {
        notice("the dispatch counting service", st);
        return -1;
    }
    return 0;
}

/* ---- flushing -------------------------------------------------------------------------------------- */

static void flush(void)
{
    if (have_buffer) {
        sdk_rocprofiler_flush_buffer(buffer);
    }
}

static void *flush_thread(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
        struct timespec nap = {flush_ms / 1000, (flush_ms % 1000) * 1000000L};
        nanosleep(&nap, NULL);
        flush();
    }
    return NULL;
}

/* ---- the tool ---------------------------------------------------------------------------------------- */

static void notice(const char *what, rsdk_status_t status)
{
    const char *s = sdk_rocprofiler_get_status_string != NULL ? sdk_rocprofiler_get_status_string(status) : NULL;
    fprintf(stderr,
            "[rocprof-sys][rocm] rocprofiler-sdk refused %s (%s): ROCm activity is not traced in this process\n",
            what, s != NULL ? s : "unknown status");
}

static int tool_initialize(rsdk_client_finalize_t fini, void *tool_data)
{
    (void)fini, (void)tool_data;
#define RESOLVE(ret, name, args) *(void **)&sdk_##name = dlsym(RTLD_DEFAULT, #name);
    RSDK_FUNCTIONS(RESOLVE)
#undef RESOLVE
#define CHECK(ret, name, args)                                                                                       \
    if (sdk_##name == NULL) {                                                                                        \
        fprintf(stderr, "[rocprof-sys][rocm] the rocprofiler-sdk in this process lacks " #name                      \
                        ": ROCm activity is not traced\n");                                                          \
        return -1;                                                                                                   \
    }
    RSDK_FUNCTIONS(CHECK)
#undef CHECK
    /* the SDK's clock against ours: the smallest difference of a few adjacent readings */
    for (int i = 0; i < 5; i++) {
        uint64_t m0 = now_monotonic(), s = now_sdk(), m1 = now_monotonic();
        int64_t off = (int64_t)(s - (m0 + (m1 - m0) / 2));
        if (i == 0 || off < sdk_offset) {
            sdk_offset = off;
        }
    }

    rsdk_status_t st = sdk_rocprofiler_create_context(&context);
    if (st != RSDK_STATUS_SUCCESS) {
        notice("a context", st);
        return -1;
    }
    st = sdk_rocprofiler_query_available_agents(RSDK_AGENT_INFO_VERSION_0, agents_cb, RSDK_AGENT_SIZE, NULL);
    if (st != RSDK_STATUS_SUCCESS) {
        notice("the agent query", st);
        return -1;
    }
    for (size_t i = 0; i < NDOMAINS; i++) {
        if (!selected[i] || domains[i].buffered) {
            continue;
        }
        st = sdk_rocprofiler_configure_callback_tracing_service(context, domains[i].kind, NULL, 0, tracing_callback,
                                                                NULL);
        if (st != RSDK_STATUS_SUCCESS) {
            notice(domains[i].name, st);
            return -1;
        }
    }
    int device_work = domain_selected("kernel_dispatch") || domain_selected("memory_copy") ||
                      domain_selected("scratch_memory") || domain_selected("kfd_page_migrate") ||
                      domain_selected("kfd_page_fault") || counters_requested();
    if (device_work) {
        st = sdk_rocprofiler_configure_callback_tracing_service(context, RSDK_CB_CODE_OBJECT, NULL, 0,
                                                                tracing_callback, NULL);
        if (st != RSDK_STATUS_SUCCESS) {
            notice("code object tracing", st);
            return -1;
        }
        /* HIP streams: SDK >= 1.0 with HIP stream support; without it every kernel is on its queue */
        sdk_rocprofiler_configure_callback_tracing_service(context, RSDK_CB_HIP_STREAM, NULL, 0, tracing_callback,
                                                           NULL);
        st = sdk_rocprofiler_create_buffer(context, 4u << 20, (4u << 20) - (4u << 20) / 8, RSDK_BUFFER_POLICY_LOSSLESS,
                                           buffer_callback, NULL, &buffer);
        if (st != RSDK_STATUS_SUCCESS) {
            notice("a buffer", st);
            return -1;
        }
        have_buffer = 1;
        for (size_t i = 0; i < NDOMAINS; i++) {
            if (selected[i] && domains[i].buffered) {
                st = sdk_rocprofiler_configure_buffer_tracing_service(context, domains[i].kind, NULL, 0, buffer);
                if (st != RSDK_STATUS_SUCCESS) {
                    notice(domains[i].name, st);
                    return -1;
                }
            }
        }
    }
    st = sdk_rocprofiler_start_context(context);
    if (st != RSDK_STATUS_SUCCESS) {
        notice("to start the context", st);
        return -1;
    }
    setup_counters(); /* without them, tracing goes on */
    if (have_buffer) {
        agent_set_flush(flush);
        if (flush_ms > 0) {
            pthread_t t;
            if (pthread_create(&t, NULL, flush_thread, NULL) == 0) {
                pthread_detach(t);
            }
        }
    }
    return 0;
}

static void tool_finalize(void *tool_data)
{
    (void)tool_data;
    __atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
    flush();
}

static rsdk_tool_configure_result_t configure_result = {sizeof(rsdk_tool_configure_result_t), tool_initialize,
                                                        tool_finalize, NULL};

RSYS_ROCM_EXPORT rsdk_tool_configure_result_t *rocprofiler_configure(uint32_t version, const char *runtime_version,
                                                                     uint32_t priority, rsdk_client_id_t *id)
{
    (void)version, (void)runtime_version, (void)priority;
    int (*active)(void) = NULL;
    *(void **)&agent_record = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_record");
    *(void **)&agent_set_flush = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_set_flush");
    *(void **)&active = dlsym(RTLD_DEFAULT, "rocprofsys_gpu_active");
    if (agent_record == NULL || agent_set_flush == NULL || active == NULL || !active()) {
        return NULL; /* not a profiled process: the SDK leaves this tool out */
    }
    if (id != NULL) {
        id->name = "rocprof-sys";
    }
    read_domains();
    read_events();
    const char *a = getenv("ROCPROFSYS_AGENT_ROCM_ARGS");
    record_args = a == NULL || strcmp(a, "0") != 0;
    const char *f = getenv("ROCPROFSYS_AGENT_ROCM_FLUSH_MS");
    if (f != NULL) {
        flush_ms = strtol(f, NULL, 10);
    }
    return &configure_result;
}
