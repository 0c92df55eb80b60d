package org.rocprofsys.core.rocpd;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuArgument;
import org.rocprofsys.core.gpu.GpuCounterSample;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryAllocation;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;
import org.rocprofsys.core.gpu.GpuPageFault;
import org.rocprofsys.core.gpu.GpuPageMigration;
import org.rocprofsys.core.gpu.GpuScratchMemory;
import org.rocprofsys.core.gpu.GpuSynchronization;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.gpu.MemoryKind;
import org.rocprofsys.core.gpu.MigrationDirection;

/**
 * The GPU event model (core.gpu) as rocpd rows. API calls and markers are regions of the calling
 * thread (category as in the trace, the vendor's domain's; arguments
 * as rocpd_arg, the correlation id on the event). Device work keeps the thread and the API
 * function that launched it (found by correlation id), a stream and a queue row per
 * stream (named by the vendor's {@link GpuVendor#rocpdStreamLabel}), and one kernel symbol per
 * kernel name and process; a memset is the dispatch of a
 * {@code MEMORY_SET} kernel, the way ROCm runs fills; a unified-memory migration is a memory copy
 * of category {@code rocm_page_migration}. Synchronisations have no row of their own: the waiting
 * API call is the region.
 *
 * <p>Hardware counters per kernel ({@link GpuCounterSample}): one rocpd_info_pmc row per metric,
 * agent and process (target_arch GPU, name and symbol the metric as the user wrote it, component
 * the collecting library) and one rocpd_pmc_event per value on the kernel dispatch's event, so the
 * {@code pmc_events} and {@code counters_collection} views list them with their kernel. A value
 * arrives before or after its kernel (joined by the launch's correlation id); one whose kernel
 * never came is written at the end on an event of its own (category
 * {@code rocm_counter_collection}, the kernel name and dispatch id in extdata), outside those views.
 */
final class GpuRows {
    /** Launches remembered for their device work (bounded: a call whose work never came ages out). */
    private static final int LAUNCHES_KEPT = 1 << 16;

    private record Launch(int tid, String function) {}

