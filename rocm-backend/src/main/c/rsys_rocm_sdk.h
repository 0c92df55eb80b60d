/*
 * The rocprofiler-sdk types, constants and entry points the ROCm backend uses, declared from the
 * SDK's headers (ROCm/rocm-systems projects/rocprofiler-sdk, SDK 1.0.0, rocm-systems commit
 * 1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992) without including them: the backend builds without
 * a ROCm installation and finds the SDK's functions in the process at run time. Only the fields
 * the backend reads or writes are named; the rest are padding of the SDK's sizes. Every size and
 * offset below was computed once with the real headers (rocm-backend/src/test/c/sdk_layouts.c)
 * and is checked here at compile time and in Java by RocmLayoutsTest.
 */
#ifndef RSYS_ROCM_SDK_H
#define RSYS_ROCM_SDK_H

#include <stddef.h>
#include <stdint.h>

typedef int rsdk_status_t; /* rocprofiler_status_t */
#define RSDK_STATUS_SUCCESS 0

typedef struct { uint64_t handle; } rsdk_context_id_t;
typedef struct { uint64_t handle; } rsdk_buffer_id_t;
typedef struct { uint64_t handle; } rsdk_agent_id_t;
typedef union { uint64_t value; void *ptr; } rsdk_user_data_t;

/* rocprofiler_correlation_id_t: internal, external, ancestor */
typedef struct {
    uint64_t internal;
    rsdk_user_data_t external;
    uint64_t ancestor;
} rsdk_correlation_id_t;

/* rocprofiler_client_id_t */
typedef struct {
    size_t size;
    const char *name;
    uint32_t handle;
} rsdk_client_id_t;

typedef void (*rsdk_client_finalize_t)(rsdk_client_id_t);
/* rocprofiler_tool_configure_result_t */
typedef struct {
    size_t size;
    int (*initialize)(rsdk_client_finalize_t finalize, void *tool_data);
    void (*finalize)(void *tool_data);
    void *tool_data;
} rsdk_tool_configure_result_t;

/* rocprofiler_callback_tracing_record_t (passed by value to callbacks) */
typedef struct {
    rsdk_context_id_t context_id;
    uint64_t thread_id;
    rsdk_correlation_id_t correlation_id;
    int32_t kind;      /* rocprofiler_callback_tracing_kind_t */
    int32_t operation; /* rocprofiler_tracing_operation_t */
    int32_t phase;     /* rocprofiler_callback_phase_t */
    void *payload;
} rsdk_callback_record_t;

/* rocprofiler_callback_tracing_marker_api_data_t: size, then the args union, whose
 * roctxMarkA / roctxRangePushA / roctxRangeStartA members each begin with const char *message */
#define RSDK_MARKER_DATA_MESSAGE 8
/* rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t (88 bytes) */
#define RSDK_KSYM_SIZE 88
#define RSDK_KSYM_KERNEL_ID 8
#define RSDK_KSYM_KERNEL_NAME 24
/* rocprofiler_callback_tracing_hip_stream_data_t (24 bytes): size, stream_id, stream_value */
#define RSDK_HIP_STREAM_DATA_SIZE 24
#define RSDK_HIP_STREAM_DATA_STREAM_ID 8

/* rocprofiler_record_header_t */
typedef struct {
    union {
        struct {
            uint32_t category;
            uint32_t kind;
        };
        uint64_t hash;
    };
    void *payload;
} rsdk_record_header_t;

