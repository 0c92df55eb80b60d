package org.rocprofsys.core.timemory;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.counters.CpuEvents;

/**
 * The settings the timemory profile writer follows (inventory §2.3), as plain values grouped by
 * concern: what is measured, how the call graph is shaped, which files are written, how the table
 * is laid out, and how timing and memory values are shown.
 *
 * @param components ROCPROFSYS_TIMEMORY_COMPONENTS, parsed (order kept, duplicates dropped)
 * @param counters   the CPU counters papi_array holds (ROCPROFSYS_PAPI_EVENTS, in the order the
 *                   agent records them), empty when papi_array is not selected
 * @param profile    the shape of the call graph
 * @param outputs    which outputs are written
 * @param table      the layout of every component's values and of the text table
 * @param timing     how timing components (wall_clock, cpu_clock) are shown
 * @param memory     how memory components (peak_rss, page_rss) are shown
 */
public record TimemoryOptions(
        List<Component> components,
        List<String> counters,
        Profile profile,
        Outputs outputs,
        Table table,
        UnitFormat timing,
        UnitFormat memory) {

    public TimemoryOptions {
        components = List.copyOf(components);
        counters = List.copyOf(counters);
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(memory, "memory");
    }

    /**
     * The shape of the call graph.
     *
     * @param flat            FLAT_PROFILE: every entry at depth 0, one per name and thread
     * @param timeline        TIMELINE_PROFILE: every call a separate entry
     * @param collapseThreads COLLAPSE_THREADS: merge identical call paths of different threads
     * @param maxDepth        MAX_DEPTH: entries at depth >= this are not recorded (not in flat mode)
     */
    public record Profile(boolean flat, boolean timeline, boolean collapseThreads, int maxDepth) {}

    /**
     * Which outputs are written.
     *
     * @param file FILE_OUTPUT: gates text, JSON and tree files
     * @param text TEXT_OUTPUT: {@code <component>.txt}
     * @param json JSON_OUTPUT: the flat {@code ranks[].graph} part of {@code <component>.json}
     * @param tree TREE_OUTPUT: the hierarchical {@code graph} part of {@code <component>.json}
     * @param cout COUT_OUTPUT: the text table also on standard output
     */
    public record Outputs(boolean file, boolean text, boolean json, boolean tree, boolean cout) {}

    /**
     * The layout every component starts from.
     *
     * @param precision          PRECISION (-1: the component's own, 3)
     * @param width              WIDTH (-1: the component's own, 8): minimum column width
     * @param scientific         SCIENTIFIC
     * @param maxWidth           MAX_WIDTH: longer text cells are cut to MAX_WIDTH-3 characters plus "..."
     * @param separatorFrequency SEPARATOR_FREQ: a separator line every N rows (0: none)
     */
    public record Table(int precision, int width, boolean scientific, int maxWidth, long separatorFrequency) {}

    /**
     * How the values of one category (timing or memory) are shown; -1 keeps the {@link Table}'s.
     *
     * @param precision  TIMING_PRECISION / MEMORY_PRECISION
     * @param width      TIMING_WIDTH / MEMORY_WIDTH
     * @param units      TIMING_UNITS (sec, msec, ...) / MEMORY_UNITS (B, KB, MB, KiB, ...)
     * @param scientific TIMING_SCIENTIFIC / MEMORY_SCIENTIFIC
     */
    public record UnitFormat(int precision, int width, String units, boolean scientific) {
        public UnitFormat {
            Objects.requireNonNull(units, "units");
        }
    }

    /** rocprof-sys's defaults: wall_clock only, tree profile, text + JSON + tree files, sec/MB. */
    public static TimemoryOptions defaults() {
        return new TimemoryOptions(
                List.of(Component.WALL_CLOCK),
                List.of(),
                new Profile(false, false, false, 65535),
                new Outputs(true, true, true, true, false),
                new Table(-1, -1, false, 120, 0),
                new UnitFormat(6, -1, "sec", false),
                new UnitFormat(-1, -1, "MB", false));
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
                CpuEvents.regionCounters(s),
                new Profile(
                        s.bool("ROCPROFSYS_FLAT_PROFILE"),
                        s.bool("ROCPROFSYS_TIMELINE_PROFILE"),
                        s.bool("ROCPROFSYS_COLLAPSE_THREADS"),
                        (int) s.integer("ROCPROFSYS_MAX_DEPTH")),
                new Outputs(
                        s.bool("ROCPROFSYS_FILE_OUTPUT"),
                        s.bool("ROCPROFSYS_TEXT_OUTPUT"),
                        s.bool("ROCPROFSYS_JSON_OUTPUT"),
                        s.bool("ROCPROFSYS_TREE_OUTPUT"),
                        s.bool("ROCPROFSYS_COUT_OUTPUT")),
                new Table(
                        (int) s.integer("ROCPROFSYS_PRECISION"),
                        (int) s.integer("ROCPROFSYS_WIDTH"),
                        s.bool("ROCPROFSYS_SCIENTIFIC"),
                        (int) s.integer("ROCPROFSYS_MAX_WIDTH"),
                        s.integer("ROCPROFSYS_SEPARATOR_FREQ")),
                // the names spelled out: settings are found by their full names (docs/settings-support.md)
                new UnitFormat(
                        (int) s.integer("ROCPROFSYS_TIMING_PRECISION"),
                        (int) s.integer("ROCPROFSYS_TIMING_WIDTH"),
                        s.get("ROCPROFSYS_TIMING_UNITS"),
                        s.bool("ROCPROFSYS_TIMING_SCIENTIFIC")),
                new UnitFormat(
                        (int) s.integer("ROCPROFSYS_MEMORY_PRECISION"),
                        (int) s.integer("ROCPROFSYS_MEMORY_WIDTH"),
                        s.get("ROCPROFSYS_MEMORY_UNITS"),
                        s.bool("ROCPROFSYS_MEMORY_SCIENTIFIC")));
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
        Profile p = new Profile(f, profile.timeline(), profile.collapseThreads(), profile.maxDepth());
        return new TimemoryOptions(components, counters, p, outputs, table, timing, memory);
    }

    /**
     * The timing unit of the sampled percentages (not a TIMING_UNITS choice): their values are
     * folded as (percent x 1 s), so this shows them as percent with the "%" unit.
     */
    static final String PERCENT = "%";

    /** These options with the percent unit for timing components (sampling_percent). */
    TimemoryOptions withPercentUnit() {
        UnitFormat t = new UnitFormat(timing.precision(), timing.width(), PERCENT, timing.scientific());
        return new TimemoryOptions(components, counters, profile, outputs, table, t, memory);
    }

    /** These options with another call-graph shape. */
    public TimemoryOptions withProfile(Profile p) {
        return new TimemoryOptions(components, counters, p, outputs, table, timing, memory);
    }

    /** These options with other outputs. */
    public TimemoryOptions withOutputs(Outputs o) {
        return new TimemoryOptions(components, counters, profile, o, table, timing, memory);
    }

    /** These options with other components (tests, or callers that pick them otherwise). */
    public TimemoryOptions withComponents(List<Component> c) {
        return new TimemoryOptions(c, counters, profile, outputs, table, timing, memory);
    }

    /** These options with other CPU counters for papi_array (tests). */
    public TimemoryOptions withCounters(List<String> names) {
        return new TimemoryOptions(components, names, profile, outputs, table, timing, memory);
    }

    /** Whether any file at all is written (upstream: text, or JSON with the flat or tree layout). */
    boolean writesText() {
        return outputs.file() && outputs.text();
    }

    boolean writesRanks() {
        return outputs.file() && outputs.json();
    }

    boolean writesTree() {
        return outputs.file() && outputs.tree();
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
    record Format(int precision, int width, boolean scientific, long unit, String unitRepr) {
        /** This format with a category's own precision, width and notation where set, in {@code u}. */
        private Format overriddenBy(UnitFormat f, Unit u) {
            return new Format(
                    f.precision() >= 0 ? f.precision() : precision,
                    f.width() >= 0 ? f.width() : width,
                    scientific || f.scientific(),
                    u.value,
                    u.repr);
        }
    }

    /** timemory {@code base_format} and {@code base_units} for {@code c} under these settings. */
    Format format(Component c) {
        Format base = new Format(
                table.precision() >= 0 ? table.precision() : 3,
                table.width() >= 0 ? table.width() : 8,
                table.scientific(),
                1,
                "");
        return switch (c.category()) {
            case TIMING -> base.overriddenBy(timing, timingUnit(timing.units()));
            case MEMORY -> base.overriddenBy(memory, memoryUnit(memory.units()));
            case COUNT -> base;
            case PERCENT -> new Format(base.precision(), base.width(), base.scientific(), 1, "%");
        };
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
