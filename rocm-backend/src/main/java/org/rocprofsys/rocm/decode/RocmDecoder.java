package org.rocprofsys.rocm.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuArgument;
import org.rocprofsys.core.gpu.GpuCounterSample;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.rocm.decode.RocmLayouts.BufferKind;
import org.rocprofsys.rocm.decode.RocmLayouts.CallbackKind;

/**
 * Turns one process image's ROCm records into GPU events as upstream's rocprofiler-sdk backend
 * shows them (inventory §4.3): API calls of each domain on the calling thread; roctx marks and
 * ranges named by their message, a pushed or started range spanning from its push to its pop, on
 * the thread that closed it (upstream keeps them per thread); kernel dispatches and copies by HIP
 * stream or by queue; scratch memory; unified-memory migrations and GPU page faults (the SDK's KFD
 * records); per-kernel hardware counter values; GPU agents as devices; and RCCL's {@code RCCL Comm Send} /
 * {@code RCCL Comm Recv} byte counters (the value at the call's begin, 0 at its end). Records of
 * one image share one decoder; the image's rings may hand them over in any order.
 */
public final class RocmDecoder implements BackendRecords.Decoder {
    private final int pid;
    private final UnaryOperator<String> demangler;
    private final Consumer<TraceEvent> out;
    private final RocmDecodeOptions options;
    /** Per thread: roctx ranges pushed and not yet popped, started and not yet stopped. */
    private final Map<Integer, Deque<Api>> pushed = new HashMap<>();

    private final Map<Integer, Deque<Api>> started = new HashMap<>();
    private long latestNs;

    private record Api(String message, long beginNs) {}

    public RocmDecoder(int pid, UnaryOperator<String> demangler, RocmDecodeOptions options, Consumer<TraceEvent> out) {
        this.pid = pid;
        this.demangler = demangler;
        this.options = options;
        this.out = out;
    }

    /** Decodes one record written on thread {@code tid}'s ring. */
    public void accept(int tid, MemorySegment record) {
        switch (RocmWireRecord.parse(record)) {
            case RocmWireRecord.Agent a -> agent(a);
            case RocmWireRecord.Api a -> api(tid, a);
            case RocmWireRecord.Buffer b -> buffer(b);
        }
    }

    /** The image ended at {@code endNs}: ranges still open are closed there (upstream loses them). */
    public void finish(long endNs) {
        for (var e : List.of(pushed, started)) {
            e.forEach((tid, stack) -> {
                while (!stack.isEmpty()) {
                    Api open = stack.pop();
                    gpu(new GpuApiCall(
                            pid, tid, RocmGpu.MARKER_CORE_API, open.message(), open.beginNs(), endNs, 0, List.of()));
                }
            });
            e.clear();
        }
    }

    // ---- agents -----------------------------------------------------------------------------

    private void agent(RocmWireRecord.Agent a) {
        MemorySegment r = a.raw();
        if (r.byteSize() < RocmLayouts.Agent.SIZE
                || r.get(JAVA_INT_UNALIGNED, RocmLayouts.Agent.TYPE) != RocmLayouts.Agent.TYPE_GPU) {
            return;
        }
        String name = a.strings().isEmpty() ? "" : a.strings().get(0);
        String product = a.strings().size() > 2 ? a.strings().get(2) : name;
        byte[] uuid =
                r.asSlice(RocmLayouts.Agent.UUID, RocmLayouts.Agent.UUID_SIZE).toArray(JAVA_BYTE);
        gpu(new GpuDevice(
                pid,
                latestNs,
                r.get(JAVA_INT_UNALIGNED, RocmLayouts.Agent.LOGICAL_NODE_TYPE_ID),
                "AMD",
                product.isEmpty() ? name : product,
                "GPU-" + HexFormat.of().formatHex(uuid),
                r.get(JAVA_INT_UNALIGNED, RocmLayouts.Agent.CU_COUNT),
                r.get(JAVA_LONG_UNALIGNED, RocmLayouts.Agent.LOCAL_MEM_SIZE),
                name));
    }

    // ---- API calls ----------------------------------------------------------------------------

