package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.rocprofsys.core.calltree.Measure;
import org.rocprofsys.core.event.RegionMetrics;

/**
 * The timemory components the profile writer supports, with the facts their outputs show
 * (timemory {@code components/timing}, {@code components/rusage}, {@code components/trip_count}:
 * {@code label()}, {@code description()}, the {@code TIMEMORY_PROPERTY_SPECIALIZATION} ids, the
 * {@code TIMEMORY_NATIVE_COMPONENT} enum value, the unit category and the {@code report_*} and
 * {@code base_has_accum} traits).
 *
 * <p>Per-call values, as timemory's {@code start()}/{@code stop()} define them:
 * <ul>
 * <li>{@code wall_clock}: end - begin of CLOCK_MONOTONIC, ns;</li>
 * <li>{@code cpu_clock}: the change of the thread's CPU time (timemory reads user+system time of
 * the process through {@code times()}; the agent reads CLOCK_THREAD_CPUTIME_ID), ns;</li>
 * <li>{@code peak_rss}: the change of the process's peak RSS (high-water mark) during the region,
 * bytes;</li>
 * <li>{@code page_rss}: the change of the process's current RSS during the region (end reading
 * minus begin reading, so it can be negative), bytes;</li>
 * <li>{@code trip_count}: 1 per call.</li>
 * </ul>
 */
public enum Component {
    WALL_CLOCK(
            "wall_clock",
            "Real-clock timer (i.e. wall-clock timer)",
            78,
            "WALL_CLOCK",
            Category.TIMING,
            true,
            List.of("real_clock", "virtual_clock")),
    CPU_CLOCK(
            "cpu_clock",
            "Total CPU time spent in both user- and kernel-mode",
            4,
            "CPU_CLOCK",
            Category.TIMING,
            true,
            List.of()),
    PEAK_RSS(
            "peak_rss",
            "Measures changes in the high-water mark for the amount of memory allocated in RAM. "
                    + "May fluctuate if swap is enabled",
            47,
            "PEAK_RSS",
            Category.MEMORY,
            true,
            List.of("memory_hwm")),
    PAGE_RSS(
            "page_rss",
            "Amount of memory allocated in pages of memory. Unlike peak_rss, value will fluctuate "
                    + "as memory is freed/allocated",
            44,
            "PAGE_RSS",
            Category.MEMORY,
            true,
            List.of()),
    TRIP_COUNT("trip_count", "Counts number of invocations", 61, "TRIP_COUNT", Category.COUNT, false, List.of()),
    THREAD_CPU_CLOCK(
            "thread_cpu_clock",
            "CPU-clock timer for the calling thread",
            58,
            "THREAD_CPU_CLOCK",
            Category.TIMING,
            true,
            List.of("cpu_thread_clock")),
    VIRTUAL_MEMORY(
            "virtual_memory",
            "Records the change in virtual memory",
            73,
            "VIRTUAL_MEMORY",
            Category.MEMORY,
            true,
            List.of()),
    USER_MODE_TIME(
            "user_mode_time",
            "CPU time spent executing in user mode (via rusage)",
            63,
            "USER_MODE_TIME",
            Category.TIMING,
            true,
            List.of()),
    KERNEL_MODE_TIME(
            "kernel_mode_time",
            "CPU time spent executing in kernel mode (via rusage)",
            30,
            "KERNEL_MODE_TIME",
            Category.TIMING,
            true,
            List.of()),
    NUM_MAJOR_PAGE_FAULTS(
            "num_major_page_faults",
            "Number of page faults serviced that required I/O activity",
            40,
            "NUM_MAJOR_PAGE_FAULTS",
            Category.COUNT,
            true,
            List.of("major_page_faults")),
    NUM_MINOR_PAGE_FAULTS(
            "num_minor_page_faults",
            "Number of page faults serviced without any I/O activity via 'reclaiming' a page frame from the "
                    + "list of pages awaiting reallocation",
            41,
            "NUM_MINOR_PAGE_FAULTS",
            Category.COUNT,
            true,
            List.of("minor_page_faults")),
    VOLUNTARY_CONTEXT_SWITCH(
            "voluntary_context_switch",
            "Number of context switches due to a process voluntarily giving up the processor before its time "
                    + "slice was completed",
            74,
            "VOLUNTARY_CONTEXT_SWITCH",
            Category.COUNT,
            true,
            List.of("vol_ctx_switch")),
    PRIORITY_CONTEXT_SWITCH(
            "priority_context_switch",
            "Number of context switch due to higher priority process becoming runnable or because the current "
                    + "process exceeded its time slice",
            50,
            "PRIORITY_CONTEXT_SWITCH",
            Category.COUNT,
            true,
            List.of("prio_ctx_switch")),
    // The utilisations hold a pair (CPU time, wall time) and show 100 x CPU / wall; papi_array
    // holds one value per PAPI event (ValueSlots gives each its own slots in the call graph).
    CPU_UTIL(
            "cpu_util",
            "Percentage of CPU-clock time divided by wall-clock time",
            8,
            "CPU_UTIL",
            Category.PERCENT,
            true,
            List.of("cpu_utilization")),
    THREAD_CPU_UTIL(
            "thread_cpu_util",
            "Percentage of CPU-clock time divided by wall-clock time for calling thread",
            59,
            "THREAD_CPU_UTIL",
            Category.PERCENT,
            true,
            List.of("thread_cpu_utilization", "cpu_thread_util", "cpu_thread_utilization")),
    PAPI_ARRAY(
            "papi_array",
            "Fixed-size array of PAPI HW counters",
            45,
            "PAPI_ARRAY",
            Category.COUNT,
            true,
            List.of("papi_array_t"));

