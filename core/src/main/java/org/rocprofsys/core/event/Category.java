package org.rocprofsys.core.event;

/**
 * The categories of {@code rocprofsys_category_t} in agent/src/main/include/rocprofiler-systems/
 * categories.h (upstream 1.2.0's numbering; CategoryTest keeps the two in step), with the Perfetto
 * {@code slice.category} string of each (inventory §4.2).
 */
public enum Category {
    NONE(0, "none"),
    PYTHON(1, "python"),
    USER(2, "user"),
    HOST(3, "host"),
    ROCM(4, "rocm"),
    ROCM_HIP_API(5, "rocm_hip_api"),
    ROCM_HSA_API(6, "rocm_hsa_api"),
    ROCM_KERNEL_DISPATCH(7, "rocm_kernel_dispatch"),
    ROCM_MEMORY_COPY(8, "rocm_memory_copy"),
    ROCM_SCRATCH_MEMORY(9, "rocm_scratch_memory"),
    ROCM_HIP_STREAM(10, "rocm_hip_stream"),
    ROCM_PAGE_MIGRATION(11, "rocm_page_migration"),
    ROCM_COUNTER_COLLECTION(12, "rocm_counter_collection"),
    ROCM_MARKER_API(13, "rocm_marker_api"),
    ROCM_ROCDECODE_API(14, "rocm_rocdecode_api"),
    ROCM_ROCJPEG_API(15, "rocm_rocjpeg_api"),
    ROCM_RCCL_API(16, "rocm_rccl_api"),
    AMD_SMI(17, "amd_smi"),
    AMD_SMI_BUSY_GFX(18, "device_busy_gfx"),
    AMD_SMI_BUSY_UMC(19, "device_busy_umc"),
    AMD_SMI_BUSY_MM(20, "device_busy_mm"),
    AMD_SMI_TEMP(21, "device_temp"),
    AMD_SMI_POWER(22, "device_power"),
    AMD_SMI_MEMORY_USAGE(23, "device_memory_usage"),
    AMD_SMI_VCN_ACTIVITY(24, "device_vcn_activity"),
    AMD_SMI_JPEG_ACTIVITY(25, "device_jpeg_activity"),
    ROCM_RCCL(26, "rccl"),
    SAMPLING(27, "sampling"),
    PTHREAD(28, "pthread"),
    KOKKOS(29, "kokkos"),
    MPI(30, "mpi"),
    OMPT(31, "ompt"),
    PROCESS_SAMPLING(32, "process_sampling"),
    COMM_DATA(33, "comm_data"),
    CAUSAL(34, "causal"),
    CPU_FREQ(35, "cpu_frequency"),
    PROCESS_PAGE(36, "process_page_fault"),
    PROCESS_VIRT(37, "process_virtual_memory"),
    PROCESS_PEAK(38, "process_memory_hwm"),
    PROCESS_CONTEXT_SWITCH(39, "process_context_switch"),
    PROCESS_PAGE_FAULT(40, "process_page_fault"),
    PROCESS_USER_MODE_TIME(41, "process_user_cpu_time"),
    PROCESS_KERNEL_MODE_TIME(42, "process_kernel_cpu_time"),
    THREAD_WALL_TIME(43, "thread_wall_time"),
    THREAD_CPU_TIME(44, "thread_cpu_time"),
    THREAD_PAGE_FAULT(45, "thread_page_fault"),
    THREAD_PEAK_MEMORY(46, "thread_peak_memory"),
    THREAD_CONTEXT_SWITCH(47, "thread_context_switch"),
    THREAD_HARDWARE_COUNTER(48, "thread_hardware_counter"),
    KERNEL_HARDWARE_COUNTER(49, "kernel_hardware_counter"),
    NUMA(50, "numa"),
    VAAPI(51, "vaapi"),
    TIMER_SAMPLING(52, "timer_sampling"),
    OVERFLOW_SAMPLING(53, "overflow_sampling"),
    // CUDA (issue 12): not upstream's; upstream's ROCm layout with CUDA's words
    CUDA_RUNTIME_API(54, "cuda_runtime_api"),
    CUDA_DRIVER_API(55, "cuda_driver_api"),
    CUDA_KERNEL_DISPATCH(56, "cuda_kernel_dispatch"),
    CUDA_MEMORY_COPY(57, "cuda_memory_copy"),
    CUDA_MEMORY_SET(58, "cuda_memory_set"),
    CUDA_MEMORY_ALLOCATION(59, "cuda_memory_allocation"),
    CUDA_NVTX(60, "cuda_nvtx");

    private static final Category[] BY_CODE = values();

    private final int code;
    private final String label;

    Category(int code, String label) {
        this.code = code;
        this.label = label;
    }

    public int code() {
        return code;
    }

    /** The Perfetto category string, e.g. {@code host}. */
    public String label() {
        return label;
    }

    /** The category of a code the agent sent; an unknown code becomes {@link #NONE}. */
    public static Category fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : NONE;
    }
}
