package org.rocprofsys.core.wire;

import java.math.BigInteger;
import java.util.function.Supplier;

/**
 * Turns a ring file's record times into CLOCK_MONOTONIC nanoseconds, the time base of every
 * {@link org.rocprofsys.core.event.TraceEvent}. Files of clock kind {@link WireFormat#CLOCK_MONOTONIC_NS}
 * need nothing ({@link #IDENTITY}); files of kind {@link WireFormat#CLOCK_TSC} hold time-stamp
 * counter ticks, converted with the line through the init pair and one later calibration pair
 * (docs/wire-protocol.md):
 *
 * <pre>ns = M0 + floor((t - T0) * (M - M0) / (T - T0))</pre>
 *
 * computed in 128-bit fixed point with a multiplier rounded up, so exact whenever the slope is a
 * dyadic fraction and otherwise at most 1 ns high over spans of days.
 */
public final class ClockConversion {
    /** A reading of the record clock ({@code ticks}) and of CLOCK_MONOTONIC, taken back to back. */
    public record Pair(long ticks, long monotonicNs) {}

    /** Record times are CLOCK_MONOTONIC ns already. */
    public static final ClockConversion IDENTITY = new ClockConversion(0, 0, 1, 0, true);

    private final long ticks0;
    private final long ns0;
    private final long mult;
    private final int shift;
    private final boolean identity;

    private ClockConversion(long ticks0, long ns0, long mult, int shift, boolean identity) {
        this.ticks0 = ticks0;
        this.ns0 = ns0;
        this.mult = mult;
        this.shift = shift;
        this.identity = identity;
    }

    /** The line through two pairs; {@code to} must be later than {@code from} on both clocks. */
    public static ClockConversion through(Pair from, Pair to) {
        long dT = to.ticks() - from.ticks();
        long dM = to.monotonicNs() - from.monotonicNs();
        if (dT <= 0 || dM < 0) {
            throw new IllegalArgumentException("calibration pairs out of order: " + from + ", " + to);
        }
        // mult / 2^shift = dM / dT rounded up, mult below 2^62 with the largest shift (at most 62)
        BigInteger num = BigInteger.valueOf(dM);
        BigInteger den = BigInteger.valueOf(dT);
        for (int shift = 62; shift >= 0; shift--) {
            BigInteger m =
                    num.shiftLeft(shift).add(den).subtract(BigInteger.ONE).divide(den);
            if (m.bitLength() <= 62) {
                return new ClockConversion(from.ticks(), from.monotonicNs(), m.longValueExact(), shift, false);
            }
        }
        throw new IllegalArgumentException("calibration slope out of range: " + from + ", " + to);
    }

    /** One nanosecond per tick from {@code at}: only while no second pair is known (init time is exact). */
    public static ClockConversion offset(Pair at) {
        return new ClockConversion(at.ticks(), at.monotonicNs(), 1, 0, false);
    }

    /**
     * The conversion of a TSC file: the line through {@code init} and the best later pair.
     * <ol>
     * <li>The agent's pair: the exit pair once the process has exited ({@code exit} non-null), else
     * the latest pair. It is used when it lies at least {@link WireFormat#CALIBRATION_MIN_SPAN_NS}
     * after the init pair and, for a process that has not exited, when converting records up to now
     * extrapolates the line by no more than its own span ({@code nowNs - M <= M - M0}): the agent
     * refreshes the latest pair only on wraps and thread starts and ends, so a long quiet run would
     * otherwise stretch a short baseline over hours.</li>
     * <li>Else the collector's own pair ({@code own}, read through the agent library) when it is later,
     * else the agent's pair whatever its span.</li>
     * <li>Else (no later pair at all) one ns per tick from the init pair.</li>
     * </ol>
     *
     * @param exit   the exit pair, only for a process that exited (state EXITED); may be null
     * @param latest the latest pair of the header; may be null
     * @param nowNs  CLOCK_MONOTONIC now
     * @param own    reads a pair now; null when the agent library cannot be loaded
     */
    public static ClockConversion choose(Pair init, Pair exit, Pair latest, long nowNs, Supplier<Pair> own) {
        boolean exited = usable(init, exit);
        Pair agent = exited ? exit : usable(init, latest) ? latest : null;
        if (agent != null) {
            long span = agent.monotonicNs() - init.monotonicNs();
            if (span >= WireFormat.CALIBRATION_MIN_SPAN_NS && (exited || nowNs - agent.monotonicNs() <= span)) {
                return through(init, agent);
            }
        }
        Pair mine = own == null ? null : own.get();
        if (usable(init, mine) && (agent == null || mine.monotonicNs() > agent.monotonicNs())) {
            return through(init, mine);
        }
        return agent != null ? through(init, agent) : offset(init);
    }

    private static boolean usable(Pair init, Pair p) {
        return p != null && p.ticks() > init.ticks() && p.monotonicNs() > init.monotonicNs();
    }

    /** A record time as CLOCK_MONOTONIC ns. */
    public long toMonotonicNs(long time) {
        if (identity) {
            return time;
        }
        long d = time - ticks0;
        return d >= 0 ? ns0 + scale(d) : ns0 - scale(d == Long.MIN_VALUE ? Long.MAX_VALUE : -d);
    }

    /** floor(d * mult / 2^shift) for d >= 0, through the 128-bit product. */
    private long scale(long d) {
        long lo = d * mult;
        if (shift == 0) {
            return lo;
        }
        long hi = Math.multiplyHigh(d, mult);
        return (hi << (64 - shift)) | (lo >>> shift);
    }

    @Override
    public String toString() {
        return identity
                ? "ClockConversion[identity]"
                : "ClockConversion[ns = " + ns0 + " + (t - " + ticks0 + ") * " + mult + " / 2^" + shift + "]";
    }
}