    /** Which unit and format settings a component follows. */
    enum Category {
        TIMING,
        MEMORY,
        COUNT,
        /** timemory's uses_percent_units: unit 1, shown as "%". */
        PERCENT
    }

    private final String label;
    private final String description;
    private final int enumValue;
    private final String enumString;
    private final Category category;
    private final boolean hasAccum;
    private final Set<String> ids;
    private final Pattern matcher;

    Component(
            String label,
            String description,
            int enumValue,
            String enumString,
            Category category,
            boolean hasAccum,
            List<String> aliases) {
        this.label = label;
        this.description = description;
        this.enumValue = enumValue;
        this.enumString = enumString;
        this.category = category;
        this.hasAccum = hasAccum;
        TreeSet<String> all = new TreeSet<>(aliases);
        all.add(label);
        this.ids = java.util.Collections.unmodifiableSortedSet(all);
        StringBuilder alt = new StringBuilder(Pattern.quote(enumString));
        for (String id : all) {
            alt.append('|').append(Pattern.quote(id));
        }
        this.matcher = Pattern.compile("\\b(" + alt + ")\\b", Pattern.CASE_INSENSITIVE);
    }

    /** The component's label: the file name stem, the METRIC column, the JSON "type". */
    public String label() {
        return label;
    }

    /** The description; its upper-case form is the text table's banner. */
    public String description() {
        return description;
    }

    /** The JSON key under "timemory": the lower-cased enum string (same as the label here). */
    public String identifier() {
        return enumString.toLowerCase(Locale.ROOT);
    }

    int enumValue() {
        return enumValue;
    }

    String enumString() {
        return enumString;
    }

    /** The ids of {@code properties}, sorted as timemory's std::set writes them. */
    Set<String> ids() {
        return ids;
    }

    Category category() {
        return category;
    }

    /** trait::base_has_accum: whether the JSON entry has an "accum" field. */
    boolean hasAccum() {
        return hasAccum;
    }

    /** Whether its value is 100 x (CPU time) / (wall time): cpu_util and thread_cpu_util. */
    public boolean utilisation() {
        return category == Category.PERCENT;
    }

    /**
     * This component's value for one call, from the region's begin and end readings
     * ({@link RegionMetrics#ABSENT} readings count 0), in raw units: ns, bytes, counts; for the
     * utilisations the CPU time in ns, the numerator of their pair (the wall time is the other
     * half, see {@link #percent}). PAPI_ARRAY has one value per counter ({@link #counterDelta}) and
     * gives 0 here.
     */
    public long perCall(long wallNs, RegionMetrics b, RegionMetrics e) {
        return switch (this) {
            case WALL_CLOCK -> wallNs;
            case CPU_CLOCK, THREAD_CPU_CLOCK -> delta(b.threadCpuNs(), e.threadCpuNs());
            case PEAK_RSS -> delta(b.peakRssBytes(), e.peakRssBytes());
            case PAGE_RSS -> delta(b.rssBytes(), e.rssBytes());
            case TRIP_COUNT -> 1;
            case VIRTUAL_MEMORY -> delta(b.usage().virtualBytes(), e.usage().virtualBytes());
            case USER_MODE_TIME -> delta(b.usage().userNs(), e.usage().userNs());
            case KERNEL_MODE_TIME -> delta(b.usage().kernelNs(), e.usage().kernelNs());
            case NUM_MAJOR_PAGE_FAULTS ->
                delta(b.usage().majorFaults(), e.usage().majorFaults());
            case NUM_MINOR_PAGE_FAULTS ->
                delta(b.usage().minorFaults(), e.usage().minorFaults());
            case VOLUNTARY_CONTEXT_SWITCH ->
                delta(b.usage().voluntarySwitches(), e.usage().voluntarySwitches());
            case PRIORITY_CONTEXT_SWITCH ->
                delta(b.usage().prioritySwitches(), e.usage().prioritySwitches());
            // timemory's cpu_util reads the process's user+system time, as its cpu_clock does; here
            // both read the thread's CPU time, the one CPU reading the agent takes
            case CPU_UTIL, THREAD_CPU_UTIL -> delta(b.threadCpuNs(), e.threadCpuNs());
            case PAPI_ARRAY -> 0;
        };
    }

