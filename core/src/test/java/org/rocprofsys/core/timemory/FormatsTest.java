package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.tracetest.TestSettings;

/** Hashes, number formats, component names and settings. */
class FormatsTest {
    @TempDir
    Path dir;

    @Test
    void stdHashReproducesTheDocumentationSample() {
        // The rocprof-sys docs' JSON sample was written by a timemory that combined with the
        // 32-bit golden ratio; with it, std::hash("main") combined with depth 1 gives the
        // sample's hash, which pins _Hash_bytes and the combine formula.
        long main = StdHash.of("main");
        long old = main ^ (1 + 0x9e3779b9L + (main << 6) + (main >>> 2));
        assertEquals("17481650134347108265", Long.toUnsignedString(old));
        long ri = StdHash.of("read_input");
        long oldRi = ri ^ (2 + 0x9e3779b9L + (ri << 6) + (ri >>> 2));
        assertEquals("3455444288293231339", Long.toUnsignedString(oldRi));
        // ... and its rolling hash is the wrapping sum with the parent's
        assertEquals("2490350348930787988", Long.toUnsignedString(oldRi + old));
        // short strings (no 8-byte block) and long ones (blocks and a tail)
        assertEquals(Long.toUnsignedString(StdHash.of("fib")), Long.toUnsignedString(StdHash.of("fib")));
        assertTrue(StdHash.of("abcdefghij") != StdHash.of("abcdefghik"));
    }

    @Test
    void fixedNotationRoundsTheBinaryValueHalfToEven() {
        assertEquals("13.360265", NumberText.fixed(13.360265, 6, true));
        assertEquals("0.000000", NumberText.fixed(0.0, 6, true));
        assertEquals("-0.000000", NumberText.fixed(-1e-12, 6, true));
        assertEquals("-0.000000", NumberText.fixed(-0.0, 6, true));
        assertEquals("100.0", NumberText.fixed(100.0, 1, true));
        // 0.125 is exact: ties to even; 0.375 likewise
        assertEquals("0.12", NumberText.fixed(0.125, 2, true));
        assertEquals("0.38", NumberText.fixed(0.375, 2, true));
        // 2.675 is 2.67499999... in binary
        assertEquals("2.67", NumberText.fixed(2.675, 2, true));
        assertEquals("5.", NumberText.fixed(5.0, 0, true));
        assertEquals("1.336027e+01", NumberText.scientific(13.360265, 6));
        assertEquals("0.000000e+00", NumberText.scientific(0.0, 6));
        assertEquals("9.808000e-06", NumberText.scientific(9.808e-6, 6));
        assertEquals("-1.5e+100", NumberText.scientific(-1.5e100, 1));
    }

    @Test
    void jsonDoublesFollowRapidjsonWithSixteenDecimals() {
        assertEquals("0.0", NumberText.json(0.0));
        assertEquals("-0.0", NumberText.json(-0.0));
        assertEquals("1.0", NumberText.json(1.0));
        assertEquals("0.894743517", NumberText.json(0.894743517));
        assertEquals("0.8005659612135293", NumberText.json(0.8005659612135293));
        assertEquals("0.000009808", NumberText.json(9.808e-06));
        assertEquals("9.6196864e-11", NumberText.json(9.6196864e-11));
        assertEquals("8.50084e-13", NumberText.json(8.50084e-13));
        assertEquals("1000000000.0", NumberText.json(1e9));
        assertEquals("1e30", NumberText.json(1e30));
        assertEquals("1.5e22", NumberText.json(1.5e22));
        assertEquals("-0.79", NumberText.json(-0.79));
        assertEquals("0.6400000000000001", NumberText.json(0.6400000000000001));
        // more than 16 decimals are cut, trailing zeros dropped, one digit kept
        assertEquals("0.1234567890123456", NumberText.prettify("12345678901234567", -17, 16));
        assertEquals("1.0", NumberText.prettify("10000000000000000001", -19, 16));
        // below 1e-16 rapidjson writes 0.0 (kk < -maxDecimalPlaces), down to there an exponent
        assertEquals("1e-17", NumberText.prettify("1", -17, 16));
        assertEquals("0.0", NumberText.prettify("1", -18, 16));
        assertEquals("0.0", NumberText.json(5e-18));
    }

