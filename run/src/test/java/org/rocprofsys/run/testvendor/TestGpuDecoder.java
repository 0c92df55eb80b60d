package org.rocprofsys.run.testvendor;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.spi.BackendRecords;

/** One process image's test-vendor records into the neutral GPU events. */
final class TestGpuDecoder implements BackendRecords {
    private final int pid;
    private final Consumer<TraceEvent> out;

    TestGpuDecoder(int pid, Consumer<TraceEvent> out) {
        this.pid = pid;
        this.out = out;
    }

    @Override
    public boolean owns(int type) {
        return TestGpuRecords.owns(type);
    }

    @Override
    public void accept(int tid, MemorySegment r) {
        int device = TestGpuRecords.device(r);
        long begin = TestGpuRecords.begin(r);
        long end = TestGpuRecords.end(r);
        long correlation = TestGpuRecords.correlation(r);
        long word = TestGpuRecords.word(r);
        String name = TestGpuRecords.name(r);
        gpu(
                switch (TestGpuRecords.type(r)) {
                    case TestGpuRecords.DEVICE ->
                        new GpuDevice(pid, begin, device, "TestGPU", name, "TG-" + device, 4, word, "1.0");
                    case TestGpuRecords.API ->
                        new GpuApiCall(pid, tid, TestGpu.API, name, begin, end, correlation, word, List.of());
                    case TestGpuRecords.KERNEL ->
                        kernel(device, word & 0xffff, correlation, begin, end, name, (int) (word >>> 32));
                    case TestGpuRecords.COPY -> copy(device, correlation, begin, end, name.equals("in"), word);
                    default ->
                        throw new IllegalArgumentException("not a test-vendor record: " + TestGpuRecords.type(r));
                });
    }

    private GpuKernel kernel(int device, long queue, long correlation, long begin, long end, String name, int lanes) {
        return new GpuKernel(
                pid,
                device,
                queue,
                correlation,
                begin,
                end,
                name,
                name,
                new Dim3(lanes, 1, 1),
                new Dim3(64, 1, 1),
                0,
                0,
                0,
                TestGpu.KERNEL,
                TestGpu.kernel(device, queue, correlation, lanes));
    }

    private GpuMemoryCopy copy(int device, long correlation, long begin, long end, boolean toDevice, long bytes) {
        return new GpuMemoryCopy(
                pid,
                device,
                0,
                correlation,
                begin,
                end,
                toDevice ? CopyKind.HOST_TO_DEVICE : CopyKind.DEVICE_TO_HOST,
                bytes,
                toDevice ? -1 : device,
                toDevice ? device : -1,
                TestGpu.COPY,
                TestGpu.copy(device, correlation, bytes));
    }

    @Override
    public void finish(long endNs) {}

    private void gpu(GpuEvent e) {
        out.accept(new GpuActivity(e));
    }
}
