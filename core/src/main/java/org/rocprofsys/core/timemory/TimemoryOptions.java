package org.rocprofsys.core.timemory;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.rocprofsys.config.Settings;

/**
 * The settings the timemory profile writer follows (inventory §2.3), as plain values.
 *
 * @param components        ROCPROFSYS_TIMEMORY_COMPONENTS, parsed (order kept, duplicates dropped)
 * @param flat              FLAT_PROFILE: every entry at depth 0, one per name and thread
 * @param timeline          TIMELINE_PROFILE: every call a separate entry
 * @param collapseThreads   COLLAPSE_THREADS: merge identical call paths of different threads
 * @param maxDepth          MAX_DEPTH: entries at depth >= this are not recorded (not in flat mode)
 * @param fileOutput        FILE_OUTPUT: gates text, JSON and tree files
 * @param textOutput        TEXT_OUTPUT: {@code <component>.txt}
 * @param jsonOutput        JSON_OUTPUT: the flat {@code ranks[].graph} part of {@code <component>.json}
 * @param treeOutput        TREE_OUTPUT: the hierarchical {@code graph} part of {@code <component>.json}
 * @param coutOutput        COUT_OUTPUT: the text table also on standard output
 * @param precision         PRECISION (-1: the component's own, 3)
 * @param width             WIDTH (-1: the component's own, 8): minimum column width
 * @param scientific        SCIENTIFIC
 * @param maxWidth          MAX_WIDTH: longer text cells are cut to MAX_WIDTH-3 characters plus "..."
 * @param separatorFrequency SEPARATOR_FREQ: a separator line every N rows (0: none)
 * @param timingPrecision   TIMING_PRECISION (wall_clock, cpu_clock)
 * @param timingWidth       TIMING_WIDTH
 * @param timingUnits       TIMING_UNITS (sec, msec, usec, nsec, ...)
 * @param timingScientific  TIMING_SCIENTIFIC
 * @param memoryPrecision   MEMORY_PRECISION (peak_rss, page_rss)
 * @param memoryWidth       MEMORY_WIDTH
 * @param memoryUnits       MEMORY_UNITS (B, KB, MB, GB, KiB, MiB, ...)
 * @param memoryScientific  MEMORY_SCIENTIFIC
 */