/* rocprofiler_buffer_tracing_kernel_dispatch_record_t (184 bytes) */
#define RSDK_KD_SIZE 184
#define RSDK_KD_CORRELATION_INTERNAL 16
#define RSDK_KD_THREAD_ID 32
#define RSDK_KD_START 40
#define RSDK_KD_END 48
#define RSDK_KD_AGENT_ID 64
#define RSDK_KD_QUEUE_ID 72
#define RSDK_KD_KERNEL_ID 80
#define RSDK_KD_DISPATCH_ID 88
#define RSDK_KD_PRIVATE_SEGMENT 96
#define RSDK_KD_GROUP_SEGMENT 100
#define RSDK_KD_WORKGROUP 104
#define RSDK_KD_GRID 116
/* rocprofiler_buffer_tracing_memory_copy_record_t (96 bytes) */
#define RSDK_MC_SIZE 96
#define RSDK_MC_OPERATION 12
#define RSDK_MC_CORRELATION_INTERNAL 16
#define RSDK_MC_THREAD_ID 32
#define RSDK_MC_START 40
#define RSDK_MC_END 48
#define RSDK_MC_DST_AGENT 56
#define RSDK_MC_SRC_AGENT 64
#define RSDK_MC_BYTES 72
/* rocprofiler_buffer_tracing_scratch_memory_record_t (96 bytes) */
#define RSDK_SM_SIZE 96
#define RSDK_SM_OPERATION 12
#define RSDK_SM_CORRELATION_INTERNAL 16
#define RSDK_SM_AGENT_ID 40
#define RSDK_SM_QUEUE_ID 48
#define RSDK_SM_THREAD_ID 56
#define RSDK_SM_START 64
#define RSDK_SM_END 72
#define RSDK_SM_FLAGS 80
#define RSDK_SM_ALLOCATION_SIZE 88
/* rocprofiler_agent_v0_t (312 bytes) */
#define RSDK_AGENT_SIZE 312
#define RSDK_AGENT_ID 8
#define RSDK_AGENT_TYPE 16
#define RSDK_AGENT_CU_COUNT 72
#define RSDK_AGENT_GFX_TARGET_VERSION 100
#define RSDK_AGENT_LOCAL_MEM_SIZE 176
#define RSDK_AGENT_NAME 248
#define RSDK_AGENT_VENDOR_NAME 256
#define RSDK_AGENT_PRODUCT_NAME 264
#define RSDK_AGENT_MODEL_NAME 272
#define RSDK_AGENT_NODE_ID 280
#define RSDK_AGENT_LOGICAL_NODE_ID 284
#define RSDK_AGENT_LOGICAL_NODE_TYPE_ID 288
#define RSDK_AGENT_UUID 296

/* rocprofiler_buffer_tracing_kfd_page_migrate_record_t (96 bytes): one migration, start and end paired */
#define RSDK_PM_SIZE 96
#define RSDK_PM_START 16
#define RSDK_PM_END 24
#define RSDK_PM_START_ADDRESS 40
#define RSDK_PM_END_ADDRESS 48
#define RSDK_PM_SRC_AGENT 56
#define RSDK_PM_DST_AGENT 64
#define RSDK_PM_PREFETCH_AGENT 72
#define RSDK_PM_ERROR_CODE 88
/* rocprofiler_buffer_tracing_kfd_page_fault_record_t (56 bytes) */
#define RSDK_PF_SIZE 56
#define RSDK_PF_START 16
#define RSDK_PF_END 24
#define RSDK_PF_AGENT_ID 40
#define RSDK_PF_ADDRESS 48

/* rocprofiler_dispatch_counting_service_data_t (168 bytes, passed by value): its dispatch_info is
 * rocprofiler_kernel_dispatch_info_t, as in the kernel dispatch record */
typedef struct {
    uint64_t size;
    uint64_t correlation_internal;
    uint64_t correlation_external;
    uint64_t start;
    uint64_t end;
    uint64_t dispatch_info_size;
    uint64_t agent_id;
    uint64_t queue_id;
    uint64_t kernel_id;
    uint64_t dispatch_id;
    unsigned char rest[88];
} rsdk_dispatch_counting_data_t;
/* rocprofiler_counter_record_t (40 bytes) */
typedef struct {
    uint64_t id; /* rocprofiler_counter_instance_id_t: counter and dimension position */
    double value;
    uint64_t dispatch_id;
    rsdk_user_data_t user_data;
    uint64_t agent_id;
} rsdk_counter_record_t;
/* rocprofiler_counter_info_v0_t (48 bytes) */
typedef struct {
    uint64_t id;
    const char *name;
    const char *description;
    const char *block;
    const char *expression;
    uint8_t flags; /* is_constant : 1, is_derived : 1 */
} rsdk_counter_info_v0_t;
#define RSDK_COUNTER_INFO_VERSION_0 1

