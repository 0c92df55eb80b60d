package org.rocprofsys.cuda.decode;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.DeviceTrack;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuVendor;

/**
 * CUDA as the writers see it: the vendor, its domains (the names of {@code ROCPROFSYS_CUDA_DOMAINS}
 * and the trace's {@code cuda_*} categories) and where its device work goes, upstream's ROCm
 * layout in CUDA's words: kernels, copies and memsets on one track per device and stream,
 * {@code CUDA Activity Stream <stream> [<device>]}, annotated with the correlation id, stream and
 * device and each kind's own fields.
 */
public final class CudaGpu {
    public static final GpuVendor VENDOR =
            new GpuVendor("CUDA", "ROCPROFSYS_USE_CUDA", "cuda_api_stats", "cupti", "CUDA Stream");

    public static final GpuDomain RUNTIME_API = VENDOR.domain("cuda_runtime_api", Category.CUDA_RUNTIME_API.label());
    /** Driver calls run inside the runtime's calls, with their correlation ids. */
    public static final GpuDomain DRIVER_API =
            VENDOR.domain("cuda_driver_api", Category.CUDA_DRIVER_API.label()).asNested();

    public static final GpuDomain KERNEL_DISPATCH =
            VENDOR.domain("kernel_dispatch", Category.CUDA_KERNEL_DISPATCH.label());
    public static final GpuDomain MEMORY_COPY = VENDOR.domain("memory_copy", Category.CUDA_MEMORY_COPY.label());
    public static final GpuDomain MEMORY_SET = VENDOR.domain("memory_set", Category.CUDA_MEMORY_SET.label());
    public static final GpuDomain SYNCHRONIZATION = VENDOR.domain("synchronization", "synchronization");
    public static final GpuDomain MEMORY_ALLOCATION =
            VENDOR.domain("memory_allocation", Category.CUDA_MEMORY_ALLOCATION.label());
    public static final GpuDomain NVTX = VENDOR.domain("nvtx", Category.CUDA_NVTX.label());

    /** Every domain, in the model's order (the injection library's list keeps it). */
    public static final List<GpuDomain> DOMAINS = List.of(
            RUNTIME_API,
            DRIVER_API,
            KERNEL_DISPATCH,
            MEMORY_COPY,
            MEMORY_SET,
            SYNCHRONIZATION,
            MEMORY_ALLOCATION,
            NVTX);

    private CudaGpu() {}

    /** {@code domains} in the model's order. */
    public static Set<GpuDomain> inModelOrder(Set<GpuDomain> domains) {
        Set<GpuDomain> out = new LinkedHashSet<>();
        DOMAINS.stream().filter(domains::contains).forEach(out::add);
        return out;
    }

    /** A stream's track of a device. */
    static DeviceTrack stream(int device, long stream) {
        return new DeviceTrack(device + "/" + stream, "CUDA Activity Stream " + stream + " [" + device + "]");
    }

    private static GpuAnnotation.Builder work(long correlationId, long stream, int device) {
        return GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("stream_id", stream)
                .integer("device", device);
    }

    /** A kernel's stream track and annotations. */
    static DevicePlacement kernel(
            int device,
            long stream,
            long correlationId,
            Dim3 grid,
            Dim3 block,
            int staticShared,
            int dynamicShared,
            int registers) {
        List<GpuAnnotation> annotations = work(correlationId, stream, device)
                .string("grid_size", grid.toString())
                .string("workgroup_size", block.toString())
                .uint("group_segment_size", (long) staticShared + dynamicShared)
                .uint("static_shared_memory", staticShared)
                .uint("dynamic_shared_memory", dynamicShared)
                .uint("registers_per_thread", registers)
                .build();
        return new DevicePlacement(stream(device, stream), KERNEL_DISPATCH.category(), annotations);
    }

    /** A copy's stream track and annotations. */
    static DevicePlacement copy(int device, long stream, long correlationId, long bytes, int srcDevice, int dstDevice) {
        List<GpuAnnotation> annotations = work(correlationId, stream, device)
                .uint("bytes", bytes)
                .integer("src_agent", srcDevice)
                .integer("dst_agent", dstDevice)
                .build();
        return new DevicePlacement(stream(device, stream), MEMORY_COPY.category(), annotations);
    }

    /** A memset's stream track and annotations. */
    static DevicePlacement memset(int device, long stream, long correlationId, long bytes, long value) {
        List<GpuAnnotation> annotations = work(correlationId, stream, device)
                .uint("bytes", bytes)
                .uint("value", value)
                .build();
        return new DevicePlacement(stream(device, stream), MEMORY_SET.category(), annotations);
    }
}
