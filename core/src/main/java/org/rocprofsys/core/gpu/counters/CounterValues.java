package org.rocprofsys.core.gpu.counters;

/** Count, sum, sum of squares, minimum and maximum of one counter's values for one kernel. */
final class CounterValues {
    private long count;
    private double sum;
    private double squares;
    private double min;
    private double max;

    void add(double v) {
        if (count == 0) {
            min = v;
            max = v;
        } else {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        count++;
        sum += v;
        squares += v * v;
    }

    long count() {
        return count;
    }

    double sum() {
        return sum;
    }

    double min() {
        return min;
    }

    double max() {
        return max;
    }

    double mean() {
        return count == 0 ? 0 : sum / count;
    }

    /** The sample variance (n - 1), 0 below two values. */
    double variance() {
        return count < 2 ? 0 : (squares - sum * sum / count) / (count - 1);
    }

    /** The square root of the {@link #variance()}'s magnitude (rounding can leave it just below 0). */
    double stddev() {
        return Math.sqrt(Math.abs(variance()));
    }
}