/* rocprofiler_callback_tracing_kind_t */
enum {
    RSDK_CB_HSA_CORE_API = 1,
    RSDK_CB_HSA_AMD_EXT_API = 2,
    RSDK_CB_HSA_IMAGE_EXT_API = 3,
    RSDK_CB_HSA_FINALIZE_EXT_API = 4,
    RSDK_CB_HIP_RUNTIME_API = 5,
    RSDK_CB_HIP_COMPILER_API = 6,
    RSDK_CB_MARKER_CORE_API = 7,
    RSDK_CB_MARKER_CONTROL_API = 8,
    RSDK_CB_MARKER_NAME_API = 9,
    RSDK_CB_CODE_OBJECT = 10,
    RSDK_CB_SCRATCH_MEMORY = 11,
    RSDK_CB_RCCL_API = 14,
    RSDK_CB_ROCDECODE_API = 18,
    RSDK_CB_ROCJPEG_API = 19,
    RSDK_CB_HIP_STREAM = 20,
    RSDK_CB_LAST = 22,
};
/* rocprofiler_buffer_tracing_kind_t */
enum {
    RSDK_BUF_MEMORY_COPY = 10,
    RSDK_BUF_KERNEL_DISPATCH = 11,
    RSDK_BUF_SCRATCH_MEMORY = 12,
    RSDK_BUF_KFD_PAGE_MIGRATE = 29,
    RSDK_BUF_KFD_PAGE_FAULT = 30,
    RSDK_BUF_LAST = 33,
};
#define RSDK_BUFFER_CATEGORY_TRACING 1u
#define RSDK_PHASE_ENTER 1
#define RSDK_PHASE_EXIT 2
#define RSDK_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER 2
#define RSDK_HIP_STREAM_SET 3
#define RSDK_ROCTX_MARK_A 0
#define RSDK_ROCTX_RANGE_PUSH_A 1
#define RSDK_ROCTX_RANGE_POP 2
#define RSDK_ROCTX_RANGE_START_A 3
#define RSDK_ROCTX_RANGE_STOP 4
#define RSDK_AGENT_TYPE_CPU 1
#define RSDK_AGENT_TYPE_GPU 2
#define RSDK_AGENT_INFO_VERSION_0 1 /* ROCPROFILER_AGENT_INFO_VERSION_0 */
#define RSDK_BUFFER_POLICY_LOSSLESS 2

typedef void (*rsdk_callback_tracing_cb_t)(rsdk_callback_record_t record, rsdk_user_data_t *user_data,
                                           void *callback_data);
typedef void (*rsdk_buffer_tracing_cb_t)(rsdk_context_id_t context, rsdk_buffer_id_t buffer,
                                         rsdk_record_header_t **headers, size_t num_headers, void *data,
                                         uint64_t drop_count);
typedef rsdk_status_t (*rsdk_query_agents_cb_t)(int version, const void **agents, size_t num_agents,
                                                void *user_data);
typedef int (*rsdk_operation_args_cb_t)(int32_t kind, int32_t operation, uint32_t arg_number,
                                        const void *const arg_value_addr, int32_t arg_indirection_count,
                                        const char *arg_type, const char *arg_name, const char *arg_value_str,
                                        int32_t arg_dereference_count, void *data);

typedef void (*rsdk_dispatch_counting_cb_t)(rsdk_dispatch_counting_data_t dispatch, uint64_t *config,
                                            rsdk_user_data_t *user_data, void *data);
typedef void (*rsdk_dispatch_counting_record_cb_t)(rsdk_dispatch_counting_data_t dispatch,
                                                   rsdk_counter_record_t *records, size_t count,
                                                   rsdk_user_data_t user_data, void *data);
typedef rsdk_status_t (*rsdk_available_counters_cb_t)(uint64_t agent, uint64_t *counters, size_t count, void *data);

