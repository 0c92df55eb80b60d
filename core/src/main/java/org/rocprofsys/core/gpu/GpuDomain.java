package org.rocprofsys.core.gpu;

/**
 * The tracing domains a GPU backend records, with the names users give in
 * {@code ROCPROFSYS_CUDA_DOMAINS} (and the Perfetto categories of the API domains).
 */
public enum GpuDomain {
    CUDA_RUNTIME_API("cuda_runtime_api"),
    CUDA_DRIVER_API("cuda_driver_api"),
    KERNEL_DISPATCH("kernel_dispatch"),
    MEMORY_COPY("memory_copy"),
    MEMORY_SET("memory_set"),
    SYNCHRONIZATION("synchronization"),
    MEMORY_ALLOCATION("memory_allocation"),
    NVTX("nvtx");

    private final String settingName;

    GpuDomain(String settingName) {
        this.settingName = settingName;
    }

    /** The name in settings and categories. */
    public String settingName() {
        return settingName;
    }
}
