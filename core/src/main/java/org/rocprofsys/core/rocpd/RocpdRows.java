package org.rocprofsys.core.rocpd;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.rocprofsys.core.rocpd.RocpdDatabase.Insert;

/**
 * One typed insert per rocpd table (the columns rocprof-sys fills), and the string table with its
 * ids interned. Every method returns the new row's id. {@code nid} is always the one node.
 */
final class RocpdRows {
    private final RocpdDatabase db;
    private final long nid;
    private final Map<String, Long> strings = new HashMap<>();
    private final Insert string;
    private final Insert process;
    private final Insert thread;
    private final Insert agent;
    private final Insert queue;
    private final Insert stream;
    private final Insert pmc;
    private final Insert codeObject;
    private final Insert kernelSymbol;
    private final Insert track;
    private final Insert event;
    private final Insert arg;
    private final Insert pmcEvent;
    private final Insert region;
    private final Insert sample;
    private final Insert dispatch;
    private final Insert copy;
    private final Insert allocate;

    RocpdRows(RocpdDatabase db, NodeInfo node) throws SQLException {
        this.db = db;
        string = db.insert("rocpd_string", "string");
        Insert n = db.insert(
                "rocpd_info_node",
                "hash",
                "machine_id",
                "system_name",
                "hostname",
                "release",
                "version",
                "hardware_name",
                "domain_name");
        nid = n.begin();
        n.setLong(2, node.hash());
        n.setString(3, node.machineId());
        n.setString(4, node.systemName());
        n.setString(5, node.hostname());
        n.setString(6, node.release());
        n.setString(7, node.version());
        n.setString(8, node.hardwareName());
        n.setString(9, node.domainName());
        n.add();
        // every row is of this one node: its id is a constant of each statement, not a bound value
        String nodeId = "nid=" + nid;
        process = db.insert("rocpd_info_process", nodeId, "ppid", "pid", "init", "start", "command", "extdata");
        thread = db.insert("rocpd_info_thread", nodeId, "ppid", "pid", "tid", "name", "start");
        agent = db.insert(
                "rocpd_info_agent",
                nodeId,
                "pid",
                "type",
                "absolute_index",
                "logical_index",
                "type_index",
                "name",
                "model_name",
                "vendor_name",
                "product_name",
                "user_name",
                "extdata");
        queue = db.insert("rocpd_info_queue", nodeId, "pid", "name");
        stream = db.insert("rocpd_info_stream", nodeId, "pid", "name");
        pmc = db.insert(
                "rocpd_info_pmc",
                nodeId,
                "pid",
                "agent_id",
                "target_arch",
                "name",
                "symbol",
                "description",
                "component",
                "units",
                "value_type",
                "is_constant",
                "is_derived");
        codeObject = db.insert("rocpd_info_code_object", nodeId, "pid", "agent_id", "uri", "storage_type");
        kernelSymbol = db.insert(
                "rocpd_info_kernel_symbol",
                nodeId,
                "pid",
                "code_object_id",
                "kernel_name",
                "display_name",
                "group_segment_size",
                "private_segment_size",
                "arch_vgpr_count",
                "extdata");
        track = db.insert("rocpd_track", nodeId, "pid", "tid", "name_id");
        event = db.insert("rocpd_event", "category_id", "correlation_id", "call_stack", "line_info", "extdata");
        arg = db.insert("rocpd_arg", "event_id", "position", "type", "name", "value");
        pmcEvent = db.insert("rocpd_pmc_event", "event_id", "pmc_id", "value");
        region = db.insert("rocpd_region", nodeId, "pid", "tid", "start", "end", "name_id", "event_id");
        sample = db.insert("rocpd_sample", "track_id", "timestamp", "event_id");
        dispatch = db.insert(
                "rocpd_kernel_dispatch",
                nodeId,
                "pid",
                "tid",
                "agent_id",
                "kernel_id",
                "dispatch_id",
                "queue_id",
                "stream_id",
                "start",
                "end",
                "private_segment_size",
                "group_segment_size",
                "workgroup_size_x",
                "workgroup_size_y",
                "workgroup_size_z",
                "grid_size_x",
                "grid_size_y",
                "grid_size_z",
                "region_name_id",
                "event_id");
        copy = db.insert(
                "rocpd_memory_copy",
                nodeId,
                "pid",
                "tid",
                "start",
                "end",
                "name_id",
                "dst_agent_id",
                "dst_address",
                "src_agent_id",
                "src_address",
                "size",
                "queue_id",
                "stream_id",
                "region_name_id",
                "event_id");
        allocate = db.insert(
                "rocpd_memory_allocate",
                nodeId,
                "pid",
                "tid",
                "agent_id",
                "type",
                "level",
                "start",
                "end",
                "address",
                "size",
                "queue_id",
                "stream_id",
                "event_id",
                "extdata");
    }