public record TimemoryOptions(
        List<Component> components,
        boolean flat,
        boolean timeline,
        boolean collapseThreads,
        int maxDepth,
        boolean fileOutput,
        boolean textOutput,
        boolean jsonOutput,
        boolean treeOutput,
        boolean coutOutput,
        int precision,
        int width,
        boolean scientific,
        int maxWidth,
        long separatorFrequency,
        int timingPrecision,
        int timingWidth,
        String timingUnits,
        boolean timingScientific,
        int memoryPrecision,
        int memoryWidth,
        String memoryUnits,
        boolean memoryScientific) {

    public TimemoryOptions {
        components = List.copyOf(components);
        Objects.requireNonNull(timingUnits, "timingUnits");
        Objects.requireNonNull(memoryUnits, "memoryUnits");
    }

    /** rocprof-sys's defaults: wall_clock only, tree profile, text + JSON + tree files, sec/MB. */
    public static TimemoryOptions defaults() {
        return new TimemoryOptions(
                List.of(Component.WALL_CLOCK),
                false,
                false,
                false,
                65535,
                true,
                true,
                true,
                true,
                false,
                -1,
                -1,
                false,
                120,
                0,
                6,
                -1,
                "sec",
                false,
                -1,
                -1,
                "MB",
                false);
    }

    /**
     * Reads the options from resolved settings.
     *
     * @throws IllegalArgumentException when ROCPROFSYS_TIMEMORY_COMPONENTS names an unknown
     *                                  component ({@link #validateComponents} gives the text)
     */
    public static TimemoryOptions from(Settings s) {
        return new TimemoryOptions(
                Component.parse(s.get("ROCPROFSYS_TIMEMORY_COMPONENTS")),
                s.bool("ROCPROFSYS_FLAT_PROFILE"),
                s.bool("ROCPROFSYS_TIMELINE_PROFILE"),
                s.bool("ROCPROFSYS_COLLAPSE_THREADS"),
                (int) s.integer("ROCPROFSYS_MAX_DEPTH"),
                s.bool("ROCPROFSYS_FILE_OUTPUT"),
                s.bool("ROCPROFSYS_TEXT_OUTPUT"),
                s.bool("ROCPROFSYS_JSON_OUTPUT"),
                s.bool("ROCPROFSYS_TREE_OUTPUT"),
                s.bool("ROCPROFSYS_COUT_OUTPUT"),
                (int) s.integer("ROCPROFSYS_PRECISION"),
                (int) s.integer("ROCPROFSYS_WIDTH"),
                s.bool("ROCPROFSYS_SCIENTIFIC"),
                (int) s.integer("ROCPROFSYS_MAX_WIDTH"),
                s.integer("ROCPROFSYS_SEPARATOR_FREQ"),
                (int) s.integer("ROCPROFSYS_TIMING_PRECISION"),
                (int) s.integer("ROCPROFSYS_TIMING_WIDTH"),
                s.get("ROCPROFSYS_TIMING_UNITS"),
                s.bool("ROCPROFSYS_TIMING_SCIENTIFIC"),
                (int) s.integer("ROCPROFSYS_MEMORY_PRECISION"),
                (int) s.integer("ROCPROFSYS_MEMORY_WIDTH"),
                s.get("ROCPROFSYS_MEMORY_UNITS"),
                s.bool("ROCPROFSYS_MEMORY_SCIENTIFIC"));
    }

    /**
     * The problem with a ROCPROFSYS_TIMEMORY_COMPONENTS value, for the caller to report (e.g.
     * {@code Unknown component: 'foo'. Valid choices are: [...]}), or empty when it is valid.
     */
    public static Optional<String> validateComponents(String spec) {
        return Component.validate(spec);
    }

    /** These options with FLAT_PROFILE set to {@code f} (the flat sampled percentages). */
    public TimemoryOptions withFlat(boolean f) {
        return new TimemoryOptions(
                components,
                f,
                timeline,
                collapseThreads,
                maxDepth,
                fileOutput,
                textOutput,
                jsonOutput,
                treeOutput,
                coutOutput,
                precision,
                width,
                scientific,
                maxWidth,
                separatorFrequency,
                timingPrecision,
                timingWidth,
                timingUnits,
                timingScientific,
                memoryPrecision,
                memoryWidth,
                memoryUnits,
                memoryScientific);
    }

    /**
     * The timing unit of the sampled percentages (not a TIMING_UNITS choice): their values are
     * folded as (percent x 1 s), so this shows them as percent with the "%" unit.
     */
    static final String PERCENT = "%";

    /** These options with the percent unit for timing components (sampling_percent). */
    TimemoryOptions withPercentUnit() {
        return new TimemoryOptions(
                components,
                flat,
                timeline,
                collapseThreads,
                maxDepth,
                fileOutput,
                textOutput,
                jsonOutput,
                treeOutput,
                coutOutput,
                precision,
                width,
                scientific,
                maxWidth,
                separatorFrequency,
                timingPrecision,
                timingWidth,
                PERCENT,
                timingScientific,
                memoryPrecision,
                memoryWidth,
                memoryUnits,
                memoryScientific);
    }

    /** These options with other components (tests, or callers that pick them otherwise). */
    public TimemoryOptions withComponents(List<Component> c) {
        return new TimemoryOptions(
                c,
                flat,
                timeline,
                collapseThreads,
                maxDepth,
                fileOutput,
                textOutput,
                jsonOutput,
                treeOutput,
                coutOutput,
                precision,
                width,
                scientific,
                maxWidth,
                separatorFrequency,
                timingPrecision,
                timingWidth,
                timingUnits,
                timingScientific,
                memoryPrecision,
                memoryWidth,
                memoryUnits,
                memoryScientific);
    }

    /** Whether any file at all is written (upstream: text, or JSON with the flat or tree layout). */
    boolean writesText() {
        return fileOutput && textOutput;
    }

    boolean writesRanks() {
        return fileOutput && jsonOutput;
    }

    boolean writesTree() {
        return fileOutput && treeOutput;
    }

    /**
     * How a component's values are shown.
     *
     * @param precision  digits after the point in the text table
     * @param width      minimum width of every column of the table
     * @param scientific scientific instead of fixed notation
     * @param unit       raw units per display unit (ns per sec, bytes per MB; 1 for counts)
     * @param unitRepr   the display unit ("sec", "MB"; "" for counts)
     */
    record Format(int precision, int width, boolean scientific, long unit, String unitRepr) {}

    /** timemory {@code base_format} and {@code base_units} for {@code c} under these settings. */
    Format format(Component c) {
        int p = 3;
        int w = 8;
        if (precision >= 0) {
            p = precision;
        }
        if (width >= 0) {
            w = width;
        }
        boolean sci = scientific;
        long unit = 1;
        String repr = "";
        switch (c.category()) {
            case TIMING -> {
                if (timingPrecision >= 0) {
                    p = timingPrecision;
                }
                if (timingWidth >= 0) {
                    w = timingWidth;
                }
                sci |= timingScientific;
                Unit u = timingUnit(timingUnits);
                unit = u.value;
                repr = u.repr;
            }
            case MEMORY -> {
                if (memoryPrecision >= 0) {
                    p = memoryPrecision;
                }
                if (memoryWidth >= 0) {
                    w = memoryWidth;
                }
                sci |= memoryScientific;
                Unit u = memoryUnit(memoryUnits);
                unit = u.value;
                repr = u.repr;
            }
            case COUNT -> {}
        }
        return new Format(p, w, sci, unit, repr);
    }

    private record Unit(String repr, long value) {}

    /**
     * timemory {@code units::get_timing_unit}: "min" and "hr" are accepted but their display name
     * is "UNK" ({@code time_repr} knows only nsec..sec); anything unknown falls back to sec.
     */
    private static Unit timingUnit(String name) {
        String u = name.strip().toLowerCase(Locale.ROOT);
        if (u.isEmpty()) {
            return new Unit("sec", 1_000_000_000L);
        }
        if (u.equals(PERCENT)) {
            return new Unit("%", 1_000_000_000L);
        }
        record T(String name, Set<String> aliases, long value, String repr) {}
        List<T> table = List.of(
                new T("nsec", Set.of("ns", "nanosecond", "nanoseconds"), 1L, "nsec"),
                new T("usec", Set.of("us", "microsecond", "microseconds"), 1_000L, "usec"),
                new T("msec", Set.of("ms", "millisecond", "milliseconds"), 1_000_000L, "msec"),
                new T("csec", Set.of("cs", "centisecond", "centiseconds"), 10_000_000L, "csec"),
                new T("dsec", Set.of("ds", "decisecond", "deciseconds"), 100_000_000L, "dsec"),
                new T("sec", Set.of("s", "second", "seconds"), 1_000_000_000L, "sec"),
                new T("min", Set.of("minute", "minutes"), 60_000_000_000L, "UNK"),
                new T("hr", Set.of("hr", "hour", "hours"), 3_600_000_000_000L, "UNK"));
        for (T t : table) {
            if (u.equals(t.name) || t.aliases.contains(u)) {
                return new Unit(t.repr, t.value);
            }
        }
        return new Unit("sec", 1_000_000_000L);
    }

    /**
     * timemory {@code units::get_memory_unit}: case-insensitive; "byte"/"b" keep the long name
     * "byte" as display unit; anything unknown falls back to MB.
     */
    private static Unit memoryUnit(String name) {
        String u = name.strip().toLowerCase(Locale.ROOT);
        if (u.isEmpty()) {
            return new Unit("MB", 1_000_000L);
        }
        String[][] table = {
            {"byte", "b", "byte", "1"},
            {"kilobyte", "kb", "KB", "1000"},
            {"megabyte", "mb", "MB", "1000000"},
            {"gigabyte", "gb", "GB", "1000000000"},
            {"terabyte", "tb", "TB", "1000000000000"},
            {"petabyte", "pb", "PB", "1000000000000000"},
            {"kibibyte", "kib", "KiB", "1024"},
            {"mebibyte", "mib", "MiB", "1048576"},
            {"gibibyte", "gib", "GiB", "1073741824"},
            {"tebibyte", "tib", "TiB", "1099511627776"},
            {"pebibyte", "pib", "PiB", "1125899906842624"},
        };
        for (String[] t : table) {
            if (u.equals(t[0]) || u.equals(t[1])) {
                return new Unit(t[2], Long.parseLong(t[3]));
            }
        }
        return new Unit("MB", 1_000_000L);
    }
}
