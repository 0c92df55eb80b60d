package org.rocprofsys.cuda.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.rocprofsys.cuda.decode.CuptiLayouts.offset;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuArgument;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.GpuSynchronization;
import org.rocprofsys.core.gpu.MemoryKind;
import org.rocprofsys.core.gpu.MigrationDirection;
import org.rocprofsys.core.gpu.MigrationTrigger;
import org.rocprofsys.core.gpu.SyncKind;
import org.rocprofsys.core.spi.BackendRecords;

/**
 * Turns the CUDA backend's records of one process image into {@link GpuEvent}s. Feed it every
 * CUDA record of every ring of the image ({@link #accept}), each with the thread of its ring, in
 * ring order (rings may interleave); call {@link #finish} when the image has ended. The image's
 * API-name table and NVTX state are shared across its rings, as the wire requires: a name is
 * defined on a ring before that ring uses it; an NVTX start/end range may begin on one thread
 * and end on another.
 *
 * <p>All times in the records are CLOCK_MONOTONIC ns already (the injection library makes CUPTI
 * use that clock), so nothing is converted.
 */
public final class CudaDecoder implements BackendRecords.Decoder {
    private final int pid;
    private final UnaryOperator<String> demangler;
    private final Consumer<GpuEvent> out;
    private final Map<Long, String> apiNames = new HashMap<>();
    private final Map<Long, ApiParams.Params> apiParams = new HashMap<>();
    private final Map<Integer, Integer> contextDevices = new HashMap<>();
    private final Map<Long, String> nvtxDomains = new HashMap<>();
    private final Map<Integer, Deque<OpenRange>> pushed = new HashMap<>();
    private final Map<Long, OpenRange> started = new LinkedHashMap<>();
    private final Map<String, Long> skipped = new TreeMap<>();
    private final KernelCounters counters;
    private long latestNs;

    private record OpenRange(int tid, String domain, String message, long beginNs) {}

    /**
     * @param demangler turns a kernel's mangled name into the name shown (C++ demangling)
     */
    public CudaDecoder(int pid, UnaryOperator<String> demangler, Consumer<GpuEvent> out) {
        this.pid = pid;
        this.demangler = demangler;
        this.out = out;
        this.counters = new KernelCounters(pid, out);
    }

    /** Decodes one CUDA record ({@link CudaWireRecord#isCuda} type) written on the ring of {@code tid}. */
    public void accept(int tid, MemorySegment record) {
        switch (CudaWireRecord.parse(record)) {
            case CudaWireRecord.ApiName n -> {
                apiNames.put(apiKey(n.domain(), n.cbid()), displayName(n.domain(), n.name()));
                ApiParams.Params p = ApiParams.of(n.name());
                if (p != null) {
                    apiParams.put(apiKey(n.domain(), n.cbid()), p);
                }
            }
            case CudaWireRecord.ApiCall c -> api(tid, c);
            case CudaWireRecord.Activity a -> activity(a);
            case CudaWireRecord.Nvtx n -> nvtx(tid, n);
            case CudaWireRecord.CounterNames n -> counters.names(n);
            case CudaWireRecord.Counters c -> counters.values(c);
        }
    }

    /**
     * Ends the image at {@code endNs}: NVTX ranges still open are emitted, closed by the
     * profiler then, and counters whose kernel never came, at their launch.
     */
    public void finish(long endNs) {
        for (Map.Entry<Integer, Deque<OpenRange>> e : pushed.entrySet()) {
            Deque<OpenRange> stack = e.getValue();
            while (!stack.isEmpty()) {
                OpenRange r = stack.pop();
                range(r, Math.max(endNs, r.beginNs()), stack.size(), true);
            }
        }
        for (OpenRange r : started.values()) {
            range(r, Math.max(endNs, r.beginNs()), -1, true);
        }
        pushed.clear();
        started.clear();
        counters.finish();
    }

    /**
     * Records the decoder could not turn into events, by reason ("activity kind 19", "short
     * kernel record", "NVTX pop without push", ...), with counts.
     */
    public Map<String, Long> skipped() {
        return Map.copyOf(skipped);
    }

    private void skip(String why) {
        skipped.merge(why, 1L, Long::sum);
    }

