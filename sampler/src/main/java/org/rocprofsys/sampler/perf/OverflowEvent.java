package org.rocprofsys.sampler.perf;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The events SAMPLING_OVERFLOW_EVENT may name: the generic perf events by their {@code
 * PERF_COUNT_*} names (as upstream takes them), also without the prefix and in perf's own
 * spelling ({@code cpu-clock}, {@code instructions}).
 *
 * @param name   the name as given
 * @param type   PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE
 * @param config the event's config value
 */
public record OverflowEvent(String name, int type, long config) {
    private static final Map<String, long[]> EVENTS = new LinkedHashMap<>();

    static {
        String[] hw = {
            "CPU_CYCLES",
            "INSTRUCTIONS",
            "CACHE_REFERENCES",
            "CACHE_MISSES",
            "BRANCH_INSTRUCTIONS",
            "BRANCH_MISSES",
            "BUS_CYCLES",
            "STALLED_CYCLES_FRONTEND",
            "STALLED_CYCLES_BACKEND",
            "REF_CPU_CYCLES"
        };
        String[] sw = {
            "CPU_CLOCK",
            "TASK_CLOCK",
            "PAGE_FAULTS",
            "CONTEXT_SWITCHES",
            "CPU_MIGRATIONS",
            "PAGE_FAULTS_MIN",
            "PAGE_FAULTS_MAJ",
            "ALIGNMENT_FAULTS",
            "EMULATION_FAULTS"
        };
        for (int i = 0; i < hw.length; i++) {
            EVENTS.put("PERF_COUNT_HW_" + hw[i], new long[] {PerfEventAttr.TYPE_HARDWARE, i});
        }
        for (int i = 0; i < sw.length; i++) {
            EVENTS.put("PERF_COUNT_SW_" + sw[i], new long[] {PerfEventAttr.TYPE_SOFTWARE, i});
        }
        String[][] perfNames = {
            {"cycles", "PERF_COUNT_HW_CPU_CYCLES"},
            {"cpu-cycles", "PERF_COUNT_HW_CPU_CYCLES"},
            {"instructions", "PERF_COUNT_HW_INSTRUCTIONS"},
            {"cache-references", "PERF_COUNT_HW_CACHE_REFERENCES"},
            {"cache-misses", "PERF_COUNT_HW_CACHE_MISSES"},
            {"branches", "PERF_COUNT_HW_BRANCH_INSTRUCTIONS"},
            {"branch-instructions", "PERF_COUNT_HW_BRANCH_INSTRUCTIONS"},
            {"branch-misses", "PERF_COUNT_HW_BRANCH_MISSES"},
            {"cpu-clock", "PERF_COUNT_SW_CPU_CLOCK"},
            {"task-clock", "PERF_COUNT_SW_TASK_CLOCK"},
            {"page-faults", "PERF_COUNT_SW_PAGE_FAULTS"},
            {"context-switches", "PERF_COUNT_SW_CONTEXT_SWITCHES"},
            {"cpu-migrations", "PERF_COUNT_SW_CPU_MIGRATIONS"}
        };
        for (String[] p : perfNames) {
            EVENTS.put(p[0].toUpperCase(Locale.ROOT), EVENTS.get(p[1]));
        }
    }

    /** Parses a name; unknown names get an error listing what is accepted. */
    public static OverflowEvent parse(String name) {
        String key = name.trim().toUpperCase(Locale.ROOT).replaceFirst("^PERF::", "");
        long[] e = EVENTS.get(key);
        if (e == null) {
            e = EVENTS.get("PERF_COUNT_" + key);
        }
        if (e == null) {
            e = EVENTS.get("PERF_COUNT_HW_" + key);
        }
        if (e == null) {
            e = EVENTS.get("PERF_COUNT_SW_" + key);
        }
        if (e == null) {
            throw new IllegalArgumentException("ROCPROFSYS_SAMPLING_OVERFLOW_EVENT: unknown perf event '" + name
                    + "'; use a PERF_COUNT_HW_* or PERF_COUNT_SW_* name, e.g. PERF_COUNT_SW_CPU_CLOCK or"
                    + " PERF_COUNT_HW_INSTRUCTIONS");
        }
        return new OverflowEvent(name.trim(), (int) e[0], e[1]);
    }

    /** Sampling attributes for one sample every {@code period} events. */
    public PerfEventAttr attr(long period) {
        return PerfEventAttr.overflowSampling(type, config, period);
    }
}
