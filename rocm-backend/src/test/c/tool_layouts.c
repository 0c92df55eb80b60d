/*
 * Prints the layout constants the ROCm tool declares (rsys_rocm_sdk.h) in sdk_layouts.c's format, so
 * RocmLayoutsTest can compare them with the numbers the SDK headers gave. Test code only.
 */
#include "rsys_rocm_sdk.h"
#include <stdio.h>
#define SZ(T, v) printf("size %s %zu\n", #T, (size_t)(v))
#define OF(T, f, v) printf("off %s.%s %zu\n", #T, #f, (size_t)(v))
#define EV(e, v) printf("enum %s %d\n", #e, (int)(v))
int main(void)
{
    SZ(rocprofiler_tool_configure_result_t, sizeof(rsdk_tool_configure_result_t));
    OF(rocprofiler_tool_configure_result_t, initialize, offsetof(rsdk_tool_configure_result_t, initialize));
    OF(rocprofiler_tool_configure_result_t, finalize, offsetof(rsdk_tool_configure_result_t, finalize));
    OF(rocprofiler_tool_configure_result_t, tool_data, offsetof(rsdk_tool_configure_result_t, tool_data));
    SZ(rocprofiler_client_id_t, sizeof(rsdk_client_id_t));
    OF(rocprofiler_client_id_t, name, offsetof(rsdk_client_id_t, name));
    OF(rocprofiler_client_id_t, handle, offsetof(rsdk_client_id_t, handle));
    SZ(rocprofiler_callback_tracing_record_t, sizeof(rsdk_callback_record_t));
    OF(rocprofiler_callback_tracing_record_t, thread_id, offsetof(rsdk_callback_record_t, thread_id));
    OF(rocprofiler_callback_tracing_record_t, correlation_id.internal, offsetof(rsdk_callback_record_t, correlation_id.internal));
    OF(rocprofiler_callback_tracing_record_t, correlation_id.external, offsetof(rsdk_callback_record_t, correlation_id.external));
    OF(rocprofiler_callback_tracing_record_t, kind, offsetof(rsdk_callback_record_t, kind));
    OF(rocprofiler_callback_tracing_record_t, operation, offsetof(rsdk_callback_record_t, operation));
    OF(rocprofiler_callback_tracing_record_t, phase, offsetof(rsdk_callback_record_t, phase));
    OF(rocprofiler_callback_tracing_record_t, payload, offsetof(rsdk_callback_record_t, payload));
    OF(rocprofiler_callback_tracing_marker_api_data_t, args.roctxMarkA.message, RSDK_MARKER_DATA_MESSAGE);
    SZ(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, RSDK_KSYM_SIZE);
    OF(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, kernel_id, RSDK_KSYM_KERNEL_ID);
    OF(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, kernel_name, RSDK_KSYM_KERNEL_NAME);
    SZ(rocprofiler_callback_tracing_hip_stream_data_t, RSDK_HIP_STREAM_DATA_SIZE);
    OF(rocprofiler_callback_tracing_hip_stream_data_t, stream_id, RSDK_HIP_STREAM_DATA_STREAM_ID);
    SZ(rocprofiler_record_header_t, sizeof(rsdk_record_header_t));
    OF(rocprofiler_record_header_t, kind, offsetof(rsdk_record_header_t, kind));
    OF(rocprofiler_record_header_t, payload, offsetof(rsdk_record_header_t, payload));
#define KD "rocprofiler_buffer_tracing_kernel_dispatch_record_t"
    SZ(rocprofiler_buffer_tracing_kernel_dispatch_record_t, RSDK_KD_SIZE);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, correlation_id.internal, RSDK_KD_CORRELATION_INTERNAL);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, thread_id, RSDK_KD_THREAD_ID);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, start_timestamp, RSDK_KD_START);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, end_timestamp, RSDK_KD_END);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.agent_id, RSDK_KD_AGENT_ID);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.queue_id, RSDK_KD_QUEUE_ID);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.kernel_id, RSDK_KD_KERNEL_ID);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.dispatch_id, RSDK_KD_DISPATCH_ID);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.private_segment_size, RSDK_KD_PRIVATE_SEGMENT);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.group_segment_size, RSDK_KD_GROUP_SEGMENT);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.workgroup_size, RSDK_KD_WORKGROUP);
    OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, dispatch_info.grid_size, RSDK_KD_GRID);
    SZ(rocprofiler_buffer_tracing_memory_copy_record_t, RSDK_MC_SIZE);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, operation, RSDK_MC_OPERATION);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, correlation_id.internal, RSDK_MC_CORRELATION_INTERNAL);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, thread_id, RSDK_MC_THREAD_ID);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, start_timestamp, RSDK_MC_START);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, end_timestamp, RSDK_MC_END);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, dst_agent_id, RSDK_MC_DST_AGENT);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, src_agent_id, RSDK_MC_SRC_AGENT);
    OF(rocprofiler_buffer_tracing_memory_copy_record_t, bytes, RSDK_MC_BYTES);
    SZ(rocprofiler_buffer_tracing_scratch_memory_record_t, RSDK_SM_SIZE);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, operation, RSDK_SM_OPERATION);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, correlation_id.internal, RSDK_SM_CORRELATION_INTERNAL);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, agent_id, RSDK_SM_AGENT_ID);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, queue_id, RSDK_SM_QUEUE_ID);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, thread_id, RSDK_SM_THREAD_ID);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, start_timestamp, RSDK_SM_START);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, end_timestamp, RSDK_SM_END);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, flags, RSDK_SM_FLAGS);
    OF(rocprofiler_buffer_tracing_scratch_memory_record_t, allocation_size, RSDK_SM_ALLOCATION_SIZE);
    SZ(rocprofiler_agent_v0_t, RSDK_AGENT_SIZE);
    OF(rocprofiler_agent_v0_t, id, RSDK_AGENT_ID);
    OF(rocprofiler_agent_v0_t, type, RSDK_AGENT_TYPE);
    OF(rocprofiler_agent_v0_t, cu_count, RSDK_AGENT_CU_COUNT);
    OF(rocprofiler_agent_v0_t, gfx_target_version, RSDK_AGENT_GFX_TARGET_VERSION);
    OF(rocprofiler_agent_v0_t, local_mem_size, RSDK_AGENT_LOCAL_MEM_SIZE);
    OF(rocprofiler_agent_v0_t, name, RSDK_AGENT_NAME);
    OF(rocprofiler_agent_v0_t, vendor_name, RSDK_AGENT_VENDOR_NAME);
    OF(rocprofiler_agent_v0_t, product_name, RSDK_AGENT_PRODUCT_NAME);
    OF(rocprofiler_agent_v0_t, model_name, RSDK_AGENT_MODEL_NAME);
    OF(rocprofiler_agent_v0_t, node_id, RSDK_AGENT_NODE_ID);
    OF(rocprofiler_agent_v0_t, logical_node_id, RSDK_AGENT_LOGICAL_NODE_ID);
    OF(rocprofiler_agent_v0_t, logical_node_type_id, RSDK_AGENT_LOGICAL_NODE_TYPE_ID);
    OF(rocprofiler_agent_v0_t, uuid, RSDK_AGENT_UUID);
    EV(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, RSDK_CB_HSA_CORE_API);
    EV(ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API, RSDK_CB_HSA_AMD_EXT_API);
    EV(ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API, RSDK_CB_HSA_IMAGE_EXT_API);
    EV(ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API, RSDK_CB_HSA_FINALIZE_EXT_API);
    EV(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API, RSDK_CB_HIP_RUNTIME_API);
    EV(ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API, RSDK_CB_HIP_COMPILER_API);
    EV(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, RSDK_CB_MARKER_CORE_API);
    EV(ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API, RSDK_CB_MARKER_CONTROL_API);
    EV(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API, RSDK_CB_MARKER_NAME_API);
    EV(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, RSDK_CB_CODE_OBJECT);
    EV(ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY, RSDK_CB_SCRATCH_MEMORY);
    EV(ROCPROFILER_CALLBACK_TRACING_RCCL_API, RSDK_CB_RCCL_API);
    EV(ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API, RSDK_CB_ROCDECODE_API);
    EV(ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API, RSDK_CB_ROCJPEG_API);
    EV(ROCPROFILER_CALLBACK_TRACING_HIP_STREAM, RSDK_CB_HIP_STREAM);
    EV(ROCPROFILER_CALLBACK_TRACING_LAST, RSDK_CB_LAST);
    EV(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, RSDK_BUF_MEMORY_COPY);
    EV(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, RSDK_BUF_KERNEL_DISPATCH);
    EV(ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY, RSDK_BUF_SCRATCH_MEMORY);
    EV(ROCPROFILER_BUFFER_TRACING_LAST, RSDK_BUF_LAST);
    EV(ROCPROFILER_BUFFER_CATEGORY_TRACING, RSDK_BUFFER_CATEGORY_TRACING);
    EV(ROCPROFILER_CALLBACK_PHASE_ENTER, RSDK_PHASE_ENTER);
    EV(ROCPROFILER_CALLBACK_PHASE_EXIT, RSDK_PHASE_EXIT);
    EV(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER, RSDK_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER);
    EV(ROCPROFILER_HIP_STREAM_SET, RSDK_HIP_STREAM_SET);
    EV(ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA, RSDK_ROCTX_MARK_A);
    EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA, RSDK_ROCTX_RANGE_PUSH_A);
    EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop, RSDK_ROCTX_RANGE_POP);
    EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA, RSDK_ROCTX_RANGE_START_A);
    EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop, RSDK_ROCTX_RANGE_STOP);
    EV(ROCPROFILER_AGENT_TYPE_GPU, RSDK_AGENT_TYPE_GPU);
    EV(ROCPROFILER_AGENT_TYPE_CPU, RSDK_AGENT_TYPE_CPU);
    EV(ROCPROFILER_BUFFER_POLICY_LOSSLESS, RSDK_BUFFER_POLICY_LOSSLESS);
    EV(ROCPROFILER_STATUS_SUCCESS, RSDK_STATUS_SUCCESS);
    return 0;
}