    @Test
    void componentNamesAndValidation() {
        assertEquals(
                List.of(Component.WALL_CLOCK, Component.TRIP_COUNT, Component.PEAK_RSS),
                Component.parse("wall_clock, trip_count;memory_hwm WALL_CLOCK real_clock"));
        assertEquals(List.of(), Component.parse(""));
        assertEquals(Optional.empty(), TimemoryOptions.validateComponents("wall_clock cpu_clock page_rss"));
        Optional<String> bad = TimemoryOptions.validateComponents("wall_clock foo_clock");
        assertEquals(
                "Unknown component: 'foo_clock'. Valid choices are: ['real_clock', 'virtual_clock', "
                        + "'wall_clock', 'cpu_clock', 'memory_hwm', 'peak_rss', 'page_rss', 'trip_count', "
                        + "'cpu_thread_clock', 'thread_cpu_clock', 'virtual_memory', 'user_mode_time', "
                        + "'kernel_mode_time', 'major_page_faults', 'num_major_page_faults', 'minor_page_faults', "
                        + "'num_minor_page_faults', 'vol_ctx_switch', 'voluntary_context_switch', "
                        + "'prio_ctx_switch', 'priority_context_switch', 'cpu_util', 'cpu_utilization', "
                        + "'cpu_thread_util', 'cpu_thread_utilization', 'thread_cpu_util', "
                        + "'thread_cpu_utilization', 'papi_array', 'papi_array_t']",
                bad.orElseThrow());
        // thread_cpu_clock and papi_array are components now; timemory components this build does
        // not measure are still refused
        assertEquals(Optional.of(Component.THREAD_CPU_CLOCK), Component.find("thread_cpu_clock"));
        assertEquals(List.of(Component.PAPI_ARRAY), Component.parse("papi_array"));
        assertEquals(Optional.empty(), Component.find("process_cpu_clock"));
        assertThrows(IllegalArgumentException.class, () -> Component.parse("papi_vector"));
    }

    @Test
    void optionsFromSettings() throws Exception {
        Settings s = load(Map.of(
                "ROCPROFSYS_TIMEMORY_COMPONENTS",
                "wall_clock,peak_rss,trip_count",
                "ROCPROFSYS_FLAT_PROFILE",
                "ON",
                "ROCPROFSYS_COLLAPSE_THREADS",
                "true",
                "ROCPROFSYS_TIMING_UNITS",
                "msec",
                "ROCPROFSYS_TIMING_PRECISION",
                "3",
                "ROCPROFSYS_MEMORY_UNITS",
                "KiB",
                "ROCPROFSYS_MAX_DEPTH",
                "5",
                "ROCPROFSYS_COUT_OUTPUT",
                "yes"));
        TimemoryOptions o = TimemoryOptions.from(s);
        assertEquals(List.of(Component.WALL_CLOCK, Component.PEAK_RSS, Component.TRIP_COUNT), o.components());
        assertTrue(o.profile().flat()
                && o.profile().collapseThreads()
                && o.outputs().cout());
        assertEquals(5, o.profile().maxDepth());
        assertEquals(new TimemoryOptions.Format(3, 8, false, 1_000_000, "msec"), o.format(Component.WALL_CLOCK));
        assertEquals(new TimemoryOptions.Format(3, 8, false, 1024, "KiB"), o.format(Component.PEAK_RSS));
        assertEquals(new TimemoryOptions.Format(3, 8, false, 1, ""), o.format(Component.TRIP_COUNT));

        TimemoryOptions d = TimemoryOptions.from(load(Map.of()));
        assertEquals(TimemoryOptions.defaults(), d);
        assertEquals(new TimemoryOptions.Format(6, 8, false, 1_000_000_000, "sec"), d.format(Component.CPU_CLOCK));
        assertEquals(new TimemoryOptions.Format(3, 8, false, 1_000_000, "MB"), d.format(Component.PAGE_RSS));

        TimemoryOptions q = TimemoryOptions.from(load(Map.of(
                "ROCPROFSYS_TIMING_UNITS",
                "min",
                "ROCPROFSYS_MEMORY_UNITS",
                "b",
                "ROCPROFSYS_SCIENTIFIC",
                "true",
                "ROCPROFSYS_WIDTH",
                "12")));
        assertEquals(new TimemoryOptions.Format(6, 12, true, 60_000_000_000L, "UNK"), q.format(Component.WALL_CLOCK));
        assertEquals(new TimemoryOptions.Format(3, 12, true, 1, "byte"), q.format(Component.PEAK_RSS));

        assertThrows(
                IllegalArgumentException.class,
                () -> TimemoryOptions.from(load(Map.of("ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock bogus"))));
    }

    private Settings load(Map<String, String> env) throws Exception {
        return TestSettings.load(dir, env);
    }
}
