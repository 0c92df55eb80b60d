package org.rocprofsys.core.gpu.stats;

/**
 * Count, sum, sum of squares, minimum and maximum of durations (ns), as rocprofv3 accumulates
 * them. The variance is the sample variance (n - 1), 0 below two values; the sum of squares is a
 * double so that long durations cannot overflow it.
 */
public final class DurationStats {
    private long count;
    private long sum;
    private double squares;
    private long min;
    private long max;

    public void add(long durationNs) {
        if (count == 0) {
            min = durationNs;
            max = durationNs;
        } else {
            min = Math.min(min, durationNs);
            max = Math.max(max, durationNs);
        }
        count++;
        sum += durationNs;
        squares += (double) durationNs * durationNs;
    }

    public long count() {
        return count;
    }

    public long sum() {
        return sum;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    public double mean() {
        return count == 0 ? 0 : (double) sum / count;
    }

    public double variance() {
        if (count < 2) {
            return 0;
        }
        return (squares - (double) sum * sum / count) / (count - 1);
    }

    public double stddev() {
        return Math.sqrt(Math.abs(variance()));
    }
}
