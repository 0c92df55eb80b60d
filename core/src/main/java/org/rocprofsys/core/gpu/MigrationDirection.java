package org.rocprofsys.core.gpu;

/** Where migrated pages went, with the names the unified-memory report gives each direction. */
public enum MigrationDirection {
    HOST_TO_DEVICE("Host To Device", "host_to_device"),
    DEVICE_TO_HOST("Device To Host", "device_to_host"),
    DEVICE_TO_DEVICE("Device To Device", "device_to_device");

    private final String title;
    private final String key;

    MigrationDirection(String title, String key) {
        this.title = title;
        this.key = key;
    }

    /** The row name in {@code unified_memory.txt}. */
    public String title() {
        return title;
    }

    /** The key in {@code unified_memory.json}. */
    public String key() {
        return key;
    }
}
