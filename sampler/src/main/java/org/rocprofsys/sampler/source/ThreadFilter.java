package org.rocprofsys.sampler.source;

import java.util.ArrayList;
import java.util.List;

/**
 * Which threads a sampler takes, by thread number (0 = main, then creation order: the
 * {@code Thread N} of the outputs), from SAMPLING_TIDS and its per-timer forms: a list of numbers
 * and ranges {@code a-b} separated by commas or spaces; empty means every thread.
 */
public final class ThreadFilter {
    private static final ThreadFilter ALL = new ThreadFilter(List.of());

    private final List<long[]> ranges;

    private ThreadFilter(List<long[]> ranges) {
        this.ranges = ranges;
    }

    public static ThreadFilter all() {
        return ALL;
    }

    /** @throws IllegalArgumentException for anything but numbers and ranges */
    public static ThreadFilter parse(String setting, String text) {
        if (text == null || text.isBlank()) {
            return ALL;
        }
        List<long[]> ranges = new ArrayList<>();
        for (String part : text.trim().split("[,\\s]+")) {
            if (part.isEmpty()) {
                continue;
            }
            try {
                int dash = part.indexOf('-', 1);
                long lo = Long.parseLong(dash < 0 ? part : part.substring(0, dash));
                long hi = dash < 0 ? lo : Long.parseLong(part.substring(dash + 1));
                if (lo < 0 || hi < lo || hi > Integer.MAX_VALUE) {
                    throw new NumberFormatException();
                }
                ranges.add(new long[] {lo, hi});
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        setting + ": '" + part + "' is not a thread number or range (e.g. 0,2-4)");
            }
        }
        return ranges.isEmpty() ? ALL : new ThreadFilter(List.copyOf(ranges));
    }

    public boolean isAll() {
        return ranges.isEmpty();
    }

    public boolean selects(int seq) {
        if (ranges.isEmpty()) {
            return true;
        }
        for (long[] r : ranges) {
            if (seq >= r[0] && seq <= r[1]) {
                return true;
            }
        }
        return false;
    }

    /** The agent's form (rocprofsys_wire.h): {@code *}, or {@code 0,2-4}. */
    public String agentSpec() {
        if (ranges.isEmpty()) {
            return "*";
        }
        StringBuilder b = new StringBuilder();
        for (long[] r : ranges) {
            if (!b.isEmpty()) {
                b.append(',');
            }
            b.append(r[0]);
            if (r[1] != r[0]) {
                b.append('-').append(r[1]);
            }
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return agentSpec();
    }
}
