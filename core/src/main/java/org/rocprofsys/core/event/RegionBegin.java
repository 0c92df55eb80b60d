package org.rocprofsys.core.event;

import java.util.List;

/**
 * A region (user-API region, instrumented function, the main region named after the executable)
 * opened on a thread. Regions nest strictly per thread.
 *
 * @param metrics     component readings taken at the begin, when the run asked for them
 */
public record RegionBegin(
        long timestampNs,
        int pid,
        int tid,
        String name,
        Category category,
        List<Annotation> annotations,
        RegionMetrics metrics)
        implements SinkEvent {}