    private static final java.util.regex.Pattern RUNTIME_VERSION = java.util.regex.Pattern.compile("_v\\d{4,}$");

    /**
     * The function name users know: CUPTI names runtime functions with the version that introduced
     * them ({@code cudaMalloc_v3020}); the driver's {@code _v2} suffixes are the real exported
     * names ({@code cuMemAlloc_v2}) and stay.
     */
    static String displayName(int domain, String cuptiName) {
        return domain == CuptiKinds.DOMAIN_RUNTIME_API
                ? RUNTIME_VERSION.matcher(cuptiName).replaceFirst("")
                : cuptiName;
    }

    private static long apiKey(int domain, int cbid) {
        return ((long) domain << 32) | Integer.toUnsignedLong(cbid);
    }

    private void seen(long ns) {
        latestNs = Math.max(latestNs, ns);
    }

    // ---------------------------------------------------------------------------------------------
    // API calls

    private void api(int tid, CudaWireRecord.ApiCall c) {
        GpuDomain domain = switch (c.domain()) {
            case CuptiKinds.DOMAIN_RUNTIME_API -> CudaGpu.RUNTIME_API;
            case CuptiKinds.DOMAIN_DRIVER_API -> CudaGpu.DRIVER_API;
            default -> null;
        };
        if (domain == null) {
            skip("API call of callback domain " + c.domain());
            return;
        }
        String name = apiNames.get(apiKey(c.domain(), c.cbid()));
        if (name == null) {
            skip("API call without a name");
            name = domain.settingName() + " " + c.cbid();
        }
        seen(c.endNs());
        long stream = -1;
        List<GpuArgument> arguments = List.of();
        if (c.args() != null) {
            stream = c.args().streamId();
            ApiParams.Params p = apiParams.get(apiKey(c.domain(), c.cbid()));
            if (p != null) {
                arguments = ApiParams.decode(p, c.args().params(), c.args().output());
            } else {
                skip("API arguments of an unknown layout");
            }
        }
        out.accept(
                new GpuApiCall(pid, tid, domain, name, c.beginNs(), c.endNs(), c.correlationId(), stream, arguments));
    }

    // ---------------------------------------------------------------------------------------------
    // Activity records

    private static final long K_START = offset(CuptiLayouts.KERNEL, "start");
    private static final long K_END = offset(CuptiLayouts.KERNEL, "end");
    private static final long K_DEVICE = offset(CuptiLayouts.KERNEL, "deviceId");
    private static final long K_STREAM = offset(CuptiLayouts.KERNEL, "streamId");
    private static final long K_GRID = offset(CuptiLayouts.KERNEL, "gridX");
    private static final long K_BLOCK = offset(CuptiLayouts.KERNEL, "blockX");
    private static final long K_STATIC_SHARED = offset(CuptiLayouts.KERNEL, "staticSharedMemory");
    private static final long K_DYNAMIC_SHARED = offset(CuptiLayouts.KERNEL, "dynamicSharedMemory");
    private static final long K_REGISTERS = offset(CuptiLayouts.KERNEL, "registersPerThread");
    private static final long K_CORRELATION = offset(CuptiLayouts.KERNEL, "correlationId");

    private static final long C_COPY_KIND = offset(CuptiLayouts.MEMCPY, "copyKind");
    private static final long C_BYTES = offset(CuptiLayouts.MEMCPY, "bytes");
    private static final long C_START = offset(CuptiLayouts.MEMCPY, "start");
    private static final long C_END = offset(CuptiLayouts.MEMCPY, "end");
    private static final long C_DEVICE = offset(CuptiLayouts.MEMCPY, "deviceId");
    private static final long C_STREAM = offset(CuptiLayouts.MEMCPY, "streamId");
    private static final long C_CORRELATION = offset(CuptiLayouts.MEMCPY, "correlationId");

