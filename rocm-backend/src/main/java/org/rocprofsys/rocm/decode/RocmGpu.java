package org.rocprofsys.rocm.decode;

import java.util.List;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.DeviceTrack;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuScratchMemory;
import org.rocprofsys.core.gpu.GpuVendor;

/**
 * ROCm as the writers see it: the vendor, its domains (upstream's categories, inventory §4.2-4.3;
 * every API call with a correlation id starts a flow, {@code Flow::ProcessScoped}) and the trace's
 * device tracks as upstream's rocprofiler-sdk backend names them: kernels and copies on
 * {@code HIP Activity Stream <stream>} (category {@code rocm_hip_stream}), or, grouped by queue
 * (or with no stream), kernels on {@code GPU Kernel Dispatch [<device>] Queue <queue>}
 * ({@code rocm_kernel_dispatch}) and copies on
 * {@code GPU Memory Copy to Agent [<dst agent>] Thread <n>} ({@code rocm_memory_copy}). Scratch
 * memory, which upstream's buffer handler does not place, goes on
 * {@code GPU Scratch Memory [<device>] Queue <queue>} ({@code rocm_scratch_memory}). Its rocpd
 * streams keep the name the writer gave every vendor's ({@code CUDA Stream <id> [<device>]}).
 */
public final class RocmGpu {
    public static final GpuVendor VENDOR =
            new GpuVendor("ROCm", "ROCPROFSYS_USE_ROCM", "hip_api_stats", "rocprofiler-sdk", "CUDA Stream");

    public static final GpuDomain HIP_RUNTIME_API = api("hip_runtime_api", Category.ROCM_HIP_API);
    public static final GpuDomain HIP_COMPILER_API = api("hip_compiler_api", Category.ROCM_HIP_API);
    public static final GpuDomain HSA_CORE_API = api("hsa_core_api", Category.ROCM_HSA_API);
    public static final GpuDomain HSA_AMD_EXT_API = api("hsa_amd_ext_api", Category.ROCM_HSA_API);
    public static final GpuDomain HSA_IMAGE_EXT_API = api("hsa_image_ext_api", Category.ROCM_HSA_API);
    public static final GpuDomain HSA_FINALIZE_EXT_API = api("hsa_finalize_ext_api", Category.ROCM_HSA_API);
    public static final GpuDomain MARKER_CORE_API = api("marker_core_api", Category.ROCM_MARKER_API);
    public static final GpuDomain RCCL_API = api("rccl_api", Category.ROCM_RCCL_API);
    public static final GpuDomain ROCDECODE_API = api("rocdecode_api", Category.ROCM_ROCDECODE_API);
    public static final GpuDomain ROCJPEG_API = api("rocjpeg_api", Category.ROCM_ROCJPEG_API);
    public static final GpuDomain KERNEL_DISPATCH =
            VENDOR.domain("kernel_dispatch", Category.ROCM_KERNEL_DISPATCH.label());
    public static final GpuDomain MEMORY_COPY = VENDOR.domain("memory_copy", Category.ROCM_MEMORY_COPY.label());
    public static final GpuDomain SCRATCH_MEMORY =
            VENDOR.domain("scratch_memory", Category.ROCM_SCRATCH_MEMORY.label());

    /** The category of work on a HIP stream's track. */
    static final String STREAM_CATEGORY = Category.ROCM_HIP_STREAM.label();

    private RocmGpu() {}

    private static GpuDomain api(String settingName, Category category) {
        return VENDOR.domain(settingName, category.label()).withEveryCallStartingFlows();
    }

    private static DeviceTrack stream(long stream) {
        return new DeviceTrack("rocm/s/" + stream, "HIP Activity Stream " + stream);
    }

    /** What a dispatch adds to the neutral kernel: its queue and upstream's dispatch annotations. */
    record Dispatch(long queueId, long dispatchId, long kernelId, long privateSegmentSize, long groupSegmentSize) {}

    /**
     * A kernel dispatch (its {@code stream} the HIP stream id, 0 when the launch named none) on its
     * queue's track ({@code byQueue}) or its stream's, with upstream's dispatch annotations.
     */
    static DevicePlacement kernel(
            int device, long stream, long correlationId, Dim3 grid, Dim3 block, Dispatch d, boolean byQueue) {
        DeviceTrack track = byQueue
                ? new DeviceTrack(
                        "rocm/q/" + device + "/" + d.queueId(),
                        "GPU Kernel Dispatch [" + device + "] Queue " + d.queueId())
                : stream(stream);
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("stream_id", stream)
                .uint("queue", d.queueId())
                .uint("dispatch_id", d.dispatchId())
                .uint("kernel_id", d.kernelId())
                .uint("private_segment_size", d.privateSegmentSize())
                .uint("group_segment_size", d.groupSegmentSize())
                .string("workgroup_size", block.toString())
                .string("grid_size", grid.toString())
                .build();
        return new DevicePlacement(track, byQueue ? KERNEL_DISPATCH.category() : STREAM_CATEGORY, annotations);
    }

    /**
     * A memory copy (its {@code stream} the HIP stream id, 0 when none) on
     * {@code GPU Memory Copy to Agent [<dst node>] Thread <n>} of the thread that asked for it
     * ({@code byQueue}) or its stream's track, annotated with the agents' logical node ids as
     * upstream does.
     */
    static DevicePlacement copy(long stream, long correlationId, int srcNode, int dstNode, int tid, boolean byQueue) {
        DeviceTrack track = byQueue
                ? new DeviceTrack(
                        "rocm/c/" + dstNode + "/" + tid, "GPU Memory Copy to Agent [" + dstNode + "] Thread ", tid)
                : stream(stream);
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("stream_id", stream)
                .integer("dst_agent", dstNode)
                .integer("src_agent", srcNode)
                .build();
        return new DevicePlacement(track, byQueue ? MEMORY_COPY.category() : STREAM_CATEGORY, annotations);
    }

    /** A scratch-memory operation on its device queue's scratch track. */
    static GpuScratchMemory scratch(
            int pid, int tid, int device, long queueId, long beginNs, long endNs, String operation, long bytes) {
        DeviceTrack track = new DeviceTrack(
                "rocm/m/" + device + "/" + queueId, "GPU Scratch Memory [" + device + "] Queue " + queueId);
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("queue", queueId)
                .integer("device", device)
                .uint("allocation_size", bytes)
                .build();
        return new GpuScratchMemory(
                pid,
                tid,
                device,
                beginNs,
                endNs,
                operation,
                bytes,
                SCRATCH_MEMORY,
                new DevicePlacement(track, SCRATCH_MEMORY.category(), annotations));
    }
}
