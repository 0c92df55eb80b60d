package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.CudaLikeGpu;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuKernel;

class CollectionFilterTest {
    private static final long MS = 1_000_000L;
    private final List<TraceEvent> out = new ArrayList<>();

    private static RegionBegin begin(long t, String name) {
        return new RegionBegin(t, 1, 1, name, Category.USER, List.of(), RegionMetrics.NONE);
    }

    private static RegionEnd end(long t) {
        return new RegionEnd(t, 1, 1, Category.USER, List.of(), RegionMetrics.NONE, false);
    }

    private List<String> names() {
        return out.stream()
                .map(e -> e instanceof RegionBegin b ? "+" + b.name() : e instanceof RegionEnd ? "-" : "p")
                .toList();
    }

    /** A filter through the windows of {@code spec}, the app process started at {@code t0}. */
    private CollectionFilter windowedFrom(long t0, String spec) {
        return started(new TraceWindows(List.of(TraceWindows.parse(spec))), true, t0);
    }

    /** A filter through {@code windows}, collecting from the start if {@code on}, the app process started at {@code t0}. */
    private CollectionFilter started(TraceWindows windows, boolean on, long t0) {
        CollectionFilter f = new CollectionFilter(windows, on, out::add);
        f.accept(new ProcessStarted(t0, 1, 0, "/bin/app", List.of("app"), 0, 0));
        return f;
    }

    @Test
    void regionsBeginningOutsideTheWindowAreDroppedWithTheirEnds() {
        long t0 = 1000 * MS;
        CollectionFilter f = windowedFrom(t0, "0.75:0.75");
        f.accept(begin(t0, "main"));
        // examples/trace-time-window: five calls of 490 ms each; the window is [750 ms, 1500 ms)
        for (int i = 0; i < 5; i++) {
            f.accept(begin(t0 + i * 490 * MS, "outer_" + (char) ('a' + i)));
            f.accept(end(t0 + (i + 1) * 490 * MS));
        }
        f.accept(end(t0 + 2500 * MS));
        assertEquals(List.of("p", "+outer_c", "-", "+outer_d", "-"), names());
    }

    @Test
    void stopAndStartTraceFromTheProgram() {
        CollectionFilter f = started(new TraceWindows(List.of()), false, 0);
        f.accept(begin(1, "before-start"));
        f.accept(new TraceControl(2, 1, 1, true, true));
        f.accept(begin(3, "kept"));
        f.accept(new TraceControl(4, 1, 1, false, false));
        f.accept(end(5));
        f.accept(begin(6, "thread-off"));
        f.accept(end(7));
        f.accept(end(8));
        assertEquals(List.of("p", "+kept", "-"), names());
    }

    @Test
    void unmatchedEndIsDropped() {
        CollectionFilter f = new CollectionFilter(new TraceWindows(List.of()), true, out::add);
        f.accept(end(1));
        f.accept(begin(2, "a"));
        f.accept(end(3));
        assertEquals(List.of("+a", "-"), names());
    }

    private static GpuActivity launch(long t, String name) {
        return new GpuActivity(new GpuApiCall(1, 1, CudaLikeGpu.RUNTIME, name, t, t + 10, 1, List.of()));
    }

    private static GpuActivity kernel(long t, String name) {
        return new GpuActivity(new GpuKernel(
                1,
                0,
                7,
                1,
                t,
                t + 10,
                name,
                name,
                new Dim3(1, 1, 1),
                new Dim3(1, 1, 1),
                0,
                0,
                8,
                CudaLikeGpu.KERNEL,
                CudaLikeGpu.on(CudaLikeGpu.KERNEL, 0, 7)));
    }

    private List<String> gpuNames() {
        return out.stream()
                .map(e -> switch (e instanceof GpuActivity g ? g.event() : null) {
                    case GpuApiCall c -> c.function();
                    case GpuKernel k -> k.name();
                    case GpuDevice d -> "device";
                    case null, default -> "p";
                })
                .toList();
    }

    @Test
    void gpuEventsFollowTheWindowsByTheirBeginTime() {
        long t0 = 1000 * MS;
        CollectionFilter f = windowedFrom(t0, "0.5:0.5");
        f.accept(new GpuActivity(new GpuDevice(1, t0, 0, "NVIDIA", "H100", "GPU-x", 132, 1L << 36, "9.0")));
        f.accept(launch(t0 + 100 * MS, "early-call"));
        f.accept(launch(t0 + 600 * MS, "call"));
        f.accept(launch(t0 + 1200 * MS, "late-call"));
        // device work arrives late and out of order
        f.accept(kernel(t0 + 1100 * MS, "late-kernel"));
        f.accept(kernel(t0 + 700 * MS, "kernel"));
        f.accept(kernel(t0 + 200 * MS, "early-kernel"));
        assertEquals(List.of("p", "device", "call", "kernel"), gpuNames());
    }

    @Test
    void deviceWorkFollowsTheProgramsStopAndStartByItsBeginTime() {
        CollectionFilter f = started(new TraceWindows(List.of()), true, 0);
        f.accept(launch(10, "on-call"));
        f.accept(new TraceControl(20, 1, 1, false, true));
        f.accept(launch(30, "off-call"));
        f.accept(new TraceControl(40, 1, 1, true, true));
        // the kernels of both calls arrive after the program switched tracing on again
        f.accept(kernel(15, "on-kernel"));
        f.accept(kernel(35, "off-kernel"));
        f.accept(kernel(45, "on-again-kernel"));
        assertEquals(List.of("p", "on-call", "on-kernel", "on-again-kernel"), gpuNames());
    }
}