    private static final long P_BYTES = offset(CuptiLayouts.PEER_COPY, "bytes");
    private static final long P_START = offset(CuptiLayouts.PEER_COPY, "start");
    private static final long P_END = offset(CuptiLayouts.PEER_COPY, "end");
    private static final long P_DEVICE = offset(CuptiLayouts.PEER_COPY, "deviceId");
    private static final long P_STREAM = offset(CuptiLayouts.PEER_COPY, "streamId");
    private static final long P_SRC_DEVICE = offset(CuptiLayouts.PEER_COPY, "srcDeviceId");
    private static final long P_DST_DEVICE = offset(CuptiLayouts.PEER_COPY, "dstDeviceId");
    private static final long P_CORRELATION = offset(CuptiLayouts.PEER_COPY, "correlationId");

    private static final long S_VALUE = offset(CuptiLayouts.MEMSET, "value");
    private static final long S_BYTES = offset(CuptiLayouts.MEMSET, "bytes");
    private static final long S_START = offset(CuptiLayouts.MEMSET, "start");
    private static final long S_END = offset(CuptiLayouts.MEMSET, "end");
    private static final long S_DEVICE = offset(CuptiLayouts.MEMSET, "deviceId");
    private static final long S_STREAM = offset(CuptiLayouts.MEMSET, "streamId");
    private static final long S_CORRELATION = offset(CuptiLayouts.MEMSET, "correlationId");

    private static final long Y_TYPE = offset(CuptiLayouts.SYNCHRONIZATION, "type");
    private static final long Y_START = offset(CuptiLayouts.SYNCHRONIZATION, "start");
    private static final long Y_END = offset(CuptiLayouts.SYNCHRONIZATION, "end");
    private static final long Y_CORRELATION = offset(CuptiLayouts.SYNCHRONIZATION, "correlationId");
    private static final long Y_CONTEXT = offset(CuptiLayouts.SYNCHRONIZATION, "contextId");
    private static final long Y_STREAM = offset(CuptiLayouts.SYNCHRONIZATION, "streamId");

    private static final long M_OPERATION = offset(CuptiLayouts.MEMORY, "memoryOperationType");
    private static final long M_KIND = offset(CuptiLayouts.MEMORY, "memoryKind");
    private static final long M_CORRELATION = offset(CuptiLayouts.MEMORY, "correlationId");
    private static final long M_ADDRESS = offset(CuptiLayouts.MEMORY, "address");
    private static final long M_BYTES = offset(CuptiLayouts.MEMORY, "bytes");
    private static final long M_TIME = offset(CuptiLayouts.MEMORY, "timestamp");
    private static final long M_DEVICE = offset(CuptiLayouts.MEMORY, "deviceId");
    private static final long M_STREAM = offset(CuptiLayouts.MEMORY, "streamId");

    private static final long D_MEMORY = offset(CuptiLayouts.DEVICE, "globalMemorySize");
    private static final long D_SMS = offset(CuptiLayouts.DEVICE, "numMultiprocessors");
    private static final long D_MAJOR = offset(CuptiLayouts.DEVICE, "computeCapabilityMajor");
    private static final long D_MINOR = offset(CuptiLayouts.DEVICE, "computeCapabilityMinor");
    private static final long D_ID = offset(CuptiLayouts.DEVICE, "id");
    private static final long D_UUID = offset(CuptiLayouts.DEVICE, "uuid");

    private static final long U_COUNTER_KIND = offset(CuptiLayouts.UNIFIED_MEMORY, "counterKind");
    private static final long U_VALUE = offset(CuptiLayouts.UNIFIED_MEMORY, "value");
    private static final long U_START = offset(CuptiLayouts.UNIFIED_MEMORY, "start");
    private static final long U_END = offset(CuptiLayouts.UNIFIED_MEMORY, "end");
    private static final long U_ADDRESS = offset(CuptiLayouts.UNIFIED_MEMORY, "address");
    private static final long U_SRC = offset(CuptiLayouts.UNIFIED_MEMORY, "srcId");
    private static final long U_DST = offset(CuptiLayouts.UNIFIED_MEMORY, "dstId");
    private static final long U_FLAGS = offset(CuptiLayouts.UNIFIED_MEMORY, "flags");

    private static final long X_CONTEXT = offset(CuptiLayouts.CONTEXT, "contextId");
    private static final long X_DEVICE = offset(CuptiLayouts.CONTEXT, "deviceId");

    private static int i32(MemorySegment r, long at) {
        return r.get(JAVA_INT_UNALIGNED, at);
    }

