package org.rocprofsys.config.proc;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A {@code Key: value} file of /proc: {@code /proc/<pid>/status}, {@code /proc/<pid>/io},
 * {@code /proc/meminfo}. Values keep their text; {@link #number} reads the leading number (the
 * unit, kB where there is one, is left to the caller).
 */
public record StatusFields(Map<String, String> fields) {
    public StatusFields {
        fields = Map.copyOf(fields);
    }

    public static StatusFields parse(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.putIfAbsent(
                        line.substring(0, colon).strip(),
                        line.substring(colon + 1).strip());
            }
        }
        return new StatusFields(fields);
    }

    /** The number at the start of {@code key}'s value; empty when the key is missing or not a number. */
    public OptionalLong number(String key) {
        String v = fields.get(key);
        if (v == null || v.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(v.split("\\s+")[0]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** {@link #number}, or 0. */
    public long numberOrZero(String key) {
        return number(key).orElse(0);
    }
}
