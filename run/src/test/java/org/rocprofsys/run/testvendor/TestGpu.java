package org.rocprofsys.run.testvendor;

import java.util.List;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.DeviceTrack;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuDomain;
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

    /** A kernel on its queue's engine track. */
    static DevicePlacement kernel(int device, long queue, long correlationId, int lanes) {
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("queue", queue)
                .integer("device", device)
                .string("lanes", Integer.toString(lanes))
                .build();
        return new DevicePlacement(engine(device, queue), KERNEL.category(), annotations);
    }

    /** A copy on the device's first engine. */
    static DevicePlacement copy(int device, long correlationId, long bytes) {
        List<GpuAnnotation> annotations = GpuAnnotation.builder()
                .uint("corr_id", correlationId)
                .uint("bytes", bytes)
                .build();
        return new DevicePlacement(engine(device, 0), COPY.category(), annotations);
    }
}