    private static long u32(MemorySegment r, long at) {
        return Integer.toUnsignedLong(r.get(JAVA_INT_UNALIGNED, at));
    }

    private static long i64(MemorySegment r, long at) {
        return r.get(JAVA_LONG_UNALIGNED, at);
    }

    /** A stream or similar id: CUPTI's all-ones "invalid" becomes -1. */
    private static long id(MemorySegment r, long at) {
        int v = i32(r, at);
        return v == CuptiKinds.INVALID_ID ? -1 : Integer.toUnsignedLong(v);
    }

    private boolean fits(CudaWireRecord.Activity a, StructLayout layout) {
        if (a.raw().byteSize() < layout.byteSize()) {
            skip("short " + layout.name().orElseThrow() + " record");
            return false;
        }
        return true;
    }

    private void activity(CudaWireRecord.Activity a) {
        MemorySegment r = a.raw();
        switch (a.kind()) {
            case CuptiKinds.ACTIVITY_CONCURRENT_KERNEL, CuptiKinds.ACTIVITY_KERNEL -> {
                if (fits(a, CuptiLayouts.KERNEL)) {
                    kernel(r, a.strings().isEmpty() ? "" : a.strings().get(0));
                }
            }
            case CuptiKinds.ACTIVITY_MEMCPY -> {
                if (fits(a, CuptiLayouts.MEMCPY)) {
                    memcpy(r);
                }
            }
            case CuptiKinds.ACTIVITY_MEMCPY2 -> {
                if (fits(a, CuptiLayouts.PEER_COPY)) {
                    seen(i64(r, P_END));
                    copy(
                            i32(r, P_DEVICE),
                            id(r, P_STREAM),
                            u32(r, P_CORRELATION),
                            i64(r, P_START),
                            i64(r, P_END),
                            CopyKind.PEER,
                            i64(r, P_BYTES),
                            i32(r, P_SRC_DEVICE),
                            i32(r, P_DST_DEVICE));
                }
            }
            case CuptiKinds.ACTIVITY_MEMSET -> {
                if (fits(a, CuptiLayouts.MEMSET)) {
                    seen(i64(r, S_END));
                    int device = i32(r, S_DEVICE);
                    long stream = id(r, S_STREAM);
                    long correlation = u32(r, S_CORRELATION);
                    long bytes = i64(r, S_BYTES);
                    long value = u32(r, S_VALUE);
                    out.accept(new GpuMemorySet(
                            pid,
                            device,
                            stream,
                            correlation,
                            i64(r, S_START),
                            i64(r, S_END),
                            bytes,
                            value,
                            CudaGpu.MEMORY_SET,
                            CudaGpu.memset(device, stream, correlation, bytes, value)));
                }
            }
            case CuptiKinds.ACTIVITY_SYNCHRONIZATION -> {
                if (fits(a, CuptiLayouts.SYNCHRONIZATION)) {
                    synchronization(r);
                }
            }
            case CuptiKinds.ACTIVITY_MEMORY2 -> {
                if (fits(a, CuptiLayouts.MEMORY)) {
                    memory(r);
                }
            }
            case CuptiKinds.ACTIVITY_DEVICE -> {
                if (fits(a, CuptiLayouts.DEVICE)) {
                    out.accept(new GpuDevice(
                            pid,
                            latestNs,
                            i32(r, D_ID),
                            "NVIDIA",
                            a.strings().isEmpty() ? "" : a.strings().get(0),
                            uuid(r.asSlice(D_UUID, 16)),
                            i32(r, D_SMS),
                            i64(r, D_MEMORY),
                            i32(r, D_MAJOR) + "." + i32(r, D_MINOR)));
                }
            }
            case CuptiKinds.ACTIVITY_CONTEXT -> {
                if (fits(a, CuptiLayouts.CONTEXT)) {
                    contextDevices.put(i32(r, X_CONTEXT), i32(r, X_DEVICE));
                }
            }
            case CuptiKinds.ACTIVITY_UNIFIED_MEMORY_COUNTER -> {
                if (fits(a, CuptiLayouts.UNIFIED_MEMORY)) {
                    unifiedMemory(r);
                }
            }
            default -> skip("activity kind " + a.kind());
        }
    }

