package org.rocprofsys.rocprofv3.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuScratchMemory;
import org.rocprofsys.rocprofv3.trace.Agents;
import org.rocprofsys.rocprofv3.trace.KernelNames;
import org.rocprofsys.rocprofv3.trace.TraceFile;
import org.rocprofsys.rocprofv3.trace.TraceRow;

/**
 * rocprofv3's JSON output (seed 001, "JSON output schema"): {@code {"rocprofiler-sdk-tool": [one
 * object per process]}}, each with metadata, agents, counters, strings, code_objects,
 * kernel_symbols, callback_records and buffer_records. A record's {@code kind} indexes
 * {@code strings.buffer_records}, its {@code operation} that kind's {@code operations}; what the
 * event model does not know (code objects, counters) is an empty array.
 */
public final class JsonDocument {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** buffer_records' array of each file. */
    private static final Map<TraceFile, String> SECTIONS = Map.of(
            TraceFile.KERNEL, "kernel_dispatch",
            TraceFile.HIP_API, "hip_api",
            TraceFile.CUDA_API, "cuda_api",
            TraceFile.HSA_API, "hsa_api",
            TraceFile.MARKER_API, "marker_api",
            TraceFile.RCCL_API, "rccl_api",
            TraceFile.MEMORY_COPY, "memory_copy",
            TraceFile.MEMORY_ALLOCATION, "memory_allocation",
            TraceFile.SCRATCH_MEMORY, "scratch_memory");

    private JsonDocument() {}

    /** One process's data. */
    public record Process(
            int pid, long initNs, long finiNs, List<GpuDevice> devices, List<TraceRow> rows, KernelNames names) {}

