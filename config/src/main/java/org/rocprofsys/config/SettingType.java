package org.rocprofsys.config;

import java.util.Locale;
import java.util.Set;

/** The value types of settings, named as rocprof-sys-avail shows them in its DATA TYPE column. */
public enum SettingType {
    BOOL("bool"),
    INT("int"),
    INT64("int64_t"),
    UINT16("uint16_t"),
    UINT64("uint64_t"),
    SIZE_T("size_t"),
    DOUBLE("double"),
    STRING("string");

    private static final Set<String> TRUE_WORDS = Set.of("on", "true", "yes", "y", "t", "1", "enable", "enabled");
    private static final Set<String> FALSE_WORDS = Set.of("off", "false", "no", "n", "f", "0", "disable", "disabled");

    private final String displayName;

    SettingType(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    public static SettingType fromDisplayName(String name) {
        for (SettingType t : values()) {
            if (t.displayName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown setting type '" + name + "'");
    }

    /**
     * Checks a raw value and returns it in canonical form (booleans become {@code true}/{@code false},
     * numbers keep the user's spelling), or throws with what is allowed.
     */
    public String normalize(String raw) throws IllegalArgumentException {
        String v = raw.strip();
        return switch (this) {
            case BOOL -> Boolean.toString(parseBool(v));
            case STRING -> raw;
            case DOUBLE -> {
                try {
                    Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("a floating-point number is required");
                }
                yield v;
            }
            case INT, INT64 -> {
                parseInteger(
                        v,
                        this == INT ? Integer.MIN_VALUE : Long.MIN_VALUE,
                        this == INT ? Integer.MAX_VALUE : Long.MAX_VALUE);
                yield v;
            }
            case UINT16 -> {
                parseInteger(v, 0, 65535);
                yield v;
            }
            case UINT64, SIZE_T -> {
                if (!v.matches("\\+?[0-9]+")) {
                    throw new IllegalArgumentException("a non-negative integer is required");
                }
                yield v;
            }
        };
    }

    public static boolean parseBool(String v) {
        String s = v.strip().toLowerCase(Locale.ROOT);
        if (TRUE_WORDS.contains(s)) {
            return true;
        }
        if (FALSE_WORDS.contains(s)) {
            return false;
        }
        throw new IllegalArgumentException("a boolean is required (on/off, true/false, yes/no, 1/0)");
    }

    private static void parseInteger(String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an integer is required");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("an integer in [" + min + ", " + max + "] is required");
        }
    }
}