    /**
     * A unified-memory transfer becomes a migration (each record one trigger: CUPTI reports the
     * transfers of one fault as one record), a GPU fault record a group of {@code value} faults, a
     * CPU fault record one fault (its value is the faulting PC; no device).
     */
    private void unifiedMemory(MemorySegment r) {
        int counter = i32(r, U_COUNTER_KIND);
        long start = i64(r, U_START);
        long end = i64(r, U_END);
        long address = i64(r, U_ADDRESS);
        int src = i32(r, U_SRC);
        int dst = i32(r, U_DST);
        int flags = i32(r, U_FLAGS);
        switch (counter) {
            case CuptiKinds.UM_BYTES_TRANSFER_HTOD,
                    CuptiKinds.UM_BYTES_TRANSFER_DTOH,
                    CuptiKinds.UM_BYTES_TRANSFER_DTOD -> {
                seen(end);
                MigrationDirection direction = counter == CuptiKinds.UM_BYTES_TRANSFER_HTOD
                        ? MigrationDirection.HOST_TO_DEVICE
                        : counter == CuptiKinds.UM_BYTES_TRANSFER_DTOH
                                ? MigrationDirection.DEVICE_TO_HOST
                                : MigrationDirection.DEVICE_TO_DEVICE;
                MigrationTrigger trigger = switch (flags) {
                    case CuptiKinds.UM_CAUSE_COHERENCE ->
                        direction == MigrationDirection.DEVICE_TO_HOST
                                ? MigrationTrigger.CPU_PAGE_FAULT
                                : MigrationTrigger.GPU_PAGE_FAULT;
                    case CuptiKinds.UM_CAUSE_PREFETCH -> MigrationTrigger.PREFETCH;
                    case CuptiKinds.UM_CAUSE_EVICTION -> MigrationTrigger.TTM_EVICTION;
                    default -> MigrationTrigger.UNKNOWN;
                };
                int device = direction == MigrationDirection.DEVICE_TO_HOST ? src : dst;
                out.accept(
                        new GpuPageMigration(pid, device, start, end, direction, address, i64(r, U_VALUE), trigger, 0));
            }
            case CuptiKinds.UM_GPU_PAGE_FAULT -> {
                seen(end);
                boolean write = flags == CuptiKinds.UM_ACCESS_WRITE || flags == CuptiKinds.UM_ACCESS_ATOMIC;
                out.accept(new GpuPageFault(
                        pid, src, start, end, GpuPageFault.FaultSide.GPU, address, write, true, i64(r, U_VALUE)));
            }
            case CuptiKinds.UM_CPU_PAGE_FAULT_COUNT -> {
                seen(start);
                out.accept(
                        new GpuPageFault(pid, -1, start, start, GpuPageFault.FaultSide.CPU, address, false, true, 1));
            }
            default -> skip("unified-memory counter kind " + counter);
        }
    }

    private void kernel(MemorySegment r, String mangled) {
        long end = i64(r, K_END);
        seen(end);
        Dim3 grid = new Dim3(i32(r, K_GRID), i32(r, K_GRID + 4), i32(r, K_GRID + 8));
        Dim3 block = new Dim3(i32(r, K_BLOCK), i32(r, K_BLOCK + 4), i32(r, K_BLOCK + 8));
        int device = i32(r, K_DEVICE);
        long stream = id(r, K_STREAM);
        long correlation = u32(r, K_CORRELATION);
        int staticShared = i32(r, K_STATIC_SHARED);
        int dynamicShared = i32(r, K_DYNAMIC_SHARED);
        int registers = Short.toUnsignedInt(r.get(JAVA_SHORT_UNALIGNED, K_REGISTERS));
        GpuKernel kernel = new GpuKernel(
                pid,
                device,
                stream,
                correlation,
                i64(r, K_START),
                end,
                demangler.apply(mangled),
                mangled,
                grid,
                block,
                staticShared,
                dynamicShared,
                registers,
                CudaGpu.KERNEL_DISPATCH,
                CudaGpu.kernel(device, stream, correlation, grid, block, staticShared, dynamicShared, registers));
        if (!counters.holds(kernel)) {
            out.accept(kernel);
        }
    }

