package org.rocprofsys.run.testvendor;

import java.util.List;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.DeviceTrack;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuVendor;

/**
 * The test-only vendor as the writers see it: its names, domains and tracks, none of which core
 * knows. Its switch is {@code ROCPROFSYS_TRACE} (a vendor of the tests adds no setting).
 */
final class TestGpu {
    static final GpuVendor VENDOR =
            new GpuVendor("TestGPU", "ROCPROFSYS_TRACE", "testgpu_api_stats", "testgpu-profiler", "TestGPU Queue");

    static final GpuDomain API = VENDOR.domain("testgpu_api", "testgpu_api");
    static final GpuDomain KERNEL = VENDOR.domain("kernel_dispatch", "testgpu_kernel");
    static final GpuDomain COPY = VENDOR.domain("memory_copy", "testgpu_copy");

    private TestGpu() {}

    /** Every queue of a device is one engine track. */
    private static DeviceTrack engine(int device, long queue) {
        return new DeviceTrack("testgpu/" + device + "/" + queue, "TestGPU Engine " + device + "." + queue);
    }

    static GpuKernel kernel(
            int pid, int device, long queue, long correlationId, long beginNs, long endNs, String name, int lanes) {
        Dim3 grid = new Dim3(lanes, 1, 1);
        Dim3 block = new Dim3(64, 1, 1);
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("queue", queue)
                .integer("device", device)
                .string("lanes", Integer.toString(lanes))
                .build();
        return new GpuKernel(
                pid,
                device,
                queue,
                correlationId,
                beginNs,
                endNs,
                name,
                name,
                grid,
                block,
                0,
                0,
                0,
                KERNEL,
                new DevicePlacement(engine(device, queue), KERNEL.category(), annotations));
    }

    static GpuMemoryCopy copy(
            int pid,
            int device,
            long queue,
            long correlationId,
            long beginNs,
            long endNs,
            boolean toDevice,
            long bytes) {
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("bytes", bytes)
                .build();
        return new GpuMemoryCopy(
                pid,
                device,
                queue,
                correlationId,
                beginNs,
                endNs,
                toDevice ? CopyKind.HOST_TO_DEVICE : CopyKind.DEVICE_TO_HOST,
                bytes,
                toDevice ? -1 : device,
                toDevice ? device : -1,
                COPY,
                new DevicePlacement(engine(device, queue), COPY.category(), annotations));
    }
}
