package org.rocprofsys.sampler.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rocprofsys.sampler.perf.PerfEventAttr;

class CpuEventResolverTest {
    private static final CpuEventResolver.Probe OPENS = c -> null;
    private static final CpuEventResolver.Probe NO_PMU =
            c -> c.hardware() ? "perf_event_open: ENOENT, kernel.perf_event_paranoid=2" : null;

    @Test
    void perfNamesAndPresetsResolveToTheirPerfEventsInOrder() {
        CpuEventResolver.Resolution r = CpuEventResolver.resolve(
                List.of("perf::PERF_COUNT_SW_CPU_CLOCK", "perf::CONTEXT-SWITCHES", "PAPI_TOT_INS"), OPENS);
        assertEquals(List.of(), r.problems());
        List<PerfCounter> got = r.slots().stream().map(Optional::orElseThrow).toList();
        assertEquals("perf::PERF_COUNT_SW_CPU_CLOCK", got.get(0).name());
        assertEquals(PerfEventAttr.TYPE_SOFTWARE, got.get(0).type());
        assertEquals(0, got.get(0).config());
        assertEquals(PerfEventAttr.TYPE_SOFTWARE, got.get(1).type());
        assertEquals(3, got.get(1).config());
        // the preset keeps its own name for the outputs
        assertEquals("PAPI_TOT_INS", got.get(2).name());
        assertEquals(PerfEventAttr.TYPE_HARDWARE, got.get(2).type());
        assertEquals(1, got.get(2).config());
        // a context switch happens in the kernel: counted there where the probe allows it
        assertTrue(got.get(1).kernel() && !got.get(0).kernel() && !got.get(2).kernel());
        assertFalse(got.get(1).attr().has(PerfEventAttr.FLAG_EXCLUDE_KERNEL));
        assertTrue(got.get(0).attr().has(PerfEventAttr.FLAG_EXCLUDE_KERNEL));
        assertEquals("1:0,1:3:k,0:1", r.agentSpec());
        assertEquals(List.of(), r.notes());
    }

    @Test
    void aKernelSideEventThatMayNotCountTheKernelIsKeptUserOnlyWithANote() {
        CpuEventResolver.Probe userOnly =
                c -> c.kernel() ? "perf_event_open: EACCES, kernel.perf_event_paranoid=2" : null;
        CpuEventResolver.Resolution r =
                CpuEventResolver.resolve(List.of("perf::CONTEXT-SWITCHES", "perf::PAGE-FAULTS"), userOnly);
        assertEquals(List.of(), r.problems());
        assertEquals("1:3,1:2", r.agentSpec());
        assertEquals(1, r.notes().size(), r.notes()::toString);
        String n = r.notes().getFirst();
        assertTrue(n.contains("'perf::CONTEXT-SWITCHES' happens in the kernel") && n.contains("it reads 0"), n);
        assertTrue(n.contains("EACCES") && n.contains("perf_event_paranoid <= 1"), n);
    }

    @Test
    void aHardwareEventWithoutAPmuIsRefusedNamingItAndWhyAndKeepsItsSlot() {
        CpuEventResolver.Resolution r =
                CpuEventResolver.resolve(List.of("PAPI_TOT_CYC", "perf::PERF_COUNT_SW_CPU_CLOCK"), NO_PMU);
        assertEquals(1, r.problems().size(), r.problems()::toString);
        String p = r.problems().getFirst();
        assertTrue(p.contains("CPU event 'PAPI_TOT_CYC' cannot be counted on this machine"), p);
        assertTrue(p.contains("hardware event"), p);
        assertTrue(p.contains("ENOENT"), p);
        assertTrue(r.counts());
        // the refused event's values are absent, the others keep their places
        assertEquals("-,1:0", r.agentSpec());
    }

    @Test
    void unknownNamesAndTooManyEventsAreRefused() {
        CpuEventResolver.Resolution r = CpuEventResolver.resolve(List.of("perf::NOPE", "PAPI_NOPE"), OPENS);
        assertTrue(r.problems().get(0).contains("unknown CPU event 'perf::NOPE'"), r.problems()::toString);
        assertTrue(r.problems().get(1).contains("unknown CPU event 'PAPI_NOPE'"), r.problems()::toString);
        assertFalse(r.counts());
        assertEquals("-,-", r.agentSpec());
        CpuEventResolver.Resolution many = CpuEventResolver.resolve(Collections.nCopies(9, "perf::PAGE-FAULTS"), OPENS);
        assertTrue(many.problems().getFirst().contains("at most 8"), many.problems()::toString);
        assertEquals(8, many.slots().size());
    }

    @Test
    void theSoftwareClockOpensHereWhenPerfIsAllowed() {
        // the real probe: on a machine that refuses perf altogether the refusal names the reason
        CpuEventResolver.Resolution r = CpuEventResolver.resolve(List.of("perf::PERF_COUNT_SW_CPU_CLOCK"));
        if (r.counts()) {
            assertEquals(List.of(), r.problems());
        } else {
            assertTrue(r.problems().getFirst().contains("perf_event_open"), r.problems()::toString);
        }
    }
}
