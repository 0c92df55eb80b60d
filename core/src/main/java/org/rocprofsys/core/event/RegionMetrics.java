package org.rocprofsys.core.event;

/**
 * Readings the agent takes at a region's begin and end for the selected timemory components.
 * A reading that was not taken is {@link #ABSENT}.
 *
 * @param threadCpuNs   CLOCK_THREAD_CPUTIME_ID of the thread (cpu_clock)
 * @param rssBytes      current resident set size of the process (page_rss)
 * @param peakRssBytes  peak resident set size of the process (peak_rss)
 */
public record RegionMetrics(long threadCpuNs, long rssBytes, long peakRssBytes) {
    public static final long ABSENT = -1;
    public static final RegionMetrics NONE = new RegionMetrics(ABSENT, ABSENT, ABSENT);
}