    private final RocpdRows rows;
    private final ProcessRows processes;
    private final Map<String, GpuDevice> devices = new HashMap<>();
    private final Map<String, long[]> streams = new HashMap<>();
    private final Map<String, Long> kernels = new HashMap<>();
    private final Map<String, Long> codeObjects = new HashMap<>();
    private final Map<String, Long> categories = new HashMap<>();
    private final Map<String, Launch> launches = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Launch> eldest) {
            return size() > LAUNCHES_KEPT;
        }
    };
    private long dispatches;

    /** A kernel dispatch as its counter values need it. */
    private record Dispatch(ProcessRows.ProcessImage image, long agentId, long eventId, String component) {}

    /** Dispatches by process and correlation id, for counter values that come after them (bounded). */
    private final Map<String, Dispatch> dispatchEvents = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Dispatch> eldest) {
            return size() > LAUNCHES_KEPT;
        }
    };
    /** Counter values that came before their kernel, by process and correlation id. */
    private final Map<String, List<GpuCounterSample>> waitingForKernel = new LinkedHashMap<>();
    /** rocpd_info_pmc ids by process row, agent and metric. */
    private final Map<String, Long> pmcIds = new HashMap<>();

    /** The category of a counter value whose kernel never came (upstream's, every vendor's). */
    private static final String KERNEL_COUNTERS = Category.ROCM_COUNTER_COLLECTION.label();

    GpuRows(RocpdRows rows, ProcessRows processes) {
        this.rows = rows;
        this.processes = processes;
    }

    void accept(GpuEvent event) throws SQLException {
        switch (event) {
            case GpuDevice d -> devices.putIfAbsent(d.pid() + "/" + d.index(), d);
            case GpuApiCall c -> apiCall(c);
            case GpuMarker m -> marker(m);
            // the trace's category: the vendor's, e.g. a ROCm queue's track or, by default, the HIP stream's
            case GpuKernel k -> kernel(k);
            case GpuMemoryCopy c -> copy(c);
            case GpuMemorySet s -> memset(s);
            case GpuMemoryAllocation a -> allocation(a);
            case GpuSynchronization s -> {
                // the waiting call (cudaStreamSynchronize & co.) is a region already
            }
            case GpuScratchMemory s -> {
                // no rocpd table holds scratch-memory events
            }
            case GpuPageMigration m -> migration(m);
            case GpuPageFault f -> {
                // counted on a counter series by RocpdSink, as the trace counts them
            }
            case GpuCounterSample s -> counter(s);
        }
    }

    private void apiCall(GpuApiCall c) throws SQLException {
        // the domain's category as in the trace: cuda_runtime_api, rocm_hip_api, rocm_marker_api ...
        long eventId = rows.event(categoryId(c.domain().category()), c.correlationId(), null, null, null);
        int position = 0;
        for (GpuArgument a : c.arguments()) {
            rows.arg(eventId, position++, "string", a.name(), a.value());
        }
        ProcessRows.ProcessImage image = processes.process(c.pid(), c.beginNs());
        ProcessRows.ThreadRows t = processes.thread(c.pid(), c.tid(), c.beginNs());
        rows.region(image.id, t.id, c.beginNs(), c.endNs(), rows.string(c.function()), eventId);
        if (c.correlationId() != 0) {
            // the runtime call names the work; the driver call under it has the same id and, ending
            // first, usually arrives first
            String key = c.pid() + "/" + c.correlationId();
            if (!c.domain().nested() || !launches.containsKey(key)) {
                launches.put(key, new Launch(c.tid(), c.function()));
            }
        }
    }

    private void marker(GpuMarker m) throws SQLException {
        long eventId = rows.event(categoryId(m.api().category()), 0, null, null, null);
        int position = 0;
        if (!m.domain().isEmpty()) {
            rows.arg(eventId, position++, "string", "domain", m.domain());
        }
        if (m.closedByProfiler()) {
            rows.arg(eventId, position, "bool", "closed_by_profiler", "true");
        }
        ProcessRows.ProcessImage image = processes.process(m.pid(), m.beginNs());
        ProcessRows.ThreadRows t = processes.thread(m.pid(), m.tid(), m.beginNs());
        String name = m.message() == null ? "" : m.message();
        rows.region(image.id, t.id, m.beginNs(), m.range() ? m.endNs() : m.beginNs(), rows.string(name), eventId);
    }

    private void kernel(GpuKernel k) throws SQLException {
        String component = k.domain().vendor().counterComponent();
        String category = k.placement().category();
        Placement p = place(k.domain().vendor(), k.pid(), k.device(), k.stream(), k.correlationId(), k.beginNs());
        long symbol =
                kernelSymbol(p, k.device(), k.mangledName(), k.name(), k.staticSharedBytes(), k.registersPerThread());
        long eventId = rows.event(categoryId(category), k.correlationId(), null, null, null);
        rows.dispatch(new KernelRow(
                p.image.id,
                p.threadId,
                p.agentId,
                symbol,
                ++dispatches,
                p.queueId,
                p.streamId,
                k.beginNs(),
                k.endNs(),
                k.staticSharedBytes() + k.dynamicSharedBytes(),
                k.block(),
                k.grid(),
                p.regionNameId,
                eventId));
        if (k.correlationId() != 0) {
            String key = k.pid() + "/" + k.correlationId();
            Dispatch d = new Dispatch(p.image, p.agentId, eventId, component);
            dispatchEvents.put(key, d);
            List<GpuCounterSample> waiting = waitingForKernel.remove(key);
            for (GpuCounterSample s : waiting == null ? List.<GpuCounterSample>of() : waiting) {
                onDispatch(d, s);
            }
        }
    }

    /** A kernel's counter value on its dispatch's event (see the class comment). */
    private void counter(GpuCounterSample s) throws SQLException {
        String key = s.pid() + "/" + s.correlationId();
        Dispatch d = s.correlationId() != 0 ? dispatchEvents.get(key) : null;
        if (d != null) {
            onDispatch(d, s);
        } else if (s.correlationId() != 0) {
            waitingForKernel.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
        } else {
            withoutKernel(s);
        }
    }

    private void onDispatch(Dispatch d, GpuCounterSample s) throws SQLException {
        rows.pmcEvent(d.eventId, pmcId(d.image, d.agentId, s.metric(), d.component), s.value());
    }

    /** A counter value whose kernel is unknown: on an event of its own, outside the kernel views. */
    private void withoutKernel(GpuCounterSample s) throws SQLException {
        ProcessRows.ProcessImage image = processes.process(s.pid(), s.beginNs());
        long agentId = agent(image, Math.max(s.device(), 0));
        String extdata = "{\"kernel\":" + Json.quote(s.kernelName()) + ",\"dispatch_id\":" + s.dispatchId()
                + ",\"start\":" + s.beginNs() + ",\"end\":" + s.endNs() + "}";
        long eventId = rows.event(categoryId(KERNEL_COUNTERS), s.correlationId(), null, null, extdata);
        // which library measured it is not known without its kernel
        rows.pmcEvent(eventId, pmcId(image, agentId, s.metric(), ""), s.value());
    }

    /** Writes the counter values whose kernel never came. */
    void finish() throws SQLException {
        for (List<GpuCounterSample> waiting : waitingForKernel.values()) {
            for (GpuCounterSample s : waiting) {
                withoutKernel(s);
            }
        }
        waitingForKernel.clear();
    }

    private long pmcId(ProcessRows.ProcessImage image, long agentId, String metric, String component)
            throws SQLException {
        String key = image.id + "/" + agentId + "/" + metric;
        Long id = pmcIds.get(key);
        if (id == null) {
            id = rows.pmc(image.id, agentId, "GPU", metric, metric, component, "");
            pmcIds.put(key, id);
        }
        return id;
    }

    private void memset(GpuMemorySet s) throws SQLException {
        Placement p = place(s.domain().vendor(), s.pid(), s.device(), s.stream(), s.correlationId(), s.beginNs());
        long symbol = kernelSymbol(p, s.device(), "MEMORY_SET", "MEMORY_SET", 0, 0);
        String extdata = "{\"bytes\":" + s.bytes() + ",\"value\":" + s.value() + "}";
        long eventId = rows.event(categoryId(s.domain().category()), s.correlationId(), null, null, extdata);
        Dim3 none = new Dim3(0, 0, 0);
        rows.dispatch(new KernelRow(
                p.image.id,
                p.threadId,
                p.agentId,
                symbol,
                ++dispatches,
                p.queueId,
                p.streamId,
                s.beginNs(),
                s.endNs(),
                0,
                none,
                none,
                p.regionNameId,
                eventId));
    }

    private void copy(GpuMemoryCopy c) throws SQLException {
        Placement p = place(c.domain().vendor(), c.pid(), c.device(), c.stream(), c.correlationId(), c.beginNs());
        long eventId = rows.event(categoryId(c.placement().category()), c.correlationId(), null, null, null);
        rows.copy(new CopyRow(
                p.image.id,
                p.threadId,
                c.beginNs(),
                c.endNs(),
                rows.string(c.kind().operationName()),
                agent(p.image, c.dstDevice()),
                agent(p.image, c.srcDevice()),
                null,
                c.bytes(),
                p.queueId,
                p.streamId,
                p.regionNameId,
                eventId));
    }

    /**
     * A unified-memory migration: schema v3 has no table of its own for them, so it is a
     * rocpd_memory_copy row of category {@code rocm_page_migration} named as in the trace
     * ({@code Host To Device}, ...), between the device and the process's host memory (the same
     * virtual address on both sides), on the process's main thread, with the trigger and fault
     * group in the event's extdata.
     */
    private void migration(GpuPageMigration m) throws SQLException {
        ProcessRows.ProcessImage image = processes.process(m.pid(), m.beginNs());
        long threadId = processes.thread(m.pid(), image.pid, m.beginNs()).id;
        long device = agent(image, Math.max(m.device(), 0));
        long host = processes.cpuAgent(image);
        long dst = m.direction() == MigrationDirection.DEVICE_TO_HOST ? host : device;
        long src = m.direction() == MigrationDirection.HOST_TO_DEVICE ? host : device;
        String extdata = "{\"trigger\":\"" + m.trigger().key() + "\",\"fault_group\":" + m.faultGroup() + "}";
        long eventId = rows.event(categoryId(Category.ROCM_PAGE_MIGRATION.label()), 0, null, null, extdata);
        rows.copy(new CopyRow(
                image.id,
                threadId,
                m.beginNs(),
                m.endNs(),
                rows.string(m.direction().title()),
                dst,
                src,
                m.address(),
                m.bytes(),
                null,
                null,
                null,
                eventId));
    }

    private void allocation(GpuMemoryAllocation a) throws SQLException {
        Placement p = place(a.domain().vendor(), a.pid(), a.device(), a.stream(), a.correlationId(), a.timestampNs());
        long eventId = rows.event(categoryId(a.domain().category()), a.correlationId(), null, null, null);
        rows.allocation(new AllocationRow(
                p.image.id,
                p.threadId,
                a.device() >= 0 ? p.agentId : processes.cpuAgent(p.image),
                a.free() ? "FREE" : "ALLOC",
                a.memory() == MemoryKind.MANAGED ? "VIRTUAL" : "REAL",
                a.timestampNs(),
                a.address(),
                a.bytes(),
                p.queueId,
                p.streamId,
                eventId,
                "{\"memory\":\"" + a.memory() + "\"}"));
    }

    /** Where a piece of device work goes: its process, launching thread and call, agent, stream. */
    private record Placement(
            ProcessRows.ProcessImage image,
            long threadId,
            long agentId,
            long queueId,
            long streamId,
            long regionNameId) {}

    private Placement place(GpuVendor vendor, int pid, int device, long stream, long correlationId, long time)
            throws SQLException {
        ProcessRows.ProcessImage image = processes.process(pid, time);
        Launch launch = correlationId != 0 ? launches.get(pid + "/" + correlationId) : null;
        // work whose launch is unknown is put on the process's main thread
        int tid = launch != null ? launch.tid() : image.pid;
        long threadId = processes.thread(pid, tid, time).id;
        long agentId = agent(image, Math.max(device, 0));
        String key = image.id + "/" + device + "/" + stream;
        long[] ids = streams.get(key);
        if (ids == null) {
            String name = vendor.rocpdStreamLabel() + " " + stream + " [" + device + "]";
            ids = new long[] {rows.queue(image.id, name), rows.stream(image.id, name)};
            streams.put(key, ids);
        }
        long regionName = rows.string(launch != null ? launch.function() : "unknown");
        return new Placement(image, threadId, agentId, ids[0], ids[1], regionName);
    }

    /** The agent of a device (-1: host memory, the process's first CPU). */
    private long agent(ProcessRows.ProcessImage image, int device) throws SQLException {
        if (device < 0) {
            return processes.cpuAgent(image);
        }
        return processes.gpuAgent(image, device, devices.get(image.pid + "/" + device));
    }

    private long kernelSymbol(Placement p, int device, String mangled, String display, int staticShared, int registers)
            throws SQLException {
        String key = p.image.id + "/" + mangled;
        Long id = kernels.get(key);
        if (id != null) {
            return id;
        }
        String objectKey = p.image.id + "/" + device;
        Long codeObject = codeObjects.get(objectKey);
        if (codeObject == null) {
            // CUPTI names no code objects: one per device of the process holds its kernels
            codeObject = rows.codeObject(p.image.id, p.agentId, "memory://" + p.image.pid + "/device/" + device);
            codeObjects.put(objectKey, codeObject);
        }
        String extdata = "{\"demangled_kernel_name\":" + Json.quote(display) + ",\"formatted_kernel_name\":"
                + Json.quote(display) + "}";
        long created = rows.kernelSymbol(
                p.image.id, codeObject, mangled == null ? display : mangled, display, staticShared, registers, extdata);
        kernels.put(key, created);
        return created;
    }

    /** The category string's id; the trace's label of the event, ROCm's and CUDA's alike. */
    private long categoryId(String label) throws SQLException {
        Long id = categories.get(label);
        if (id == null) {
            id = rows.string(label);
            categories.put(label, id);
        }
        return id;
    }
}