    RocpdDatabase database() {
        return db;
    }

    /** The id of {@code text} in rocpd_string, inserted the first time. */
    long string(String text) throws SQLException {
        Long id = strings.get(text);
        if (id != null) {
            return id;
        }
        long created = string.begin();
        string.setString(2, text);
        string.add();
        strings.put(text, created);
        return created;
    }

    long process(int ppid, int pid, long start, String command, String extdata) throws SQLException {
        long id = process.begin();
        var s = process;
        s.setLong(2, nid);
        s.setInt(3, ppid);
        s.setInt(4, pid);
        s.setLong(5, start);
        s.setLong(6, start);
        s.setString(7, command);
        s.setString(8, extdata);
        process.add();
        return id;
    }

    long thread(int ppid, long processId, int tid, String name, long start) throws SQLException {
        long id = thread.begin();
        var s = thread;
        s.setLong(2, nid);
        s.setInt(3, ppid);
        s.setLong(4, processId);
        s.setInt(5, tid);
        s.setString(6, name);
        s.setLong(7, start);
        thread.add();
        return id;
    }

    /** An agent: a CPU or a GPU of a process ({@code type} "CPU" or "GPU"). */
    long agent(
            long processId,
            String type,
            int absoluteIndex,
            int typeIndex,
            String name,
            String model,
            String vendor,
            String extdata)
            throws SQLException {
        long id = agent.begin();
        var s = agent;
        s.setLong(2, nid);
        s.setLong(3, processId);
        s.setString(4, type);
        s.setInt(5, absoluteIndex);
        s.setInt(6, absoluteIndex);
        s.setInt(7, typeIndex);
        s.setString(8, name);
        s.setString(9, model);
        s.setString(10, vendor);
        s.setString(11, name);
        s.setString(12, name);
        s.setString(13, extdata);
        agent.add();
        return id;
    }

    long queue(long processId, String name) throws SQLException {
        long id = queue.begin();
        queue.setLong(2, nid);
        queue.setLong(3, processId);
        queue.setString(4, name);
        queue.add();
        return id;
    }

    long stream(long processId, String name) throws SQLException {
        long id = stream.begin();
        stream.setLong(2, nid);
        stream.setLong(3, processId);
        stream.setString(4, name);
        stream.add();
        return id;
    }

    /** A counter series' description (process sampling: an absolute value per sample). */
    long pmc(long processId, long agentId, String arch, String name, String description, String component, String units)
            throws SQLException {
        return pmc(processId, agentId, arch, name, description, component, units, "ABS");
    }

    /** A counter's description; {@code valueType} ABS, ACCUM or RELATIVE (the schema's choices). */
    long pmc(
            long processId,
            long agentId,
            String arch,
            String name,
            String description,
            String component,
            String units,
            String valueType)
            throws SQLException {
        long id = pmc.begin();
        var s = pmc;
        s.setLong(2, nid);
        s.setLong(3, processId);
        s.setLong(4, agentId);
        s.setString(5, arch);
        s.setString(6, name);
        s.setString(7, name);
        s.setString(8, description);
        s.setString(9, component);
        s.setString(10, units);
        s.setString(11, valueType);
        s.setInt(12, 0);
        s.setInt(13, 0);
        pmc.add();
        return id;
    }

    long codeObject(long processId, long agentId, String uri) throws SQLException {
        long id = codeObject.begin();
        var s = codeObject;
        s.setLong(2, nid);
        s.setLong(3, processId);
        s.setLong(4, agentId);
        s.setString(5, uri);
        s.setString(6, "MEMORY");
        codeObject.add();
        return id;
    }

    long kernelSymbol(
            long processId,
            long codeObjectId,
            String kernelName,
            String displayName,
            int staticShared,
            int registers,
            String extdata)
            throws SQLException {
        long id = kernelSymbol.begin();
        var s = kernelSymbol;
        s.setLong(2, nid);
        s.setLong(3, processId);
        s.setLong(4, codeObjectId);
        s.setString(5, kernelName);
        s.setString(6, displayName);
        s.setInt(7, staticShared);
        s.setInt(8, 0);
        s.setInt(9, registers);
        s.setString(10, extdata);
        kernelSymbol.add();
        return id;
    }

