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
        nid = n.row(
                node.hash(),
                node.machineId(),
                node.systemName(),
                node.hostname(),
                node.release(),
                node.version(),
                node.hardwareName(),
                node.domainName());
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
        return process.row(nid, ppid, pid, start, start, command, extdata);
    }

    long thread(int ppid, long processId, int tid, String name, long start) throws SQLException {
        return thread.row(nid, ppid, processId, tid, name, start);
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
        return agent.row(
                nid,
                processId,
                type,
                absoluteIndex,
                absoluteIndex,
                typeIndex,
                name,
                model,
                vendor,
                name,
                name,
                extdata);
    }

    long queue(long processId, String name) throws SQLException {
        return queue.row(nid, processId, name);
    }

    long stream(long processId, String name) throws SQLException {
        return stream.row(nid, processId, name);
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
        return pmc.row(nid, processId, agentId, arch, name, name, description, component, units, valueType, 0, 0);
    }

    long codeObject(long processId, long agentId, String uri) throws SQLException {
        return codeObject.row(nid, processId, agentId, uri, "MEMORY");
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
        return kernelSymbol.row(
                nid, processId, codeObjectId, kernelName, displayName, staticShared, 0, registers, extdata);
    }

    /** A track: a thread's samples ({@code threadId} > 0) or a counter series (0). */
    long track(long processId, long threadId, long nameId) throws SQLException {
        return track.row(nid, processId, threadId > 0 ? (Object) threadId : null, nameId);
    }

    /**
     * An event; {@code correlationId} 0 is none; null JSON texts take the column default. Set
     * column by column, as {@link #region}: one of each per region, no values array per row.
     */
    long event(long categoryId, long correlationId, String callStack, String lineInfo, String extdata)
            throws SQLException {
        long id = event.begin();
        event.setLong(2, categoryId);
        event.setNullableLong(3, correlationId, correlationId != 0);
        event.setString(4, callStack == null ? "{}" : callStack);
        event.setString(5, lineInfo == null ? "{}" : lineInfo);
        event.setString(6, extdata == null ? "{}" : extdata);
        event.add();
        return id;
    }

    long arg(long eventId, int position, String type, String name, String value) throws SQLException {
        return arg.row(eventId, position, type, name, value);
    }

    long pmcEvent(long eventId, long pmcId, double value) throws SQLException {
        return pmcEvent.row(eventId, pmcId, value);
    }

    long region(long processId, long threadId, long start, long end, long nameId, long eventId) throws SQLException {
        long id = region.begin();
        region.setLong(2, nid);
        region.setLong(3, processId);
        region.setLong(4, threadId);
        region.setLong(5, start);
        region.setLong(6, end);
        region.setLong(7, nameId);
        region.setLong(8, eventId);
        region.add();
        return id;
    }

    long sample(long trackId, long timestamp, long eventId) throws SQLException {
        return sample.row(trackId, timestamp, eventId);
    }

    /** A kernel (or a memset, which rocpd keeps as a dispatch of a fill kernel, as ROCm does). */
    long dispatch(KernelRow k) throws SQLException {
        return dispatch.row(
                nid,
                k.processId(),
                k.threadId(),
                k.agentId(),
                k.kernelId(),
                k.dispatchId(),
                k.queueId(),
                k.streamId(),
                k.start(),
                k.end(),
                0,
                k.groupSegmentSize(),
                k.block().x(),
                k.block().y(),
                k.block().z(),
                k.grid().x(),
                k.grid().y(),
                k.grid().z(),
                k.regionNameId(),
                k.eventId());
    }

    long copy(CopyRow c) throws SQLException {
        return copy.row(
                nid,
                c.processId(),
                c.threadId(),
                c.start(),
                c.end(),
                c.nameId(),
                c.dstAgentId(),
                c.address(),
                c.srcAgentId(),
                c.address(),
                c.size(),
                c.queueId(),
                c.streamId(),
                c.regionNameId(),
                c.eventId());
    }

    long allocation(AllocationRow a) throws SQLException {
        return allocate.row(
                nid,
                a.processId(),
                a.threadId(),
                a.agentId(),
                a.type(),
                a.level(),
                a.time(),
                a.time(),
                a.address(),
                a.size(),
                a.queueId(),
                a.streamId(),
                a.eventId(),
                a.extdata());
    }
}
