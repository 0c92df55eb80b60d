package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TraceWindowsTest {
    private static final long MS = 1_000_000L;

    @Test
    void noSpecMeansAlwaysOn() {
        assertTrue(new TraceWindows(List.of()).enabledAt(0));
        assertTrue(new TraceWindows(List.of()).unrestricted());
    }

    @Test
    void durationOnlyAsTheUpstreamTimeWindowTest() {
        // TRACE_DURATION=1.25: outer_a..outer_c (each 500 ms) begin at 0, 500, 1000 ms; outer_d at 1500
        TraceWindows w = new TraceWindows(List.of(new TraceWindows.Period(0, 1250 * MS, 1)));
        assertTrue(w.enabledAt(0));
        assertTrue(w.enabledAt(1000 * MS));
        assertFalse(w.enabledAt(1250 * MS));
        assertFalse(w.enabledAt(1500 * MS));
    }

    @Test
    void delayAndDuration() {
        TraceWindows w = new TraceWindows(List.of(new TraceWindows.Period(750 * MS, 750 * MS, 1)));
        assertFalse(w.enabledAt(0));
        assertFalse(w.enabledAt(500 * MS));
        assertTrue(w.enabledAt(1000 * MS));
        assertTrue(w.enabledAt(1499 * MS));
        assertFalse(w.enabledAt(1500 * MS));
    }

    @Test
    void delayWithoutDurationStaysOn() {
        TraceWindows w = new TraceWindows(List.of(new TraceWindows.Period(100 * MS, 0, 1)));
        assertFalse(w.enabledAt(50 * MS));
        assertTrue(w.enabledAt(100_000 * MS));
    }

    @Test
    void repeatedAndInfinitePeriods() {
        TraceWindows twice = new TraceWindows(List.of(TraceWindows.parse("1:1:2")));
        assertFalse(twice.enabledAt(500 * MS));
        assertTrue(twice.enabledAt(1500 * MS));
        assertFalse(twice.enabledAt(2500 * MS));
        assertTrue(twice.enabledAt(3500 * MS));
        assertFalse(twice.enabledAt(4500 * MS));
        TraceWindows forever = new TraceWindows(List.of(TraceWindows.parse("1:1:0")));
        assertTrue(forever.enabledAt(101_500 * MS));
        assertFalse(forever.enabledAt(100_500 * MS));
    }

    @Test
    void specsRunInSequence() {
        TraceWindows w = new TraceWindows(List.of(TraceWindows.parse("0:1"), TraceWindows.parse("1:1")));
        assertTrue(w.enabledAt(500 * MS));
        assertFalse(w.enabledAt(1500 * MS));
        assertTrue(w.enabledAt(2500 * MS));
        assertFalse(w.enabledAt(3500 * MS));
    }

    @Test
    void badSpecsAreClearErrors() {
        assertEquals(
                "ROCPROFSYS_TRACE_PERIODS: '5' is not delay:duration[:repeat[:clock]]",
                assertThrows(IllegalArgumentException.class, () -> TraceWindows.parse("5"))
                        .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TraceWindows.parse("a:1"))
                .getMessage()
                .contains("non-numeric"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TraceWindows.parse("1:1:1:cputime"))
                .getMessage()
                .contains("clock 'cputime'"));
    }
}
