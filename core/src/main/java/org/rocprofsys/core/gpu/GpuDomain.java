package org.rocprofsys.core.gpu;

/**
 * The tracing domains a GPU backend records, with the names users give in
 * {@code ROCPROFSYS_CUDA_DOMAINS} / {@code ROCPROFSYS_ROCM_DOMAINS} and the Perfetto category of
 * the API calls of each API domain ({@link #category()}).
 */
public enum GpuDomain {
    CUDA_RUNTIME_API("cuda_runtime_api"),
    CUDA_DRIVER_API("cuda_driver_api"),
    KERNEL_DISPATCH("kernel_dispatch"),
    MEMORY_COPY("memory_copy"),
    MEMORY_SET("memory_set"),
    SYNCHRONIZATION("synchronization"),
    MEMORY_ALLOCATION("memory_allocation"),
    NVTX("nvtx"),
    // ROCm (rocprofiler-sdk) API domains: upstream's categories (inventory §4.2-4.3)
    HIP_RUNTIME_API("hip_runtime_api", "rocm_hip_api"),
    HIP_COMPILER_API("hip_compiler_api", "rocm_hip_api"),
    HSA_CORE_API("hsa_core_api", "rocm_hsa_api"),
    HSA_AMD_EXT_API("hsa_amd_ext_api", "rocm_hsa_api"),
    HSA_IMAGE_EXT_API("hsa_image_ext_api", "rocm_hsa_api"),
    HSA_FINALIZE_EXT_API("hsa_finalize_ext_api", "rocm_hsa_api"),
    MARKER_CORE_API("marker_core_api", "rocm_marker_api"),
    RCCL_API("rccl_api", "rocm_rccl_api"),
    ROCDECODE_API("rocdecode_api", "rocm_rocdecode_api"),
    ROCJPEG_API("rocjpeg_api", "rocm_rocjpeg_api"),
    SCRATCH_MEMORY("scratch_memory", "rocm_scratch_memory");

    private final String settingName;
    private final String category;

    GpuDomain(String settingName) {
        this(settingName, settingName);
    }

    GpuDomain(String settingName, String category) {
        this.settingName = settingName;
        this.category = category;
    }

    /** The name in settings (and in CUDA's categories). */
    public String settingName() {
        return settingName;
    }

    /** The Perfetto category of this domain's API calls. */
    public String category() {
        return category;
    }

    /** A domain only the ROCm backend records (its category is upstream's {@code rocm_*}). */
    public boolean rocm() {
        return category.startsWith("rocm_");
    }
}
