package org.rocprofsys.core.gpu;

import java.util.Locale;

/**
 * Why the driver migrated pages (KFD's {@code KFD_MIGRATE_TRIGGER_*}, CUPTI's migration causes),
 * with the names the unified-memory report uses.
 */
public enum MigrationTrigger {
    GPU_PAGE_FAULT("GPU page fault"),
    CPU_PAGE_FAULT("CPU page fault"),
    PREFETCH("Prefetch"),
    TTM_EVICTION("TTM eviction"),
    UNKNOWN("Unknown");

    private final String title;

    MigrationTrigger(String title) {
        this.title = title;
    }

    /** The line name under {@code Migration Triggers:} in {@code unified_memory.txt}. */
    public String title() {
        return title;
    }

    /** The key under {@code migration_triggers} in {@code unified_memory.json}: the constant's name in lower case. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
