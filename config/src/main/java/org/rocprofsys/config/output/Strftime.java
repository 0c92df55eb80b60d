package org.rocprofsys.config.output;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.util.Locale;

/**
 * C {@code strftime} in the "C" locale, enough for {@code ROCPROFSYS_TIME_FORMAT} (default
 * {@code %F_%H.%M}). Names of days and months are English because upstream never sets a locale.
 * A conversion glibc does not know is copied through unchanged, as glibc does.
 */
public final class Strftime {
    private static final DateTimeFormatter ZONE_NAME = DateTimeFormatter.ofPattern("zzz", Locale.ENGLISH);

    private Strftime() {}

    public static String format(String pattern, ZonedDateTime t) {
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i++);
            if (c != '%') {
                out.append(c);
            } else if (i >= pattern.length()) {
                out.append('%');
            } else {
                char conv = pattern.charAt(i++);
                if (!convert(conv, t, out)) {
                    out.append('%').append(conv);
                }
            }
        }
        return out.toString();
    }

    /** Appends one conversion; false when {@code conv} is not a conversion we know. */
    private static boolean convert(char conv, ZonedDateTime t, StringBuilder out) {
        switch (conv) {
            case 'a' -> out.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
            case 'A' -> out.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
            case 'b', 'h' -> out.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
            case 'B' -> out.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
            case 'c' -> out.append(format("%a %b %e %H:%M:%S %Y", t));
            case 'C' -> pad(out, Math.floorDiv(t.getYear(), 100), 2, '0');
            case 'd' -> pad(out, t.getDayOfMonth(), 2, '0');
            case 'D' -> out.append(format("%m/%d/%y", t));
            case 'e' -> pad(out, t.getDayOfMonth(), 2, ' ');
            case 'F' -> out.append(format("%Y-%m-%d", t));
            case 'g' -> pad(out, Math.floorMod(t.get(IsoFields.WEEK_BASED_YEAR), 100), 2, '0');
            case 'G' -> out.append(t.get(IsoFields.WEEK_BASED_YEAR));
            case 'H' -> pad(out, t.getHour(), 2, '0');
            case 'I' -> pad(out, hour12(t), 2, '0');
            case 'j' -> pad(out, t.getDayOfYear(), 3, '0');
            case 'k' -> pad(out, t.getHour(), 2, ' ');
            case 'l' -> pad(out, hour12(t), 2, ' ');
            case 'm' -> pad(out, t.getMonthValue(), 2, '0');
            case 'M' -> pad(out, t.getMinute(), 2, '0');
            case 'n' -> out.append('\n');
            case 'p' -> out.append(t.getHour() < 12 ? "AM" : "PM");
            case 'r' -> out.append(format("%I:%M:%S %p", t));
            case 'R' -> out.append(format("%H:%M", t));
            case 's' -> out.append(t.toEpochSecond());
            case 'S' -> pad(out, t.getSecond(), 2, '0');
            case 't' -> out.append('\t');
            case 'T' -> out.append(format("%H:%M:%S", t));
            case 'u' -> out.append(t.getDayOfWeek().getValue());
            case 'U' -> pad(out, (t.getDayOfYear() - 1 + 7 - sundayBased(t)) / 7, 2, '0');
            case 'V' -> pad(out, t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, '0');
            case 'w' -> out.append(sundayBased(t));
            case 'W' -> pad(out, (t.getDayOfYear() - 1 + 7 - (t.getDayOfWeek().getValue() - 1)) / 7, 2, '0');
            case 'x' -> out.append(format("%m/%d/%y", t));
            case 'X' -> out.append(format("%H:%M:%S", t));
            case 'y' -> pad(out, Math.floorMod(t.getYear(), 100), 2, '0');
            case 'Y' -> out.append(t.getYear());
            case 'z' -> out.append(offset(t.getOffset().getTotalSeconds()));
            case 'Z' -> out.append(ZONE_NAME.format(t));
            case '%' -> out.append('%');
            default -> {
                return false;
            }
        }
        return true;
    }

    private static int hour12(ZonedDateTime t) {
        int h = t.getHour() % 12;
        return h == 0 ? 12 : h;
    }

    /** Day of week with Sunday = 0, as {@code tm_wday}. */
    private static int sundayBased(ZonedDateTime t) {
        return t.getDayOfWeek().getValue() % 7;
    }

    private static String offset(int totalSeconds) {
        int abs = Math.abs(totalSeconds);
        return String.format(Locale.ROOT, "%c%02d%02d", totalSeconds < 0 ? '-' : '+', abs / 3600, abs / 60 % 60);
    }

    private static void pad(StringBuilder out, int value, int width, char fill) {
        String digits = Integer.toString(value);
        out.repeat(fill, Math.max(0, width - digits.length()));
        out.append(digits);
    }
}