    public static String text(List<Process> processes) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode tool = root.putArray("rocprofiler-sdk-tool");
        for (Process p : processes) {
            tool.add(process(p));
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode process(Process p) {
        ObjectNode o = JSON.createObjectNode();
        ObjectNode meta = o.putObject("metadata");
        meta.put("pid", p.pid());
        meta.put("init_time", p.initNs());
        meta.put("fini_time", p.finiNs());
        ArrayNode agents = o.putArray("agents");
        agents.add(agent(0, 1, "CPU", "CPU", 0, ""));
        for (GpuDevice d : p.devices()) {
            agents.add(
                    agent(Agents.node(d.index()), 2, d.name(), d.vendor(), d.multiprocessors(), d.computeCapability()));
        }
        o.putArray("counters");
        // kinds and operations: the strings the records' numbers index
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        for (TraceRow r : p.rows()) {
            String kind = kind(r);
            List<String> ops = kinds.computeIfAbsent(kind, k -> new ArrayList<>());
            if (!ops.contains(r.statsName())) {
                ops.add(r.statsName());
            }
        }
        ObjectNode strings = o.putObject("strings");
        strings.putArray("callback_records");
        ArrayNode buffer = strings.putArray("buffer_records");
        kinds.forEach((kind, ops) -> {
            ObjectNode k = buffer.addObject();
            k.put("kind", kind);
            ArrayNode list = k.putArray("operations");
            ops.forEach(list::add);
        });
        ArrayNode markers = strings.putArray("marker_api");
        strings.putObject("counters").putArray("dimension_ids");
        o.putArray("code_objects");
        ArrayNode symbols = o.putArray("kernel_symbols");
        o.putObject("callback_records").putArray("counter_collection");
        ObjectNode records = o.putObject("buffer_records");
        List<String> kindOrder = new ArrayList<>(kinds.keySet());
        Map<Long, Boolean> symbolSeen = new LinkedHashMap<>();
        long markerKey = 0;
        for (TraceRow r : p.rows()) {
            ArrayNode section = records.withArray(SECTIONS.get(r.file()));
            ObjectNode rec = section.addObject();
            rec.put("size", 0);
            String kind = kind(r);
            rec.put("kind", kindOrder.indexOf(kind));
            rec.put("operation", kinds.get(kind).indexOf(r.statsName()));
            switch (r.file()) {
                case KERNEL -> {
                    GpuKernel k = (GpuKernel) r.event();
                    rec.put("thread_id", r.number("Thread_Id"));
                    correlation(rec, r.number("Correlation_Id"));
                    times(rec, r);
                    ObjectNode info = rec.putObject("dispatch_info");
                    info.put("size", 0);
                    info.putObject("agent_id").put("handle", Agents.node(k.device()));
                    info.putObject("queue_id").put("handle", r.number("Queue_Id"));
                    info.put("kernel_id", r.number("Kernel_Id"));
                    info.put("dispatch_id", r.number("Dispatch_Id"));
                    info.put("private_segment_size", r.number("Scratch_Size"));
                    info.put("group_segment_size", r.number("LDS_Block_Size"));
                    xyz(info.putObject("workgroup_size"), r, "Workgroup_Size_");
                    xyz(info.putObject("grid_size"), r, "Grid_Size_");
                    if (symbolSeen.put(r.number("Kernel_Id"), true) == null) {
                        ObjectNode s = symbols.addObject();
                        s.put("size", 0);
                        s.put("kernel_id", r.number("Kernel_Id"));
                        s.put("code_object_id", 0);
                        s.put("kernel_name", k.mangledName() == null ? k.name() : k.mangledName());
                        s.put("kernel_object", 0);
                        s.put("kernarg_segment_size", 0);
                        s.put("kernarg_segment_alignment", 0);
                        s.put("group_segment_size", r.number("LDS_Block_Size"));
                        s.put("private_segment_size", r.number("Scratch_Size"));
                        s.put("formatted_kernel_name", (String) r.value("Kernel_Name"));
                        s.put("demangled_kernel_name", k.name());
                        s.put("truncated_kernel_name", new KernelNames(true, false).of(k.name(), null));
                    }
                }
                case MEMORY_COPY -> {
                    GpuMemoryCopy c = (GpuMemoryCopy) r.event();
                    correlation(rec, c.correlationId());
                    times(rec, r);
                    rec.put("thread_id", 0);
                    rec.putObject("dst_agent_id").put("handle", Agents.node(c.dstDevice()));
                    rec.putObject("src_agent_id").put("handle", Agents.node(c.srcDevice()));
                    rec.put("bytes", c.bytes());
                }
                case MEMORY_ALLOCATION -> {
                    GpuMemoryAllocation a = (GpuMemoryAllocation) r.event();
                    correlation(rec, a.correlationId());
                    times(rec, r);
                    rec.put("thread_id", 0);
                    rec.putObject("agent_id").put("handle", a.free() ? 0 : Agents.node(a.device()));
                    rec.put("address", a.address());
                    rec.put("allocation_size", a.free() ? 0 : a.bytes());
                }
                case SCRATCH_MEMORY -> {
                    GpuScratchMemory s = (GpuScratchMemory) r.event();
                    correlation(rec, 0);
                    times(rec, r);
                    rec.put("thread_id", s.tid());
                    rec.putObject("agent_id").put("handle", Agents.node(s.device()));
                    rec.putObject("queue_id").put("handle", r.number("Queue_Id"));
                    rec.put("flags", 0);
                    rec.put("allocation_size", s.bytes());
                }
                default -> {
                    correlation(rec, r.number("Correlation_Id"));
                    times(rec, r);
                    rec.put("thread_id", r.number("Thread_Id"));
                    if (r.file() == TraceFile.MARKER_API) {
                        ObjectNode m = markers.addObject();
                        m.put("key", ++markerKey);
                        m.put("value", r.statsName());
                    }
                }
            }
        }
        return o;
    }

    /** The kind's name: an API row's domain column, else the row's Kind column. */
    private static String kind(TraceRow r) {
        return r.file().columns.contains("Domain") ? (String) r.value("Domain") : (String) r.value("Kind");
    }

    private static void correlation(ObjectNode rec, long internal) {
        ObjectNode c = rec.putObject("correlation_id");
        c.put("internal", internal);
        c.put("external", 0);
    }

    private static void times(ObjectNode rec, TraceRow r) {
        rec.put("start_timestamp", r.beginNs());
        rec.put("end_timestamp", r.endNs());
    }

    private static void xyz(ObjectNode o, TraceRow r, String prefix) {
        o.put("x", r.number(prefix + "X"));
        o.put("y", r.number(prefix + "Y"));
        o.put("z", r.number(prefix + "Z"));
    }

    private static ObjectNode agent(int node, int type, String name, String vendor, int units, String arch) {
        ObjectNode a = JSON.createObjectNode();
        a.put("size", 0);
        a.putObject("id").put("handle", node);
        a.put("type", type);
        a.put("node_id", node);
        a.put("logical_node_id", node);
        a.put("cu_count", units);
        a.put("name", arch.isEmpty() ? name : arch);
        a.put("vendor_name", vendor);
        a.put("product_name", name);
        a.put("model_name", "");
        ObjectNode cap = a.putObject("capability");
        for (String f : CAPABILITIES) {
            cap.put(f, 0);
        }
        return a;
    }

    /** capability's required fields (all 0: the event model has no such flags). */
    static final List<String> CAPABILITIES = List.of(
            "HotPluggable",
            "HSAMMUPresent",
            "SharedWithGraphics",
            "QueueSizePowerOfTwo",
            "QueueSize32bit",
            "QueueIdleEvent",
            "VALimit",
            "WatchPointsSupported",
            "WatchPointsTotalBits",
            "DoorbellType",
            "AQLQueueDoubleMap",
            "DebugTrapSupported",
            "WaveLaunchTrapOverrideSupported",
            "WaveLaunchModeSupported",
            "PreciseMemoryOperationsSupported",
            "DEPRECATED_SRAM_EDCSupport",
            "Mem_EDCSupport",
            "RASEventNotify",
            "ASICRevision",
            "SRAM_EDCSupport",
            "SVMAPISupported",
            "CoherentHostAccess",
            "DebugSupportedFirmware",
            "Reserved");
}
