package org.rocprofsys.sampler.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.sampler.perf.PerfEventAttr;

class CpuEventResolverTest {
    private static final CpuEventResolver.Probe OPENS = c -> null;
    private static final CpuEventResolver.Probe NO_PMU =
            c -> c.hardware() ? "perf_event_open: ENOENT, kernel.perf_event_paranoid=2" : null;

    @Test
    void perfNamesAndPresetsResolveToTheirPerfEventsInOrder() {
        List<PerfCounter> got = CpuEventResolver.resolve(
                List.of("perf::PERF_COUNT_SW_CPU_CLOCK", "perf::CONTEXT-SWITCHES", "PAPI_TOT_INS"), OPENS);
        assertEquals(3, got.size());
        assertEquals("perf::PERF_COUNT_SW_CPU_CLOCK", got.get(0).name());
        assertEquals(PerfEventAttr.TYPE_SOFTWARE, got.get(0).type());
        assertEquals(0, got.get(0).config());
        assertEquals(PerfEventAttr.TYPE_SOFTWARE, got.get(1).type());
        assertEquals(3, got.get(1).config());
        // the preset keeps its own name for the outputs
        assertEquals("PAPI_TOT_INS", got.get(2).name());
        assertEquals(PerfEventAttr.TYPE_HARDWARE, got.get(2).type());
        assertEquals(1, got.get(2).config());
    }

    @Test
    void aHardwareEventWithoutAPmuIsRefusedNamingItAndWhy() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> CpuEventResolver.resolve(List.of("perf::PERF_COUNT_SW_CPU_CLOCK", "PAPI_TOT_CYC"), NO_PMU));
        assertTrue(e.getMessage().startsWith("ROCPROFSYS_PAPI_EVENTS: "), e.getMessage());
        assertTrue(
                e.getMessage().contains("CPU event 'PAPI_TOT_CYC' cannot be counted on this machine"), e.getMessage());
        assertTrue(e.getMessage().contains("hardware event"), e.getMessage());
        assertTrue(e.getMessage().contains("ENOENT"), e.getMessage());
        assertTrue(!e.getMessage().contains("PERF_COUNT_SW_CPU_CLOCK"), e.getMessage());
    }

    @Test
    void unknownNamesAndTooManyEventsAreRefused() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> CpuEventResolver.resolve(List.of("perf::NOPE", "PAPI_NOPE"), OPENS));
        assertTrue(e.getMessage().contains("unknown CPU event 'perf::NOPE'"), e.getMessage());
        assertTrue(e.getMessage().contains("unknown CPU event 'PAPI_NOPE'"), e.getMessage());
        var many = assertThrows(
                IllegalArgumentException.class,
                () -> CpuEventResolver.resolve(Collections.nCopies(9, "perf::PAGE-FAULTS"), OPENS));
        assertTrue(many.getMessage().contains("at most 8"), many.getMessage());
    }

    @Test
    void theSoftwareClockOpensHereWhenPerfIsAllowed() {
        // the real probe: on a machine that refuses perf altogether the refusal names the reason
        try {
            List<PerfCounter> got = CpuEventResolver.resolve(List.of("perf::PERF_COUNT_SW_CPU_CLOCK"));
            assertEquals(1, got.size());
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("perf_event_open"), e.getMessage());
        }
    }
}
