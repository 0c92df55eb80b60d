package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.counters.CpuEvents;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.timemory.Component;
import org.rocprofsys.core.timemory.RegionAnnotations;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.TestSettings;

/**
 * The component and counter values on region ends (upstream's annotate test reads them): the
 * readings the regions carry become per-call values in the profile's units, named by component
 * label and counter name, on the end of each region that was not closed by the profiler.
 */
class RegionValuesTest {
    private static final int PID = 100;
    private static final long T0 = 1_000_000_000L;

    @TempDir
    Path dir;

    private Settings load(Map<String, String> env) throws Exception {
        return TestSettings.load(dir, env);
    }

    private static RegionMetrics readings(long cpuNs, long userNs, long minorFaults, long virt, long... counters) {
        return new RegionMetrics(
                cpuNs,
                RegionMetrics.ABSENT,
                RegionMetrics.ABSENT,
                new RegionMetrics.ResourceUsage(virt, userNs, 0, 0, minorFaults, 0, 0),
                new RegionMetrics.CounterValues(counters));
    }

    @Test
    void perCallValuesAreTheChangeOfEachReading() {
        RegionMetrics b = readings(1_000, 500, 10, 4096, 7);
        RegionMetrics e = readings(3_500, 2_000, 13, 8192, 907);
        assertEquals(2_500, Component.THREAD_CPU_CLOCK.perCall(10_000, b, e));
        assertEquals(2_500, Component.CPU_CLOCK.perCall(10_000, b, e));
        assertEquals(1_500, Component.USER_MODE_TIME.perCall(10_000, b, e));
        assertEquals(3, Component.NUM_MINOR_PAGE_FAULTS.perCall(10_000, b, e));
        assertEquals(4096, Component.VIRTUAL_MEMORY.perCall(10_000, b, e));
        // a utilisation's value is its CPU time; the percent is taken over the pair (cpu, wall)
        assertEquals(2_500, Component.THREAD_CPU_UTIL.perCall(10_000, b, e));
        assertEquals(25.0, Component.percent(Component.THREAD_CPU_UTIL.perCall(10_000, b, e), 10_000));
        // a reading not taken counts 0, as a forced end's
        assertEquals(0, Component.THREAD_CPU_CLOCK.perCall(10_000, b, RegionMetrics.NONE));
        assertEquals(0, Component.KERNEL_MODE_TIME.perCall(10_000, b, e));
    }

    @Test
    void upstreamsComponentNamesParseAndThePairComponentsArePercentages() {
        List<Component> all = Component.parse(
                "thread_cpu_clock cpu_util thread_cpu_util virtual_memory user_mode_time kernel_mode_time "
                        + "num_major_page_faults num_minor_page_faults voluntary_context_switch "
                        + "priority_context_switch papi_array");
        assertEquals(11, all.size());
        assertEquals(
                List.of(Component.CPU_UTIL, Component.THREAD_CPU_UTIL),
                all.stream().filter(Component::utilisation).toList());
        // timemory's aliases, and cpu_clock is not thread_cpu_clock
        assertEquals(
                List.of(Component.THREAD_CPU_CLOCK, Component.CPU_CLOCK),
                Component.parse("cpu_thread_clock cpu_clock"));
    }

    @Test
    void regionEndsCarryTheSelectedValuesAndTheCounters() throws Exception {
        Settings s = load(Map.of(
                "ROCPROFSYS_PROFILE",
                "ON",
                "ROCPROFSYS_TRACE",
                "ON",
                "ROCPROFSYS_TIMEMORY_COMPONENTS",
                "wall_clock thread_cpu_clock user_mode_time papi_array",
                CpuEvents.SETTING,
                "perf::PERF_COUNT_SW_CPU_CLOCK"));
        RegionAnnotations values = RegionAnnotations.from(s);
        assertFalse(values.isEmpty());
        Path out = dir.resolve("perfetto-trace.proto");
        List<TraceEvent> events = List.of(
                new ThreadStarted(T0, PID, PID, 0),
                new RegionBegin(T0 + 10, PID, PID, "outer", Category.HOST, List.of(), readings(0, 0, 0, 0, 100)),
                new RegionBegin(T0 + 20, PID, PID, "inner", Category.HOST, List.of(), readings(1_000, 0, 0, 0, 1_100)),
                new RegionEnd(
                        T0 + 40, PID, PID, Category.HOST, List.of(), readings(3_000_000, 0, 0, 0, 3_000_100), false),
                new RegionEnd(
                        T0 + 90,
                        PID,
                        PID,
                        Category.HOST,
                        List.of(),
                        readings(4_000_000, 2_000_000, 0, 0, 4_000_100),
                        false),
                new RegionBegin(T0 + 100, PID, PID, "open", Category.HOST, List.of(), readings(5_000_000, 0, 0, 0, 0)));
        SinkFeed.run(
                new PerfettoSink(out, new PerfettoSink.Options(true, 0, 0, "app", 1, values)),
                events,
                new RunSummary(T0 + 200, 0, PID, "app", Map.of()));
        DecodedTrace trace = DecodedTrace.read(out);
        Map<String, DecodedTrace.Slice> byName = new HashMap<>();
        trace.slices.forEach(sl -> byName.put(sl.name, sl));
        DecodedTrace.Slice inner = byName.get("inner");
        assertEquals(0.002999, (Double) inner.args.get("thread_cpu_clock"), 1e-12);
        assertEquals(2_999_000.0, (Double) inner.args.get("perf::PERF_COUNT_SW_CPU_CLOCK"), 1e-9);
        DecodedTrace.Slice outer = byName.get("outer");
        assertEquals(0.004, (Double) outer.args.get("thread_cpu_clock"), 1e-12);
        assertEquals(0.002, (Double) outer.args.get("user_mode_time"), 1e-12);
        assertFalse(outer.args.containsKey("wall_clock"), outer::toString);
        // closed by the profiler: no values
        assertTrue(byName.get("open").args.containsKey(PerfettoSink.CLOSED_BY_PROFILER), byName::toString);
        assertFalse(byName.get("open").args.containsKey("thread_cpu_clock"), byName::toString);
    }

    @Test
    void nothingIsAnnotatedWithoutTheProfileOrWithoutPapiArray() throws Exception {
        assertTrue(RegionAnnotations.from(load(Map.of(
                        "ROCPROFSYS_PROFILE", "OFF",
                        "ROCPROFSYS_TIMEMORY_COMPONENTS", "thread_cpu_clock")))
                .isEmpty());
        Settings noArray = load(Map.of(
                "ROCPROFSYS_PROFILE",
                "ON",
                "ROCPROFSYS_TIMEMORY_COMPONENTS",
                "wall_clock",
                CpuEvents.SETTING,
                "perf::PERF_COUNT_SW_CPU_CLOCK"));
        assertTrue(RegionAnnotations.from(noArray).isEmpty());
        assertFalse(CpuEvents.from(noArray).withRegions(noArray));
        assertEquals(
                List.of("perf::CPU-CLOCK", "PAPI_TOT_INS"),
                CpuEvents.parse(" perf::CPU-CLOCK,PAPI_TOT_INS; perf::CPU-CLOCK"));
    }
}
