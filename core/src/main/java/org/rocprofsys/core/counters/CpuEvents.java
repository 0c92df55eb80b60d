package org.rocprofsys.core.counters;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.config.Settings;

/**
 * The CPU counters a run asked for (ROCPROFSYS_PAPI_EVENTS, which {@code -C/--cpu-events} sets):
 * PAPI's names, e.g. {@code perf::PERF_COUNT_SW_CPU_CLOCK} or {@code PAPI_TOT_INS}, in the order
 * the agent records their values and the outputs name them.
 */
public record CpuEvents(List<String> names) {
    public static final String SETTING = "ROCPROFSYS_PAPI_EVENTS";

    public CpuEvents {
        names = List.copyOf(names);
    }

    public static CpuEvents from(Settings settings) {
        return new CpuEvents(parse(settings.get(SETTING)));
    }

    /** Names separated by spaces, commas or semicolons (a colon belongs to PAPI's {@code perf::}); duplicates dropped. */
    public static List<String> parse(String spec) {
        List<String> out = new ArrayList<>();
        if (spec == null) {
            return out;
        }
        for (String s : spec.strip().split("[\\s,;]+")) {
            if (!s.isEmpty() && !out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    public boolean isEmpty() {
        return names.isEmpty();
    }

    /** The counters the regions of a run carry ({@link #withRegions}), in their recorded order; else none. */
    public static List<String> regionCounters(Settings settings) {
        CpuEvents events = from(settings);
        return events.withRegions(settings) ? events.names() : List.of();
    }

    /**
     * Whether regions carry the counters: as upstream, when the profile is on and its components
     * include {@code papi_array} (the component that holds them).
     */
    public boolean withRegions(Settings settings) {
        return !names.isEmpty()
                && settings.bool("ROCPROFSYS_PROFILE")
                && org.rocprofsys.core.timemory.Component.parse(settings.get("ROCPROFSYS_TIMEMORY_COMPONENTS"))
                        .contains(org.rocprofsys.core.timemory.Component.PAPI_ARRAY);
    }
}
