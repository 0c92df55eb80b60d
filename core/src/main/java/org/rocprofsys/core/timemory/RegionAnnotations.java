package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.counters.CpuEvents;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.RegionMetrics;

/**
 * The values upstream puts on a region's end event (its {@code perfetto_annotate_component_types}):
 * each selected component among cpu_clock, cpu_util, thread_cpu_clock, thread_cpu_util, peak_rss,
 * page_rss, virtual_memory, user/kernel mode time, page faults and context switches, named by its
 * label, in the display unit of the profile (timemory's {@code get()}); and with papi_array the
 * change of each CPU counter during the region, named by the counter.
 */
public final class RegionAnnotations {
    public static final RegionAnnotations NONE = new RegionAnnotations(List.of(), new double[0], List.of());

    private final List<Component> components;
    private final double[] units;
    private final List<String> counters;

    private RegionAnnotations(List<Component> components, double[] units, List<String> counters) {
        this.components = components;
        this.units = units;
        this.counters = counters;
    }

    /** What the run's settings select (nothing unless the profile, which takes the readings, is on). */
    public static RegionAnnotations from(Settings settings) {
        if (!settings.bool("ROCPROFSYS_PROFILE")) {
            return NONE;
        }
        TimemoryOptions options = TimemoryOptions.from(settings);
        List<Component> picked = new ArrayList<>();
        for (Component c : Component.parse(settings.get("ROCPROFSYS_TIMEMORY_COMPONENTS"))) {
            if (c != Component.WALL_CLOCK && c != Component.TRIP_COUNT && c != Component.PAPI_ARRAY) {
                picked.add(c);
            }
        }
        double[] units = new double[picked.size()];
        for (int i = 0; i < units.length; i++) {
            Component c = picked.get(i);
            units[i] = options.format(c).unit();
        }
        List<String> counters = CpuEvents.regionCounters(settings);
        return picked.isEmpty() && counters.isEmpty()
                ? NONE
                : new RegionAnnotations(List.copyOf(picked), units, counters);
    }

    public boolean isEmpty() {
        return components.isEmpty() && counters.isEmpty();
    }

    /** The annotations of a region that began with {@code begin} readings and ended with {@code end}. */
    public List<Annotation> of(long wallNs, RegionMetrics begin, RegionMetrics end) {
        List<Annotation> out = new ArrayList<>(components.size() + counters.size());
        for (int i = 0; i < units.length; i++) {
            Component c = components.get(i);
            long v = c.perCall(wallNs, begin, end);
            double shown = c.utilisation() ? Component.percent(v, wallNs) : v / units[i];
            out.add(new Annotation(c.label(), new AnnotationValue.Real(shown)));
        }
        for (int i = 0; i < counters.size(); i++) {
            long b = begin.counters().get(i);
            long e = end.counters().get(i);
            if (b != RegionMetrics.ABSENT && e != RegionMetrics.ABSENT) {
                out.add(new Annotation(counters.get(i), new AnnotationValue.Real(e - b)));
            }
        }
        return out;
    }
}
