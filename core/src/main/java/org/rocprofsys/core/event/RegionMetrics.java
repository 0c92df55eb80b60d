package org.rocprofsys.core.event;

import java.util.Arrays;

/**
 * Readings the agent takes at a region's begin and end for the selected timemory components and
 * CPU counters. A reading that was not taken is {@link #ABSENT}.
 *
 * @param threadCpuNs   CLOCK_THREAD_CPUTIME_ID of the thread (cpu_clock, thread_cpu_clock)
 * @param rssBytes      current resident set size of the process (page_rss)
 * @param peakRssBytes  peak resident set size of the process (peak_rss)
 * @param usage         the thread's resource usage (virtual memory and getrusage(RUSAGE_THREAD))
 * @param counters      raw values of the run's CPU counters (ROCPROFSYS_PAPI_EVENTS order), empty
 *                      when none were recorded; an element is ABSENT where the thread had none
 */
public record RegionMetrics(
        long threadCpuNs, long rssBytes, long peakRssBytes, ResourceUsage usage, CounterValues counters) {
    public static final long ABSENT = -1;
    public static final RegionMetrics NONE = new RegionMetrics(ABSENT, ABSENT, ABSENT);

    public RegionMetrics(long threadCpuNs, long rssBytes, long peakRssBytes) {
        this(threadCpuNs, rssBytes, peakRssBytes, ResourceUsage.NONE, CounterValues.NONE);
    }

    /**
     * Virtual memory and the thread's getrusage readings (each ABSENT when not taken).
     *
     * @param virtualBytes   process virtual memory size (virtual_memory)
     * @param userNs         user-mode CPU time of the thread (user_mode_time)
     * @param kernelNs       kernel-mode CPU time of the thread (kernel_mode_time)
     */
    public record ResourceUsage(
            long virtualBytes,
            long userNs,
            long kernelNs,
            long majorFaults,
            long minorFaults,
            long voluntarySwitches,
            long prioritySwitches) {
        public static final ResourceUsage NONE =
                new ResourceUsage(ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, ABSENT);
    }

    /** Raw counter values, in the order of the run's counter names. */
    public record CounterValues(long[] values) {
        public static final CounterValues NONE = new CounterValues(new long[0]);

        public int size() {
            return values.length;
        }

        public long get(int i) {
            return i < values.length ? values[i] : ABSENT;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CounterValues c && Arrays.equals(values, c.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return Arrays.toString(values);
        }
    }
}