    private void memcpy(MemorySegment r) {
        int device = i32(r, C_DEVICE);
        int cuptiKind = Byte.toUnsignedInt(r.get(JAVA_BYTE, C_COPY_KIND));
        CopyKind kind = switch (cuptiKind) {
            case CuptiKinds.MEMCPY_HTOD, CuptiKinds.MEMCPY_HTOA -> CopyKind.HOST_TO_DEVICE;
            case CuptiKinds.MEMCPY_DTOH, CuptiKinds.MEMCPY_ATOH -> CopyKind.DEVICE_TO_HOST;
            case CuptiKinds.MEMCPY_DTOD, CuptiKinds.MEMCPY_ATOA, CuptiKinds.MEMCPY_ATOD, CuptiKinds.MEMCPY_DTOA ->
                CopyKind.DEVICE_TO_DEVICE;
            case CuptiKinds.MEMCPY_HTOH -> CopyKind.HOST_TO_HOST;
            case CuptiKinds.MEMCPY_PTOP -> CopyKind.PEER;
            default -> CopyKind.OTHER;
        };
        int src = switch (kind) {
            case HOST_TO_DEVICE, HOST_TO_HOST, OTHER -> -1;
            default -> device;
        };
        int dst = switch (kind) {
            case DEVICE_TO_HOST, HOST_TO_HOST, OTHER -> -1;
            default -> device;
        };
        seen(i64(r, C_END));
        copy(
                device,
                id(r, C_STREAM),
                u32(r, C_CORRELATION),
                i64(r, C_START),
                i64(r, C_END),
                kind,
                i64(r, C_BYTES),
                src,
                dst);
    }

    private void copy(
            int device,
            long stream,
            long correlation,
            long beginNs,
            long endNs,
            CopyKind kind,
            long bytes,
            int src,
            int dst) {
        out.accept(new GpuMemoryCopy(
                pid,
                device,
                stream,
                correlation,
                beginNs,
                endNs,
                kind,
                bytes,
                src,
                dst,
                CudaGpu.MEMORY_COPY,
                CudaGpu.copy(device, stream, correlation, bytes, src, dst)));
    }

    private void synchronization(MemorySegment r) {
        SyncKind kind = switch (i32(r, Y_TYPE)) {
            case CuptiKinds.SYNC_EVENT -> SyncKind.EVENT;
            case CuptiKinds.SYNC_STREAM_WAIT_EVENT -> SyncKind.STREAM_WAIT_EVENT;
            case CuptiKinds.SYNC_STREAM -> SyncKind.STREAM;
            case CuptiKinds.SYNC_CONTEXT -> SyncKind.DEVICE;
            default -> SyncKind.OTHER;
        };
        int device = contextDevices.getOrDefault(i32(r, Y_CONTEXT), -1);
        seen(i64(r, Y_END));
        out.accept(new GpuSynchronization(
                pid, device, id(r, Y_STREAM), u32(r, Y_CORRELATION), i64(r, Y_START), i64(r, Y_END), kind));
    }

    private void memory(MemorySegment r) {
        int op = i32(r, M_OPERATION);
        if (op != CuptiKinds.MEMORY_ALLOCATION && op != CuptiKinds.MEMORY_RELEASE) {
            skip("memory operation " + op);
            return;
        }
        MemoryKind memory = switch (i32(r, M_KIND)) {
            case CuptiKinds.MEMORY_DEVICE, CuptiKinds.MEMORY_DEVICE_STATIC -> MemoryKind.DEVICE;
            case CuptiKinds.MEMORY_PINNED -> MemoryKind.PINNED_HOST;
            case CuptiKinds.MEMORY_PAGEABLE -> MemoryKind.PAGEABLE_HOST;
            case CuptiKinds.MEMORY_MANAGED, CuptiKinds.MEMORY_MANAGED_STATIC -> MemoryKind.MANAGED;
            case CuptiKinds.MEMORY_ARRAY -> MemoryKind.ARRAY;
            default -> MemoryKind.OTHER;
        };
        seen(i64(r, M_TIME));
        out.accept(new GpuMemoryAllocation(
                pid,
                i32(r, M_DEVICE),
                id(r, M_STREAM),
                u32(r, M_CORRELATION),
                i64(r, M_TIME),
                op == CuptiKinds.MEMORY_RELEASE,
                memory,
                i64(r, M_ADDRESS),
                i64(r, M_BYTES),
                CudaGpu.MEMORY_ALLOCATION));
    }

