package org.rocprofsys.core.gpu.stats;

import java.util.LongSummaryStatistics;

/**
 * Count, sum, sum of squares, minimum and maximum of durations (ns), as rocprofv3 accumulates
 * them. The variance is the sample variance (n - 1), 0 below two values; the sum of squares is a
 * double so that long durations cannot overflow it.
 */
public final class DurationStats {
    private final LongSummaryStatistics totals = new LongSummaryStatistics();
    private double squares;

    public void add(long durationNs) {
        totals.accept(durationNs);
        squares += (double) durationNs * durationNs;
    }

    public long count() {
        return totals.getCount();
    }

    public long sum() {
        return totals.getSum();
    }

    /** The shortest duration, 0 before any. */
    public long min() {
        return count() == 0 ? 0 : totals.getMin();
    }

    /** The longest duration, 0 before any. */
    public long max() {
        return count() == 0 ? 0 : totals.getMax();
    }

    public double mean() {
        return totals.getAverage();
    }

    public double variance() {
        long count = count();
        if (count < 2) {
            return 0;
        }
        double sum = sum();
        return (squares - sum * sum / count) / (count - 1);
    }

    public double stddev() {
        return Math.sqrt(Math.abs(variance()));
    }
}
