package org.rocprofsys.config.avail;

/** How rocprof-sys-avail prints a table. */
public enum TableFormat {
    /** Upstream's {@code |---|}-bordered table with centred headers. */
    TEXT,
    MARKDOWN,
    /** One line per row, every field followed by the separator (as upstream). */
    CSV
}