    /** {@code GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}, as nvidia-smi shows a device's UUID. */
    static String uuid(MemorySegment bytes) {
        StringBuilder b = new StringBuilder("GPU-");
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                b.append('-');
            }
            b.append(String.format("%02x", Byte.toUnsignedInt(bytes.get(JAVA_BYTE, i))));
        }
        return b.toString();
    }

    // ---------------------------------------------------------------------------------------------
    // NVTX

    private String domainName(long handle) {
        return handle == 0 ? "" : nvtxDomains.getOrDefault(handle, "");
    }

    private void nvtx(int tid, CudaWireRecord.Nvtx n) {
        seen(n.timeNs());
        switch (n.cbid()) {
            case CuptiKinds.NVTX_DOMAIN_CREATE_A -> nvtxDomains.put(n.id(), n.message());
            case CuptiKinds.NVTX_RANGE_PUSH_A,
                    CuptiKinds.NVTX_RANGE_PUSH_W,
                    CuptiKinds.NVTX_RANGE_PUSH_EX,
                    CuptiKinds.NVTX_DOMAIN_RANGE_PUSH_EX ->
                pushed.computeIfAbsent(tid, t -> new ArrayDeque<>())
                        .push(new OpenRange(tid, domainName(n.domainHandle()), n.message(), n.timeNs()));
            case CuptiKinds.NVTX_RANGE_POP, CuptiKinds.NVTX_DOMAIN_RANGE_POP -> {
                Deque<OpenRange> stack = pushed.get(tid);
                if (stack == null || stack.isEmpty()) {
                    skip("NVTX pop without push");
                    return;
                }
                OpenRange r = stack.pop();
                range(r, n.timeNs(), stack.size(), false);
            }
            case CuptiKinds.NVTX_MARK_A,
                    CuptiKinds.NVTX_MARK_W,
                    CuptiKinds.NVTX_MARK_EX,
                    CuptiKinds.NVTX_DOMAIN_MARK_EX -> {
                Deque<OpenRange> stack = pushed.get(tid);
                out.accept(new GpuMarker(
                        pid,
                        tid,
                        domainName(n.domainHandle()),
                        n.message(),
                        n.timeNs(),
                        n.timeNs(),
                        false,
                        stack == null ? 0 : stack.size(),
                        false,
                        CudaGpu.NVTX));
            }
            case CuptiKinds.NVTX_RANGE_START_A,
                    CuptiKinds.NVTX_RANGE_START_W,
                    CuptiKinds.NVTX_RANGE_START_EX,
                    CuptiKinds.NVTX_DOMAIN_RANGE_START_EX ->
                started.put(n.id(), new OpenRange(tid, domainName(n.domainHandle()), n.message(), n.timeNs()));
            case CuptiKinds.NVTX_RANGE_END, CuptiKinds.NVTX_DOMAIN_RANGE_END -> {
                OpenRange r = started.remove(n.id());
                if (r == null) {
                    skip("NVTX end without start");
                    return;
                }
                range(r, n.timeNs(), -1, false);
            }
            default -> skip("NVTX call " + n.cbid());
        }
    }

    /** An NVTX range from its push or start to {@code endNs} (closed by the profiler at the image's end). */
    private void range(OpenRange r, long endNs, int depth, boolean closedByProfiler) {
        out.accept(new GpuMarker(
                pid,
                r.tid(),
                r.domain(),
                r.message(),
                r.beginNs(),
                endNs,
                true,
                depth,
                closedByProfiler,
                CudaGpu.NVTX));
    }

    /** The open pushed ranges per thread, for tests and diagnostics. */
    List<String> openRanges() {
        List<String> l = new ArrayList<>();
        pushed.forEach((tid, s) -> s.forEach(r -> l.add(tid + ":" + r.message())));
        started.values().forEach(r -> l.add(r.tid() + ":" + r.message()));
        return l;
    }
}
