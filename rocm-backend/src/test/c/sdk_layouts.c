/*
 * Scratch build against the real rocprofiler-sdk headers (not run by the tests: the headers are not
 * in this tree). Prints the sizes, offsets and enum values of the SDK 1.0.0 types the ROCm tool
 * declares itself (rsys_rocm_sdk.h, RocmLayouts.java); RocmLayoutsTest records its output and checks
 * both declarations against it. To recompute, with ROCm/rocm-systems checked out at 1b1610fc:
 *   cc -std=c11 -I<rocm-systems>/projects/rocprofiler-sdk/source/include \
 *      -I<rocm-systems>/projects/rocr-runtime/libhsakmt/include -I<dir with hsa/ -> rocr-runtime's
 *      runtime/hsa-runtime/inc> -I<generated version.h, ext_version.h> sdk_layouts.c && ./a.out
 * (the HIP, rocDecode and rocJPEG argument headers may be stubs: no struct measured here holds them;
 * /opt/rocm/include works as it is on a machine with ROCm 7.)
 */
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/marker/api_id.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <stdio.h>
#include <stddef.h>
#define SZ(T) printf("size %s %zu\n", #T, sizeof(T))
#define OF(T, f) printf("off %s.%s %zu\n", #T, #f, offsetof(T, f))
#define EV(e) printf("enum %s %d\n", #e, (int)(e))
int main(void) {
  SZ(rocprofiler_tool_configure_result_t);
  OF(rocprofiler_tool_configure_result_t, size); OF(rocprofiler_tool_configure_result_t, initialize);
  OF(rocprofiler_tool_configure_result_t, finalize); OF(rocprofiler_tool_configure_result_t, tool_data);
  SZ(rocprofiler_client_id_t);
  OF(rocprofiler_client_id_t, size); OF(rocprofiler_client_id_t, name); OF(rocprofiler_client_id_t, handle);
  SZ(rocprofiler_callback_tracing_record_t);
  OF(rocprofiler_callback_tracing_record_t, context_id); OF(rocprofiler_callback_tracing_record_t, thread_id);
  OF(rocprofiler_callback_tracing_record_t, correlation_id.internal); OF(rocprofiler_callback_tracing_record_t, correlation_id.external);
  OF(rocprofiler_callback_tracing_record_t, kind); OF(rocprofiler_callback_tracing_record_t, operation);
  OF(rocprofiler_callback_tracing_record_t, phase); OF(rocprofiler_callback_tracing_record_t, payload);
  OF(rocprofiler_callback_tracing_marker_api_data_t, size); OF(rocprofiler_callback_tracing_marker_api_data_t, args.roctxMarkA.message);
  OF(rocprofiler_callback_tracing_marker_api_data_t, args.roctxRangePushA.message); OF(rocprofiler_callback_tracing_marker_api_data_t, args.roctxRangeStartA.message);
  SZ(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t);
  OF(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, size);
  OF(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, kernel_id);
  OF(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, code_object_id);
  OF(rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t, kernel_name);
  SZ(rocprofiler_callback_tracing_hip_stream_data_t);
  OF(rocprofiler_callback_tracing_hip_stream_data_t, size); OF(rocprofiler_callback_tracing_hip_stream_data_t, stream_id);
  SZ(rocprofiler_record_header_t);
  OF(rocprofiler_record_header_t, category); OF(rocprofiler_record_header_t, kind); OF(rocprofiler_record_header_t, hash); OF(rocprofiler_record_header_t, payload);
  SZ(rocprofiler_buffer_tracing_kernel_dispatch_record_t);
#define KD(f) OF(rocprofiler_buffer_tracing_kernel_dispatch_record_t, f)
  KD(size); KD(kind); KD(operation); KD(correlation_id.internal); KD(correlation_id.external); KD(thread_id);
  KD(start_timestamp); KD(end_timestamp); KD(dispatch_info); KD(dispatch_info.size); KD(dispatch_info.agent_id);
  KD(dispatch_info.queue_id); KD(dispatch_info.kernel_id); KD(dispatch_info.dispatch_id);
  KD(dispatch_info.private_segment_size); KD(dispatch_info.group_segment_size); KD(dispatch_info.workgroup_size);
  KD(dispatch_info.grid_size);
  SZ(rocprofiler_kernel_dispatch_info_t);
  SZ(rocprofiler_buffer_tracing_memory_copy_record_t);
#define MC(f) OF(rocprofiler_buffer_tracing_memory_copy_record_t, f)
  MC(size); MC(kind); MC(operation); MC(correlation_id.internal); MC(correlation_id.external); MC(thread_id);
  MC(start_timestamp); MC(end_timestamp); MC(dst_agent_id); MC(src_agent_id); MC(bytes); MC(dst_address); MC(src_address);
  SZ(rocprofiler_buffer_tracing_scratch_memory_record_t);
#define SM(f) OF(rocprofiler_buffer_tracing_scratch_memory_record_t, f)
  SM(size); SM(kind); SM(operation); SM(correlation_id.internal); SM(agent_id); SM(queue_id); SM(thread_id);
  SM(start_timestamp); SM(end_timestamp); SM(flags); SM(allocation_size);
  SZ(rocprofiler_agent_v0_t);
#define AG(f) OF(rocprofiler_agent_v0_t, f)
  AG(size); AG(id); AG(type); AG(simd_count); AG(cu_count); AG(gfx_target_version); AG(local_mem_size);
  AG(name); AG(vendor_name); AG(product_name); AG(model_name); AG(node_id); AG(logical_node_id); AG(logical_node_type_id); AG(uuid);
  SZ(rocprofiler_uuid_t);
  EV(ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API); EV(ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API);
  EV(ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API); EV(ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API);
  EV(ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API); EV(ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API);
  EV(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API); EV(ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API);
  EV(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API); EV(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT);
  EV(ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY); EV(ROCPROFILER_CALLBACK_TRACING_RCCL_API);
  EV(ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API); EV(ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API);
  EV(ROCPROFILER_CALLBACK_TRACING_HIP_STREAM); EV(ROCPROFILER_CALLBACK_TRACING_LAST);
  EV(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY); EV(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
  EV(ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY); EV(ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE); EV(ROCPROFILER_BUFFER_TRACING_LAST);
  EV(ROCPROFILER_BUFFER_CATEGORY_TRACING); EV(ROCPROFILER_CALLBACK_PHASE_ENTER); EV(ROCPROFILER_CALLBACK_PHASE_EXIT);
  EV(ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER); EV(ROCPROFILER_HIP_STREAM_SET);
  EV(ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA); EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA);
  EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop); EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA);
  EV(ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop); EV(ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId);
  EV(ROCPROFILER_AGENT_TYPE_GPU); EV(ROCPROFILER_AGENT_TYPE_CPU); EV(ROCPROFILER_BUFFER_POLICY_LOSSLESS);
  EV(ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE); EV(ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST); EV(ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE);
  EV(ROCPROFILER_MEMORY_COPY_HOST_TO_HOST);
  EV(ROCPROFILER_SCRATCH_MEMORY_ALLOC); EV(ROCPROFILER_SCRATCH_MEMORY_FREE); EV(ROCPROFILER_SCRATCH_MEMORY_ASYNC_RECLAIM);
  EV(ROCPROFILER_STATUS_SUCCESS); EV(ROCPROFILER_STATUS_ERROR);
  /* second pass: page migration and faults (KFD), dispatch counters */
  SZ(rocprofiler_buffer_tracing_kfd_page_migrate_record_t);
