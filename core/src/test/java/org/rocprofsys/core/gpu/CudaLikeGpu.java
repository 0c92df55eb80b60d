package org.rocprofsys.core.gpu;

import java.util.List;

/**
 * Core's tests' GPU vendor: CUDA's names as cuda-backend defines them (core names no vendor), so
 * that the writers' tests build events as the CUDA decoder does.
 */
public final class CudaLikeGpu {
    public static final GpuVendor VENDOR =
            new GpuVendor("CUDA", "ROCPROFSYS_USE_CUDA", "cuda_api_stats", "cupti", "CUDA Stream");
    /** ROCm's vendor as far as its tracing switch: the formats that any GPU tracing turns on. */
    public static final GpuVendor ROCM_SWITCH =
            new GpuVendor("ROCm", "ROCPROFSYS_USE_ROCM", "hip_api_stats", "rocprofiler-sdk", "CUDA Stream");

    public static final GpuDomain RUNTIME = VENDOR.domain("cuda_runtime_api", "cuda_runtime_api");
    public static final GpuDomain DRIVER =
            VENDOR.domain("cuda_driver_api", "cuda_driver_api").asNested();
    public static final GpuDomain KERNEL = VENDOR.domain("kernel_dispatch", "cuda_kernel_dispatch");
    public static final GpuDomain COPY = VENDOR.domain("memory_copy", "cuda_memory_copy");
    public static final GpuDomain MEMSET = VENDOR.domain("memory_set", "cuda_memory_set");
    public static final GpuDomain ALLOCATION = VENDOR.domain("memory_allocation", "cuda_memory_allocation");
    public static final GpuDomain NVTX = VENDOR.domain("nvtx", "cuda_nvtx");

    private CudaLikeGpu() {}

    /** A stream's track, {@code CUDA Activity Stream <stream> [<device>]}, without annotations. */
    public static DevicePlacement on(GpuDomain domain, int device, long stream) {
        return new DevicePlacement(
                new DeviceTrack(device + "/" + stream, "CUDA Activity Stream " + stream + " [" + device + "]"),
                domain.category(),
                List.of());
    }
}