    /** A track: a thread's samples ({@code threadId} > 0) or a counter series (0). */
    long track(long processId, long threadId, long nameId) throws SQLException {
        long id = track.begin();
        var s = track;
        s.setLong(2, nid);
        s.setLong(3, processId);
        track.setNullableLong(4, threadId, threadId > 0);
        s.setLong(5, nameId);
        track.add();
        return id;
    }

    /** An event; {@code correlationId} 0 is none; null JSON texts take the column default. */
    long event(long categoryId, long correlationId, String callStack, String lineInfo, String extdata)
            throws SQLException {
        long id = event.begin();
        var s = event;
        s.setLong(2, categoryId);
        event.setNullableLong(3, correlationId, correlationId != 0);
        s.setString(4, callStack == null ? "{}" : callStack);
        s.setString(5, lineInfo == null ? "{}" : lineInfo);
        s.setString(6, extdata == null ? "{}" : extdata);
        event.add();
        return id;
    }

    long arg(long eventId, int position, String type, String name, String value) throws SQLException {
        long id = arg.begin();
        var s = arg;
        s.setLong(2, eventId);
        s.setInt(3, position);
        s.setString(4, type);
        s.setString(5, name);
        s.setString(6, value);
        arg.add();
        return id;
    }

    long pmcEvent(long eventId, long pmcId, double value) throws SQLException {
        long id = pmcEvent.begin();
        pmcEvent.setLong(2, eventId);
        pmcEvent.setLong(3, pmcId);
        pmcEvent.setDouble(4, value);
        pmcEvent.add();
        return id;
    }

    long region(long processId, long threadId, long start, long end, long nameId, long eventId) throws SQLException {
        long id = region.begin();
        var s = region;
        s.setLong(2, nid);
        s.setLong(3, processId);
        s.setLong(4, threadId);
        s.setLong(5, start);
        s.setLong(6, end);
        s.setLong(7, nameId);
        s.setLong(8, eventId);
        region.add();
        return id;
    }

    long sample(long trackId, long timestamp, long eventId) throws SQLException {
        long id = sample.begin();
        sample.setLong(2, trackId);
        sample.setLong(3, timestamp);
        sample.setLong(4, eventId);
        sample.add();
        return id;
    }

    /** A kernel (or a memset, which rocpd keeps as a dispatch of a fill kernel, as ROCm does). */
    long dispatch(KernelRow k) throws SQLException {
        long id = dispatch.begin();
        var s = dispatch;
        s.setLong(2, nid);
        s.setLong(3, k.processId());
        s.setLong(4, k.threadId());
        s.setLong(5, k.agentId());
        s.setLong(6, k.kernelId());
        s.setLong(7, k.dispatchId());
        s.setLong(8, k.queueId());
        s.setLong(9, k.streamId());
        s.setLong(10, k.start());
        s.setLong(11, k.end());
        s.setInt(12, 0);
        s.setInt(13, k.groupSegmentSize());
        s.setInt(14, k.block().x());
        s.setInt(15, k.block().y());
        s.setInt(16, k.block().z());
        s.setInt(17, k.grid().x());
        s.setInt(18, k.grid().y());
        s.setInt(19, k.grid().z());
        s.setLong(20, k.regionNameId());
        s.setLong(21, k.eventId());
        dispatch.add();
        return id;
    }

    long copy(CopyRow c) throws SQLException {
        long id = copy.begin();
        var s = copy;
        s.setLong(2, nid);
        s.setLong(3, c.processId());
        s.setLong(4, c.threadId());
        s.setLong(5, c.start());
        s.setLong(6, c.end());
        s.setLong(7, c.nameId());
        s.setLong(8, c.dstAgentId());
        s.setNullableLong(9, c.address());
        s.setLong(10, c.srcAgentId());
        s.setNullableLong(11, c.address());
        s.setLong(12, c.size());
        s.setNullableLong(13, c.queueId());
        s.setNullableLong(14, c.streamId());
        s.setNullableLong(15, c.regionNameId());
        s.setLong(16, c.eventId());
        copy.add();
        return id;
    }

    long allocation(AllocationRow a) throws SQLException {
        long id = allocate.begin();
        var s = allocate;
        s.setLong(2, nid);
        s.setLong(3, a.processId());
        s.setLong(4, a.threadId());
        s.setLong(5, a.agentId());
        s.setString(6, a.type());
        s.setString(7, a.level());
        s.setLong(8, a.time());
        s.setLong(9, a.time());
        s.setLong(10, a.address());
        s.setLong(11, a.size());
        s.setLong(12, a.queueId());
        s.setLong(13, a.streamId());
        s.setLong(14, a.eventId());
        s.setString(15, a.extdata());
        allocate.add();
        return id;
    }
}