#define PM(f) OF(rocprofiler_buffer_tracing_kfd_page_migrate_record_t, f)
  PM(size); PM(kind); PM(operation); PM(start_timestamp); PM(end_timestamp); PM(pid); PM(start_address); PM(end_address);
  PM(src_agent); PM(dst_agent); PM(prefetch_agent); PM(preferred_agent); PM(error_code);
  SZ(rocprofiler_buffer_tracing_kfd_page_fault_record_t);
#define PF(f) OF(rocprofiler_buffer_tracing_kfd_page_fault_record_t, f)
  PF(size); PF(kind); PF(operation); PF(start_timestamp); PF(end_timestamp); PF(pid); PF(agent_id); PF(address);
  SZ(rocprofiler_dispatch_counting_service_data_t);
#define DC(f) OF(rocprofiler_dispatch_counting_service_data_t, f)
  DC(size); DC(correlation_id.internal); DC(correlation_id.external); DC(start_timestamp); DC(end_timestamp); DC(dispatch_info);
  DC(dispatch_info.agent_id); DC(dispatch_info.queue_id); DC(dispatch_info.kernel_id); DC(dispatch_info.dispatch_id); DC(dispatch_info.grid_size);
  SZ(rocprofiler_counter_record_t);
#define CR(f) OF(rocprofiler_counter_record_t, f)
  CR(id); CR(counter_value); CR(dispatch_id); CR(user_data); CR(agent_id);
  SZ(rocprofiler_counter_info_v0_t);
#define CI(f) OF(rocprofiler_counter_info_v0_t, f)
  CI(id); CI(name); CI(description); CI(block); CI(expression);
  SZ(rocprofiler_counter_id_t); SZ(rocprofiler_counter_config_id_t);
  EV(ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE); EV(ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT);
  EV(ROCPROFILER_COUNTER_INFO_VERSION_0);
  return 0;
}
