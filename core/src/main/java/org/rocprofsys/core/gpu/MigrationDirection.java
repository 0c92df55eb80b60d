package org.rocprofsys.core.gpu;

import java.util.Locale;

/** Where migrated pages went; the unified-memory report names each direction after its constant. */
public enum MigrationDirection {
    HOST_TO_DEVICE,
    DEVICE_TO_HOST,
    DEVICE_TO_DEVICE;

    /** The row name in {@code unified_memory.txt}: {@code Host To Device}, ... */
    public String title() {
        StringBuilder b = new StringBuilder();
        for (String word : key().split("_")) {
            b.append(b.isEmpty() ? "" : " ")
                    .append(Character.toUpperCase(word.charAt(0)))
                    .append(word.substring(1));
        }
        return b.toString();
    }

    /** The key in {@code unified_memory.json}: {@code host_to_device}, ... */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
