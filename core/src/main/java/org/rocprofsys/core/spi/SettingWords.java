package org.rocprofsys.core.spi;

import java.util.Arrays;
import java.util.List;

/** The words of a list setting (a backend's domains, events, ...), as its parser reads them. */
public final class SettingWords {
    private SettingWords() {}

    /** {@code value} trimmed and split at {@code separators} (a regex), without empty words; none for null. */
    public static List<String> of(String value, String separators) {
        if (value == null) {
            return List.of();
        }
        return Arrays.stream(value.trim().split(separators))
                .filter(w -> !w.isEmpty())
                .toList();
    }
}
