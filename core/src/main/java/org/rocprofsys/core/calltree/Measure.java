package org.rocprofsys.core.calltree;

/**
 * What one call-tree entry holds for each of its meter's slots ({@link CallMeter}), as timemory's
 * graph node does:
 * the lap count, the accumulated raw value (ns, bytes, or calls; timemory's {@code value} and
 * {@code accum}, which are equal for these components) and the statistics of the per-call values
 * in display units ({@code tim::statistics<double>}: sum, sum of squares, min, max, count).
 */
public final class Measure {
    private long laps;
    /** The calls' wall time, the denominator of the utilisations (timemory's pair.second). */
    private long wallNs;

    private final long[] raw;
    private final double[] sum;
    private final double[] sqr;
    private final double[] min;
    private final double[] max;
    private long count;

    /** @param slots {@link CallMeter#slots()} */
    public Measure(int slots) {
        raw = new long[slots];
        sum = new double[slots];
        sqr = new double[slots];
        min = new double[slots];
        max = new double[slots];
    }

    public Measure copy() {
        Measure m = new Measure(raw.length);
        m.laps = laps;
        m.wallNs = wallNs;
        m.count = count;
        System.arraycopy(raw, 0, m.raw, 0, raw.length);
        System.arraycopy(sum, 0, m.sum, 0, raw.length);
        System.arraycopy(sqr, 0, m.sqr, 0, raw.length);
        System.arraycopy(min, 0, m.min, 0, raw.length);
        System.arraycopy(max, 0, m.max, 0, raw.length);
        return m;
    }

    /**
     * One finished call: {@code values[i]} raw, {@code display[i]} in display units
     * ({@code storage} pop: {@code targ += obj}, then {@code stats += obj.get()}), lasting
     * {@code callWallNs}.
     */
    public void record(long[] values, double[] display, long callWallNs) {
        laps++;
        wallNs += callWallNs;
        boolean first = count == 0;
        for (int i = 0; i < raw.length; i++) {
            raw[i] += values[i];
            addStatistic(i, display[i], first);
        }
        count++;
    }

    /** {@link #record} of an entry with one slot: {@code value} raw, {@code display} in display units. */
    public void recordOne(long value, double display, long callWallNs) {
        laps++;
        wallNs += callWallNs;
        raw[0] += value;
        addStatistic(0, display, count == 0);
        count++;
    }

    /** One call's value {@code d} of slot {@code i} into the statistics (the first call sets them). */
    private void addStatistic(int i, double d, boolean first) {
        if (first) {
            sum[i] = d;
            sqr[i] = d * d;
            min[i] = d;
            max[i] = d;
        } else {
            sum[i] += d;
            sqr[i] += d * d;
            min[i] = cmin(min[i], d);
            max[i] = cmax(max[i], d);
        }
    }

    /** Merging identical entries of different threads (COLLAPSE_THREADS): laps, values and statistics. */
    public void addAll(Measure o) {
        laps += o.laps;
        addValuesAndStats(o);
    }

    /**
     * {@code Tp += Tp} plus {@code statistics += statistics}: what the hierarchical tree does
     * when it merges siblings with equal hashes. The lap count is not summed (timemory's
     * component {@code operator+=} only adds value and accum).
     */
    public void addValuesAndStats(Measure o) {
        wallNs += o.wallNs;
        for (int i = 0; i < raw.length; i++) {
            raw[i] += o.raw[i];
        }
        if (count == 0) {
            System.arraycopy(o.sum, 0, sum, 0, sum.length);
            System.arraycopy(o.sqr, 0, sqr, 0, sqr.length);
            System.arraycopy(o.min, 0, min, 0, min.length);
            System.arraycopy(o.max, 0, max, 0, max.length);
        } else {
            for (int i = 0; i < raw.length; i++) {
                sum[i] += o.sum[i];
                sqr[i] += o.sqr[i];
                min[i] = cmin(min[i], o.min[i]);
                max[i] = cmax(max[i], o.max[i]);
            }
        }
        count += o.count;
    }

    /**
     * The exclusive part of a tree node: {@code Tp -= child} (value and accum) and
     * {@code statistics -= child} (sum and sqr subtracted, min/max widened, count kept; nothing
     * when the count is 0).
     */
    public void subtractChild(Measure o) {
        wallNs -= o.wallNs;
        for (int i = 0; i < raw.length; i++) {
            raw[i] -= o.raw[i];
        }
        if (count > 0) {
            for (int i = 0; i < raw.length; i++) {
                sum[i] -= o.sum[i];
                sqr[i] -= o.sqr[i];
                min[i] = cmin(min[i], o.min[i]);
                max[i] = cmax(max[i], o.max[i]);
            }
        }
    }

    /** Finished calls (timemory's laps). */
    public long laps() {
        return laps;
    }

    /** The calls' wall time in ns, the denominator of the utilisations. */
    public long wallNs() {
        return wallNs;
    }

    /** Calls in the statistics (equal to {@link #laps} unless merged siblings kept their laps). */
    public long count() {
        return count;
    }

    /** Slot {@code i}'s accumulated raw value (ns, bytes, counts). */
    public long raw(int i) {
        return raw[i];
    }

    /** The statistics a measure keeps of each slot's per-call values, in display units. */
    public enum Statistic {
        SUM,
        /** The sum of squares. */
        SQR,
        MIN,
        MAX
    }

    /** Statistic {@code k} of slot {@code i}'s per-call values. */
    public double statistic(Statistic k, int i) {
        return switch (k) {
            case SUM -> sum[i];
            case SQR -> sqr[i];
            case MIN -> min[i];
            case MAX -> max[i];
        };
    }

    /** Slot {@code i}'s accumulated value in display units ({@code unit} raw units each). */
    public double value(int i, long unit) {
        return (double) raw[i] / (double) unit;
    }

    public double mean(int i) {
        return count > 0 ? sum[i] / count : 0.0;
    }

    /** {@code statistics::get_variance}: sample variance, 0 below two samples. */
    public double variance(int i) {
        if (count < 2) {
            return sum[i] - sum[i];
        }
        double s = sum[i] * sum[i];
        s /= count;
        double q = sqr[i] - s;
        q /= (count - 1);
        return q;
    }

    public double stddev(int i) {
        return Math.sqrt(Math.abs(variance(i)));
    }

    /** std::min(a, b): b when b &lt; a, else a. */
    private static double cmin(double a, double b) {
        return b < a ? b : a;
    }

    /** std::max(a, b): b when a &lt; b, else a. */
    private static double cmax(double a, double b) {
        return a < b ? b : a;
    }
}
