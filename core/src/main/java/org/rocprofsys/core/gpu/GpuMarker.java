package org.rocprofsys.core.gpu;

/**
 * A marker of the program's own (NVTX, roctx): a range ({@code beginNs} to {@code endNs}) or an
 * instant mark ({@code endNs == beginNs}, {@code range} false).
 *
 * @param tid               the thread that opened it
 * @param domain            the marker domain ("" for the default one)
 * @param depth             nesting level among the thread's pushed ranges (0 outermost); -1 for
 *                          start/end ranges, which may cross threads and do not nest
 * @param closedByProfiler  still open when its process ended: the profiler closed it then
 * @param api               the vendor's marker domain (NVTX), whose category the marker takes
 */
public record GpuMarker(
        int pid,
        int tid,
        String domain,
        String message,
        long beginNs,
        long endNs,
        boolean range,
        int depth,
        boolean closedByProfiler,
        GpuDomain api)
        implements GpuInterval {}
