package org.rocprofsys.rocprofv3.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuAnnotation;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuScratchMemory;

/**
 * Turns the run's GPU events (vendor-neutral, from either backend) into rocprofv3's rows. Device
 * work takes the thread of the API call with its correlation id, so the calls are seen first
 * ({@link #rows} reads the list twice).
 */
public final class TraceRows {
    private final KernelNames names;
    private final Map<Long, Integer> threadOfCorrelation = new HashMap<>();
    /** rocprofv3's kernel ids where the backend gives none: 1, 2, ... in the order names appear. */
    private final Map<String, Long> kernelIds = new LinkedHashMap<>();

    private long markerCorrelation;

    public TraceRows(KernelNames names) {
        this.names = names;
    }

    /** The file an event's row goes to, or null for events rocprofv3 writes no row of. */
    public static TraceFile fileOf(GpuEvent event) {
        return switch (event) {
            case GpuKernel k -> TraceFile.KERNEL;
            case GpuMemoryCopy c -> TraceFile.MEMORY_COPY;
            case GpuMemoryAllocation a -> TraceFile.MEMORY_ALLOCATION;
            case GpuScratchMemory s -> TraceFile.SCRATCH_MEMORY;
            case GpuMarker m -> TraceFile.MARKER_API;
            case GpuApiCall a -> apiFile(a.domain());
            default -> null;
        };
    }

    private static TraceFile apiFile(GpuDomain domain) {
        String name = domain.settingName();
        if (name.startsWith("hip_")) {
            return TraceFile.HIP_API;
        }
        if (name.startsWith("cuda_")) {
            return TraceFile.CUDA_API;
        }
        if (name.startsWith("hsa_")) {
            return TraceFile.HSA_API;
        }
        if (name.startsWith("marker_")) {
            return TraceFile.MARKER_API;
        }
        if (name.equals("rccl_api")) {
            return TraceFile.RCCL_API;
        }
        return null;
    }

    /** Every event's row, in the events' order (events of no file are skipped). */
    public List<TraceRow> rows(List<GpuEvent> events) {
        for (GpuEvent e : events) {
            if (e instanceof GpuApiCall a && a.correlationId() != 0) {
                threadOfCorrelation.putIfAbsent(a.correlationId(), a.tid());
            }
        }
        List<TraceRow> out = new ArrayList<>(events.size());
        for (GpuEvent e : events) {
            TraceRow row = row(e);
            if (row != null) {
                out.add(row);
            }
        }
        return out;
    }

    /** The kernel name as the files show it. */
    public String kernelName(GpuKernel k) {
        return names.of(k.name(), k.mangledName());
    }

    private TraceRow row(GpuEvent event) {
        TraceFile file = fileOf(event);
        if (file == null) {
            return null;
        }
        return switch (event) {
            case GpuApiCall a ->
                new TraceRow(
                        event,
                        file,
                        a.pid(),
                        a.function(),
                        a.beginNs(),
                        a.endNs(),
                        List.of(
                                domainName(a.domain()),
                                a.function(),
                                a.pid(),
                                a.tid(),
                                a.correlationId(),
                                a.beginNs(),
                                a.endNs()));
            case GpuMarker m ->
                new TraceRow(
                        event,
                        file,
                        m.pid(),
                        m.message(),
                        m.beginNs(),
                        m.endNs(),
                        List.of(
                                m.api() == null ? "MARKER_CORE_API" : domainName(m.api()),
                                m.message(),
                                m.pid(),
                                m.tid(),
                                ++markerCorrelation,
                                m.beginNs(),
                                m.endNs()));
            case GpuKernel k -> kernel(k);
            case GpuMemoryCopy c ->
                new TraceRow(
                        event,
                        file,
                        c.pid(),
                        c.kind().operationName(),
                        c.beginNs(),
                        c.endNs(),
                        List.of(
                                "MEMORY_COPY",
                                c.kind().operationName(),
                                Math.max(0, c.stream()),
                                Agents.name(c.srcDevice()),
                                Agents.name(c.dstDevice()),
                                c.correlationId(),
                                c.beginNs(),
                                c.endNs()));
            case GpuMemoryAllocation a -> {
                String op = a.free() ? "MEMORY_ALLOCATION_FREE" : "MEMORY_ALLOCATION_ALLOCATE";
                yield new TraceRow(
                        event,
                        file,
                        a.pid(),
                        op,
                        a.timestampNs(),
                        a.timestampNs(),
                        List.of(
                                "MEMORY_ALLOCATION",
                                op,
                                a.free() ? "Agent 0" : Agents.name(a.device()),
                                a.free() ? 0L : a.bytes(),
                                String.format("0x%016x", a.address()),
                                a.correlationId(),
                                a.timestampNs(),
                                a.timestampNs()));
            }
            case GpuScratchMemory s ->
                new TraceRow(
                        event,
                        file,
                        s.pid(),
                        s.operation(),
                        s.beginNs(),
                        s.endNs(),
                        List.of(
                                "SCRATCH_MEMORY",
                                s.operation(),
                                Agents.name(s.device()),
                                annotation(s.placement().annotations(), "queue", 0),
                                s.tid(),
                                0,
                                s.beginNs(),
                                s.endNs(),
                                s.bytes()));
            default -> null;
        };
    }

    private TraceRow kernel(GpuKernel k) {
        List<GpuAnnotation> notes =
                k.placement() == null ? List.of() : k.placement().annotations();
        String name = kernelName(k);
        long kernelId = annotation(notes, "kernel_id", -1);
        if (kernelId < 0) {
            kernelId = kernelIds.computeIfAbsent(name, n -> (long) kernelIds.size() + 1);
        }
        Dim3 block = k.block();
        // rocprofv3's grid is in work-items: ROCm's dispatch records give that, CUDA's give blocks
        Dim3 grid = k.domain() != null && k.domain().vendor().name().equals("CUDA")
                ? new Dim3(
                        k.grid().x() * block.x(),
                        k.grid().y() * block.y(),
                        k.grid().z() * block.z())
                : k.grid();
        long lds = annotation(notes, "group_segment_size", (long) k.staticSharedBytes() + k.dynamicSharedBytes());
        List<Object> values = List.of(
                "KERNEL_DISPATCH",
                Agents.name(k.device()),
                annotation(notes, "queue", Math.max(0, k.stream())),
                Math.max(0, k.stream()),
                threadOfCorrelation.getOrDefault(k.correlationId(), 0),
                annotation(notes, "dispatch_id", k.correlationId()),
                kernelId,
                name,
                k.correlationId(),
                k.beginNs(),
                k.endNs(),
                lds,
                annotation(notes, "private_segment_size", 0),
                k.registersPerThread(),
                0,
                0,
                block.x(),
                block.y(),
                block.z(),
                grid.x(),
                grid.y(),
                grid.z());
        return new TraceRow(k, TraceFile.KERNEL, k.pid(), name, k.beginNs(), k.endNs(), values);
    }

    /** The rocprofv3 domain of a call: the vendor's domain name in capitals (HIP_RUNTIME_API, CUDA_DRIVER_API). */
    static String domainName(GpuDomain domain) {
        return domain.settingName().toUpperCase(java.util.Locale.ROOT);
    }

    private static long annotation(List<GpuAnnotation> notes, String name, long otherwise) {
        for (GpuAnnotation a : notes) {
            if (a.name().equals(name) && a.kind() != GpuAnnotation.Kind.STRING) {
                return a.number();
            }
        }
        return otherwise;
    }
}