    /** The change of CPU counter {@code k} during a call, 0 when either reading is absent. */
    public static long counterDelta(int k, RegionMetrics b, RegionMetrics e) {
        return delta(b.counters().get(k), e.counters().get(k));
    }

    /** A utilisation's value (timemory's {@code cpu_util::get()}): 100 x cpu / wall, 0 without wall time. */
    public static double percent(long cpuNs, long wallNs) {
        return wallNs > 0 ? 100.0 * (double) cpuNs / (double) wallNs : 0.0;
    }

    /**
     * The component's {@code get()} for slot {@code i} of {@code m}: the accumulated value in
     * display units ({@code unit} raw units each), or for a utilisation 100 x CPU / wall time.
     */
    double value(Measure m, int i, long unit) {
        return utilisation() ? percent(m.raw(i), m.wallNs()) : m.value(i, unit);
    }

    /** end - begin, or 0 when either reading is absent. */
    public static long delta(long begin, long end) {
        return begin == RegionMetrics.ABSENT || end == RegionMetrics.ABSENT ? 0 : end - begin;
    }

    /** trip_count reports neither units, mean, statistics nor % self; the others report all. */
    boolean reportsUnits() {
        return this != TRIP_COUNT && category != Category.COUNT;
    }

    boolean reportsMean() {
        return this != TRIP_COUNT;
    }

    boolean reportsStatistics() {
        return this != TRIP_COUNT;
    }

    boolean reportsSelf() {
        return this != TRIP_COUNT;
    }

    /** Whether the values are integers (trip_count) rather than doubles in display units. */
    boolean integral() {
        return this == TRIP_COUNT;
    }

    /**
     * Whether {@code name} designates this component the way timemory matches runtime names:
     * a case-insensitive whole-word match of the enum string or any id.
     */
    boolean matches(String name) {
        return matcher.matcher(name).find();
    }

    /**
     * Parses a ROCPROFSYS_TIMEMORY_COMPONENTS value (names separated by spaces, commas,
     * semicolons or colons); duplicates are dropped, the first occurrence keeps its place.
     *
     * @throws IllegalArgumentException with {@link #validate}'s text for an unknown name
     */
    public static List<Component> parse(String spec) {
        Optional<String> problem = validate(spec);
        if (problem.isPresent()) {
            throw new IllegalArgumentException(problem.get());
        }
        LinkedHashSet<Component> out = new LinkedHashSet<>();
        for (String name : names(spec)) {
            out.add(find(name).orElseThrow());
        }
        return List.copyOf(out);
    }

    /**
     * The problem with a ROCPROFSYS_TIMEMORY_COMPONENTS value, in timemory's wording
     * ({@code Unknown component: 'x'. Valid choices are: [...]}), or empty when every name is
     * known. Several unknown names give one line each.
     */
    public static Optional<String> validate(String spec) {
        List<String> problems = new ArrayList<>();
        for (String name : names(spec)) {
            if (find(name).isEmpty()) {
                problems.add("Unknown component: '" + name + "'. Valid choices are: " + choices());
            }
        }
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("\n", problems));
    }

    /** The component a runtime name designates. */
    public static Optional<Component> find(String name) {
        for (Component c : values()) {
            if (c.matches(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    private static List<String> names(String spec) {
        List<String> out = new ArrayList<>();
        if (spec == null) {
            return out;
        }
        for (String s : spec.strip().split("[\\s,;:]+")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    private static String choices() {
        List<String> all = new ArrayList<>();
        for (Component c : values()) {
            for (String id : c.ids) {
                all.add("'" + id + "'");
            }
        }
        return "[" + String.join(", ", all) + "]";
    }
}