/* The SDK's counter functions: looked up only when counters are asked for (ROCPROFSYS_ROCM_EVENTS) */
#define RSDK_COUNTER_FUNCTIONS(X)                                                                            \
    X(rsdk_status_t, rocprofiler_iterate_agent_supported_counters, (uint64_t, rsdk_available_counters_cb_t, void *)) \
    X(rsdk_status_t, rocprofiler_query_counter_info, (uint64_t, int, void *))                                \
    X(rsdk_status_t, rocprofiler_create_counter_config, (uint64_t, uint64_t *, size_t, uint64_t *))          \
    X(rsdk_status_t, rocprofiler_query_record_counter_id, (uint64_t, uint64_t *))                            \
    X(rsdk_status_t, rocprofiler_configure_callback_dispatch_counting_service,                               \
      (rsdk_context_id_t, rsdk_dispatch_counting_cb_t, void *, rsdk_dispatch_counting_record_cb_t, void *))

/* The SDK functions the tool calls, found with dlsym once the SDK has called rocprofiler_configure. */
#define RSDK_FUNCTIONS(X)                                                                                    \
    X(rsdk_status_t, rocprofiler_create_context, (rsdk_context_id_t *))                                      \
    X(rsdk_status_t, rocprofiler_query_available_agents, (int, rsdk_query_agents_cb_t, size_t, void *))      \
    X(rsdk_status_t, rocprofiler_configure_callback_tracing_service,                                         \
      (rsdk_context_id_t, int32_t, const int32_t *, size_t, rsdk_callback_tracing_cb_t, void *))             \
    X(rsdk_status_t, rocprofiler_create_buffer,                                                              \
      (rsdk_context_id_t, size_t, size_t, int, rsdk_buffer_tracing_cb_t, void *, rsdk_buffer_id_t *))        \
    X(rsdk_status_t, rocprofiler_configure_buffer_tracing_service,                                           \
      (rsdk_context_id_t, int32_t, const int32_t *, size_t, rsdk_buffer_id_t))                               \
    X(rsdk_status_t, rocprofiler_start_context, (rsdk_context_id_t))                                         \
    X(rsdk_status_t, rocprofiler_query_callback_tracing_kind_operation_name,                                 \
      (int32_t, int32_t, const char **, uint64_t *))                                                         \
    X(rsdk_status_t, rocprofiler_iterate_callback_tracing_kind_operation_args,                               \
      (rsdk_callback_record_t, rsdk_operation_args_cb_t, int32_t, void *))                                   \
    X(rsdk_status_t, rocprofiler_get_timestamp, (uint64_t *))                                                \
    X(rsdk_status_t, rocprofiler_flush_buffer, (rsdk_buffer_id_t))                                           \
    X(const char *, rocprofiler_get_status_string, (rsdk_status_t))

/* compile-time check of the declared structs against the SDK headers' numbers */
_Static_assert(sizeof(rsdk_client_id_t) == 24 && offsetof(rsdk_client_id_t, handle) == 16, "client id");
_Static_assert(sizeof(rsdk_tool_configure_result_t) == 32 && offsetof(rsdk_tool_configure_result_t, tool_data) == 24,
               "configure result");
_Static_assert(sizeof(rsdk_callback_record_t) == 64, "callback record size");
_Static_assert(offsetof(rsdk_callback_record_t, thread_id) == 8 &&
                   offsetof(rsdk_callback_record_t, correlation_id.internal) == 16 &&
                   offsetof(rsdk_callback_record_t, correlation_id.external) == 24 &&
                   offsetof(rsdk_callback_record_t, kind) == 40 && offsetof(rsdk_callback_record_t, operation) == 44 &&
                   offsetof(rsdk_callback_record_t, phase) == 48 && offsetof(rsdk_callback_record_t, payload) == 56,
               "callback record offsets");
_Static_assert(sizeof(rsdk_record_header_t) == 16 && offsetof(rsdk_record_header_t, payload) == 8, "record header");

_Static_assert(sizeof(rsdk_dispatch_counting_data_t) == 168 &&
                   offsetof(rsdk_dispatch_counting_data_t, start) == 24 &&
                   offsetof(rsdk_dispatch_counting_data_t, agent_id) == 48 &&
                   offsetof(rsdk_dispatch_counting_data_t, dispatch_id) == 72,
               "dispatch counting data");
_Static_assert(sizeof(rsdk_counter_record_t) == 40 && offsetof(rsdk_counter_record_t, agent_id) == 32, "counter record");
_Static_assert(sizeof(rsdk_counter_info_v0_t) == 48 && offsetof(rsdk_counter_info_v0_t, expression) == 32,
               "counter info");

#endif
