package org.rocprofsys.core.calltree;

import java.util.BitSet;
import org.rocprofsys.core.event.RegionMetrics;

/**
 * How a finished call becomes the values of its {@link CallNode}'s {@link Measure}: how many slots
 * an entry has and what each holds. A meter of wall time alone ({@link #wallClock}) is the one the
 * tree applies itself, without calling {@link #measure}: nearly every call of a traced run.
 */
public interface CallMeter {
    /** Slots per entry: the length of a {@link Measure}'s arrays. */
    int slots();

    /**
     * The display unit (raw ns per display unit) when the only slot is the call's wall time in ns;
     * 0 when the meter measures more, and the tree calls {@link #measure} for every call.
     */
    long wallClockUnit();

    /**
     * One call's values: {@code values[slot]} raw, {@code display[slot]} in display units.
     *
     * @param countersRead the process's CPU counters read so far: the meter sets bit k when the
     *                     call's end carried a reading of counter k
     */
    void measure(
            long wallNs, RegionMetrics begin, RegionMetrics end, long[] values, double[] display, BitSet countersRead);

    /** Wall time alone, in ns per display unit {@code unit} (1: nanoseconds). */
    static CallMeter wallClock(long unit) {
        if (unit < 1) {
            throw new IllegalArgumentException("unit must be >= 1: " + unit);
        }
        return new CallMeter() {
            @Override
            public int slots() {
                return 1;
            }

            @Override
            public long wallClockUnit() {
                return unit;
            }

            @Override
            public void measure(
                    long wallNs,
                    RegionMetrics begin,
                    RegionMetrics end,
                    long[] values,
                    double[] display,
                    BitSet countersRead) {
                values[0] = wallNs;
                display[0] = (double) wallNs / (double) unit;
            }
        };
    }
}
