package org.rocprofsys.core.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rocprofsys.config.Settings;

/**
 * The collection windows of TRACE_DELAY, TRACE_DURATION and TRACE_PERIODS (inventory §8.7): a
 * list of {@code delay:duration[:repeat[:clock]]} specs run in sequence from each process's start.
 * Upstream runs them on a thread inside the target; here they are applied to the recorded
 * timestamps, so the target does no work for them.
 */
public final class TraceWindows {
    /** One spec; duration 0 means "until the end". */
    record Period(long delayNs, long durationNs, int repeat) {}

    private final List<Period> periods;

    TraceWindows(List<Period> periods) {
        this.periods = List.copyOf(periods);
    }

    public static TraceWindows from(Settings settings) {
        List<Period> periods = new ArrayList<>();
        double delay = settings.number("ROCPROFSYS_TRACE_DELAY");
        double duration = settings.number("ROCPROFSYS_TRACE_DURATION");
        if (delay > 0 || duration > 0) {
            periods.add(new Period(seconds(delay), seconds(duration), 1));
        }
        for (String spec : settings.get("ROCPROFSYS_TRACE_PERIODS").split("[ ;\t\n,]+")) {
            if (!spec.isBlank()) {
                periods.add(parse(spec));
            }
        }
        return new TraceWindows(periods);
    }

    static Period parse(String spec) {
        String[] f = spec.strip().split(":");
        if (f.length < 2 || f.length > 4) {
            throw new IllegalArgumentException(
                    "ROCPROFSYS_TRACE_PERIODS: '" + spec + "' is not delay:duration[:repeat[:clock]]");
        }
        try {
            int repeat = f.length > 2 ? Integer.parseInt(f[2]) : 1;
            if (f.length > 3) {
                String clock = f[3].toLowerCase(Locale.ROOT);
                if (!clock.matches(
                        "realtime|monotonic|monotonic_raw|realtime_coarse|monotonic_coarse|boottime"
                                + "|clock_(realtime|monotonic|monotonic_raw|realtime_coarse|monotonic_coarse|boottime)|[014567]")) {
                    throw new IllegalArgumentException("ROCPROFSYS_TRACE_PERIODS: clock '" + f[3] + "' in '" + spec
                            + "' is not supported (wall-clock clocks only)");
                }
            }
            return new Period(seconds(Double.parseDouble(f[0])), seconds(Double.parseDouble(f[1])), repeat);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ROCPROFSYS_TRACE_PERIODS: '" + spec + "' has a non-numeric field");
        }
    }

    private static long seconds(double s) {
        return Math.round(s * 1e9);
    }

    public boolean unrestricted() {
        return periods.isEmpty();
    }

    /** Whether collection is on at {@code sinceStartNs} after the process started. */
    public boolean enabledAt(long sinceStartNs) {
        if (periods.isEmpty()) {
            return true;
        }
        long t = 0;
        for (Period p : periods) {
            int cycles = p.repeat() <= 0 ? Integer.MAX_VALUE : p.repeat();
            for (int i = 0; i < cycles; i++) {
                long on = t + p.delayNs();
                if (sinceStartNs < on) {
                    return false;
                }
                if (p.durationNs() <= 0) {
                    return true;
                }
                long off = on + p.durationNs();
                if (sinceStartNs < off) {
                    return true;
                }
                t = off;
                if (p.repeat() <= 0 && p.delayNs() + p.durationNs() > 0) {
                    // infinite repetition: jump straight to the cycle containing the time
                    long cycle = p.delayNs() + p.durationNs();
                    long inCycle = (sinceStartNs - t) % cycle;
                    return inCycle >= p.delayNs();
                }
            }
        }
        return false;
    }
}
