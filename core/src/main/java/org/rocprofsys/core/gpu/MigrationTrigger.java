package org.rocprofsys.core.gpu;

/**
 * Why the driver migrated pages (KFD's {@code KFD_MIGRATE_TRIGGER_*}, CUPTI's migration causes),
 * with the names the unified-memory report uses.
 */
public enum MigrationTrigger {
    GPU_PAGE_FAULT("GPU page fault", "gpu_page_fault"),
    CPU_PAGE_FAULT("CPU page fault", "cpu_page_fault"),
    PREFETCH("Prefetch", "prefetch"),
    TTM_EVICTION("TTM eviction", "ttm_eviction"),
    UNKNOWN("Unknown", "unknown");

    private final String title;
    private final String key;

    MigrationTrigger(String title, String key) {
        this.title = title;
        this.key = key;
    }

    /** The line name under {@code Migration Triggers:} in {@code unified_memory.txt}. */
    public String title() {
        return title;
    }

    /** The key under {@code migration_triggers} in {@code unified_memory.json}. */
    public String key() {
        return key;
    }
}