    private void api(int tid, RocmWireRecord.Api a) {
        latestNs = Math.max(latestNs, a.endNs());
        GpuDomain domain = domain(a.kind());
        if (domain == null || !options.keeps(domain, a.function())) {
            return;
        }
        if (domain == RocmGpu.MARKER_CORE_API) {
            marker(tid, a);
            return;
        }
        List<GpuArgument> args = a.arguments();
        if (a.stream() != 0) {
            args = new java.util.ArrayList<>(args);
            args.addFirst(new GpuArgument("stream_id", Long.toUnsignedString(a.stream())));
        }
        gpu(new GpuApiCall(pid, tid, domain, a.function(), a.beginNs(), a.endNs(), a.correlationId(), args));
        if (domain == RocmGpu.RCCL_API) {
            RcclTraffic.of(a.function(), a.arguments()).ifPresent(t -> rccl(t, a));
        }
    }

    /** upstream's tool_tracing_callback_start/stop for marker_core_api */
    private void marker(int tid, RocmWireRecord.Api a) {
        switch (a.function()) {
            case "roctxRangePushA" -> stack(pushed, tid).push(new Api(a.message(), a.beginNs()));
            case "roctxRangeStartA" -> stack(started, tid).push(new Api(a.message(), a.beginNs()));
            case "roctxRangePop" -> close(stack(pushed, tid), tid, a);
            case "roctxRangeStop" -> close(stack(started, tid), tid, a);
            case "roctxMarkA" -> marker(tid, a.message(), a.beginNs(), a);
            default -> marker(tid, a.function(), a.beginNs(), a);
        }
    }

    private void close(Deque<Api> stack, int tid, RocmWireRecord.Api a) {
        if (stack.isEmpty()) {
            return; // a pop without its push (upstream aborts; a trace keeps the rest)
        }
        Api open = stack.pop();
        marker(tid, open.message(), open.beginNs(), a);
    }

    private void marker(int tid, String name, long beginNs, RocmWireRecord.Api a) {
        gpu(new GpuApiCall(pid, tid, RocmGpu.MARKER_CORE_API, name, beginNs, a.endNs(), a.correlationId(), List.of()));
    }

    private static Deque<Api> stack(Map<Integer, Deque<Api>> m, int tid) {
        return m.computeIfAbsent(tid, k -> new ArrayDeque<>());
    }

    private void rccl(RcclTraffic t, RocmWireRecord.Api a) {
        CounterTrack track = new CounterTrack(t.label(), "bytes", Category.COMM_DATA, pid);
        out.accept(new CounterSample(a.beginNs(), track, t.bytes()));
        out.accept(new CounterSample(a.endNs(), track, 0));
    }

    private static GpuDomain domain(int kind) {
        return switch (kind) {
            case CallbackKind.HSA_CORE_API -> RocmGpu.HSA_CORE_API;
            case CallbackKind.HSA_AMD_EXT_API -> RocmGpu.HSA_AMD_EXT_API;
            case CallbackKind.HSA_IMAGE_EXT_API -> RocmGpu.HSA_IMAGE_EXT_API;
            case CallbackKind.HSA_FINALIZE_EXT_API -> RocmGpu.HSA_FINALIZE_EXT_API;
            case CallbackKind.HIP_RUNTIME_API -> RocmGpu.HIP_RUNTIME_API;
            case CallbackKind.HIP_COMPILER_API -> RocmGpu.HIP_COMPILER_API;
            case CallbackKind.MARKER_CORE_API -> RocmGpu.MARKER_CORE_API;
            case CallbackKind.RCCL_API -> RocmGpu.RCCL_API;
            case CallbackKind.ROCDECODE_API -> RocmGpu.ROCDECODE_API;
            case CallbackKind.ROCJPEG_API -> RocmGpu.ROCJPEG_API;
            default -> null;
        };
    }

    // ---- buffer records ----------------------------------------------------------------------

