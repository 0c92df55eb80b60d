package org.rocprofsys.rocprofv3.trace;

import java.util.List;

/**
 * One row of a per-event file: its values in the file's column order, and what the stats and the
 * summary read of it (the row's name there and its duration).
 *
 * @param event the event the row shows
 * @param pid the process the event belongs to (rocprofv3 writes one set of files per process)
 */
public record TraceRow(
        org.rocprofsys.core.gpu.GpuEvent event,
        TraceFile file,
        int pid,
        String statsName,
        long beginNs,
        long endNs,
        List<Object> values) {
    public TraceRow {
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }

    /** The value under {@code column}. */
    public Object value(String column) {
        return values.get(file.columns.indexOf(column));
    }

    public long number(String column) {
        return ((Number) value(column)).longValue();
    }

    public long durationNs() {
        return Math.max(0, endNs - beginNs);
    }
}
