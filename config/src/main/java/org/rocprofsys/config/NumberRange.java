package org.rocprofsys.config;

/**
 * One element of a list setting or option such as {@code 0-3,6}: a number {@code N} (the range
 * {@code N-N}) or a range {@code N-M} with {@code 0 <= N <= M}.
 */
public record NumberRange(long lo, long hi) {
    /**
     * {@code part} as a range whose ends are at most {@code max}; a {@link NumberFormatException}
     * for anything else, which the caller turns into its own message.
     */
    public static NumberRange parse(String part, long max) {
        int dash = part.indexOf('-');
        long lo = Long.parseLong(dash < 0 ? part : part.substring(0, dash));
        long hi = dash < 0 ? lo : Long.parseLong(part.substring(dash + 1));
        if (lo < 0 || hi < lo || hi > max) {
            throw new NumberFormatException();
        }
        return new NumberRange(lo, hi);
    }
}