    private void buffer(RocmWireRecord.Buffer b) {
        MemorySegment r = b.raw();
        switch (b.kind()) {
            case BufferKind.KERNEL_DISPATCH -> {
                if (r.byteSize() < RocmLayouts.KernelDispatch.SIZE) {
                    return;
                }
                long begin = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.KernelDispatch.START) - b.clockOffsetNs();
                long end = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.KernelDispatch.END) - b.clockOffsetNs();
                String mangled = b.kernelName();
                long group = Integer.toUnsignedLong(
                        r.get(JAVA_INT_UNALIGNED, RocmLayouts.KernelDispatch.GROUP_SEGMENT_SIZE));
                long correlation = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.KernelDispatch.CORRELATION_INTERNAL);
                Dim3 grid = dim3(r, RocmLayouts.KernelDispatch.GRID_SIZE);
                Dim3 block = dim3(r, RocmLayouts.KernelDispatch.WORKGROUP_SIZE);
                var dispatch = new RocmGpu.Dispatch(
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.KernelDispatch.QUEUE_ID),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.KernelDispatch.DISPATCH_ID),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.KernelDispatch.KERNEL_ID),
                        Integer.toUnsignedLong(
                                r.get(JAVA_INT_UNALIGNED, RocmLayouts.KernelDispatch.PRIVATE_SEGMENT_SIZE)),
                        group);
                gpu(new GpuKernel(
                        pid,
                        b.deviceA(),
                        b.stream(),
                        correlation,
                        begin,
                        end,
                        demangle(mangled),
                        mangled,
                        grid,
                        block,
                        (int) group,
                        0,
                        0,
                        RocmGpu.KERNEL_DISPATCH,
                        RocmGpu.kernel(b.deviceA(), b.stream(), correlation, grid, block, dispatch, byQueue(b))));
            }
            case BufferKind.MEMORY_COPY -> {
                if (r.byteSize() < RocmLayouts.MemoryCopy.SIZE) {
                    return;
                }
                int op = r.get(JAVA_INT_UNALIGNED, RocmLayouts.MemoryCopy.OPERATION);
                CopyKind kind = copyKind(op);
                if (!options.keeps(RocmGpu.MEMORY_COPY, kind.operationName())) {
                    return;
                }
                int device = b.deviceA() >= 0 ? b.deviceA() : Math.max(b.deviceB(), 0);
                long correlation = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.MemoryCopy.CORRELATION_INTERNAL);
                int tid = (int) r.get(JAVA_LONG_UNALIGNED, RocmLayouts.MemoryCopy.THREAD_ID);
                gpu(new GpuMemoryCopy(
                        pid,
                        device,
                        b.stream(),
                        correlation,
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.MemoryCopy.START) - b.clockOffsetNs(),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.MemoryCopy.END) - b.clockOffsetNs(),
                        kind,
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.MemoryCopy.BYTES),
                        b.deviceB(),
                        b.deviceA(),
                        RocmGpu.MEMORY_COPY,
                        RocmGpu.copy(b.stream(), correlation, b.nodeB(), b.nodeA(), tid, byQueue(b))));
            }
            case BufferKind.SCRATCH_MEMORY -> {
                if (r.byteSize() < RocmLayouts.ScratchMemory.SIZE) {
                    return;
                }
                gpu(RocmGpu.scratch(
                        pid,
                        (int) r.get(JAVA_LONG_UNALIGNED, RocmLayouts.ScratchMemory.THREAD_ID),
                        b.deviceA(),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.ScratchMemory.QUEUE_ID),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.ScratchMemory.START) - b.clockOffsetNs(),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.ScratchMemory.END) - b.clockOffsetNs(),
                        scratchOperation(r.get(JAVA_INT_UNALIGNED, RocmLayouts.ScratchMemory.OPERATION)),
                        r.get(JAVA_LONG_UNALIGNED, RocmLayouts.ScratchMemory.ALLOCATION_SIZE)));
            }
            case BufferKind.KFD_PAGE_MIGRATE -> pageMigration(b);
            case BufferKind.KFD_PAGE_FAULT -> pageFault(b);
            case BufferKind.COUNTERS -> counters(b);
            default -> {
                // a buffer kind this build does not trace
            }
        }
    }

    /**
     * A unified-memory migration as the SDK pairs KFD's migrate start and end: the direction from
     * the source and destination agents (the tool resolved them to GPU indices, -1 for the CPU),
     * the bytes from the address range. The SDK's record drops KFD's trigger, so it is
     * {@link MigrationTrigger#UNKNOWN}; a migration KFD reports failed is left out, as the KFD
     * reader does.
     */
    private void pageMigration(RocmWireRecord.Buffer b) {
        MemorySegment r = b.raw();
        if (r.byteSize() < RocmLayouts.PageMigrate.SIZE
                || r.get(JAVA_INT_UNALIGNED, RocmLayouts.PageMigrate.ERROR_CODE) != 0) {
            return;
        }
        int dst = b.deviceA();
        int src = b.deviceB();
        MigrationDirection direction;
        int device;
        if (src < 0 && dst >= 0) {
            direction = MigrationDirection.HOST_TO_DEVICE;
            device = dst;
        } else if (src >= 0 && dst < 0) {
            direction = MigrationDirection.DEVICE_TO_HOST;
            device = src;
        } else if (src >= 0) {
            direction = MigrationDirection.DEVICE_TO_DEVICE;
            device = dst;
        } else {
            return; // host to host: not a device migration
        }
        long start = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageMigrate.START_ADDRESS);
        long end = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageMigrate.END_ADDRESS);
        gpu(new GpuPageMigration(
                pid,
                device,
                r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageMigrate.START) - b.clockOffsetNs(),
                r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageMigrate.END) - b.clockOffsetNs(),
                direction,
                start,
                Math.max(0, end - start),
                MigrationTrigger.UNKNOWN,
                0));
    }

    /** A GPU page fault (the SDK reports only the GPU's; access kind and outcome are not in its record). */
    private void pageFault(RocmWireRecord.Buffer b) {
        MemorySegment r = b.raw();
        if (r.byteSize() < RocmLayouts.PageFault.SIZE) {
            return;
        }
        gpu(new GpuPageFault(
                pid,
                b.deviceA(),
                r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageFault.START) - b.clockOffsetNs(),
                r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageFault.END) - b.clockOffsetNs(),
                GpuPageFault.FaultSide.GPU,
                r.get(JAVA_LONG_UNALIGNED, RocmLayouts.PageFault.ADDRESS),
                false,
                false,
                1));
    }

    /**
     * One dispatch's counter values (ROCPROFSYS_ROCM_EVENTS): one sample per counter, its
     * instances already summed by the tool, over the kernel's time as the SDK gave it.
     */
    private void counters(RocmWireRecord.Buffer b) {
        MemorySegment r = b.raw();
        int n = b.names().size();
        if (r.byteSize() < RocmLayouts.DispatchCounting.SIZE + 8L * n) {
            return;
        }
        long begin = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.DispatchCounting.START) - b.clockOffsetNs();
        long end = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.DispatchCounting.END) - b.clockOffsetNs();
        long correlation = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.DispatchCounting.CORRELATION_INTERNAL);
        long dispatch = r.get(JAVA_LONG_UNALIGNED, RocmLayouts.DispatchCounting.DISPATCH_ID);
        String kernel = demangle(b.kernelName());
        for (int i = 0; i < n; i++) {
            double value = r.get(JAVA_DOUBLE_UNALIGNED, RocmLayouts.DispatchCounting.SIZE + 8L * i);
            gpu(new GpuCounterSample(
                    pid,
                    b.deviceA(),
                    correlation,
                    dispatch,
                    kernel,
                    b.names().get(i),
                    value,
                    begin,
                    Math.max(begin, end)));
        }
    }

    /**
     * Kernel names as the SDK gives them (the code object's symbol, {@code .kd} suffix included),
     * demangled as upstream's tim::demangle does: {@code __cxa_demangle} keeps the suffix as
     * {@code [clone .kd]}, and names that are not C++ symbols (OpenMP offload kernels) stay as
     * they are.
     */
    private String demangle(String name) {
        String d = demangler.apply(name);
        return d == null || d.isEmpty() ? name : d;
    }

    private static Dim3 dim3(MemorySegment r, long at) {
        return new Dim3(
                r.get(JAVA_INT_UNALIGNED, at), r.get(JAVA_INT_UNALIGNED, at + 4), r.get(JAVA_INT_UNALIGNED, at + 8));
    }

    private static CopyKind copyKind(int op) {
        return switch (op) {
            case RocmLayouts.MEMORY_COPY_HOST_TO_HOST -> CopyKind.HOST_TO_HOST;
            case RocmLayouts.MEMORY_COPY_HOST_TO_DEVICE -> CopyKind.HOST_TO_DEVICE;
            case RocmLayouts.MEMORY_COPY_DEVICE_TO_HOST -> CopyKind.DEVICE_TO_HOST;
            case RocmLayouts.MEMORY_COPY_DEVICE_TO_DEVICE -> CopyKind.DEVICE_TO_DEVICE;
            default -> CopyKind.OTHER;
        };
    }

    private static String scratchOperation(int op) {
        return switch (op) {
            case 1 -> "SCRATCH_MEMORY_ALLOC";
            case 2 -> "SCRATCH_MEMORY_FREE";
            case 3 -> "SCRATCH_MEMORY_ASYNC_RECLAIM";
            default -> "SCRATCH_MEMORY_NONE";
        };
    }

    /**
     * Kernels and copies go on their queue's (or thread's) track with
     * {@code ROCPROFSYS_ROCM_GROUP_BY_QUEUE}, or when no HIP stream is known; else on the stream's.
     */
    private boolean byQueue(RocmWireRecord.Buffer b) {
        return options.groupByQueue() || b.stream() == 0;
    }

    private void gpu(org.rocprofsys.core.gpu.GpuEvent e) {
        out.accept(new GpuActivity(e));
    }
}
