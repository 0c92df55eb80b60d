package org.rocprofsys.core.event;

import java.util.List;

/**
 * The innermost open region of a thread closed.
 *
 * @param forced true when the pipeline closed it: its thread or process ended, or the run finished,
 *               with it open
 */
public record RegionEnd(
        long timestampNs,
        int pid,
        int tid,
        Category category,
        List<Annotation> annotations,
        RegionMetrics metrics,
        boolean forced)
        implements SinkEvent {}
