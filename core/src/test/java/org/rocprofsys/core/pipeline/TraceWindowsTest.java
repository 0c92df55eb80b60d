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
        assertOn(w, 0, 1000);
        assertOff(w, 1250, 1500);
    }

    /** {@code w} is on at each of {@code ms} (milliseconds). */
    private static void assertOn(TraceWindows w, long... ms) {
        for (long t : ms) {
            assertTrue(w.enabledAt(t * MS), () -> "off at " + t + " ms");
        }
    }

    /** {@code w} is off at each of {@code ms} (milliseconds). */
    private static void assertOff(TraceWindows w, long... ms) {
        for (long t : ms) {
            assertFalse(w.enabledAt(t * MS), () -> "on at " + t + " ms");
        }
    }

    @Test
    void delayAndDuration() {
        TraceWindows w = new TraceWindows(List.of(new TraceWindows.Period(750 * MS, 750 * MS, 1)));
        assertOff(w, 0, 500);
        assertOn(w, 1000, 1499);
        assertOff(w, 1500);
    }

    @Test
    void delayWithoutDurationStaysOn() {
        TraceWindows w = new TraceWindows(List.of(new TraceWindows.Period(100 * MS, 0, 1)));
        assertOff(w, 50);
        assertOn(w, 100_000);
    }

    @Test
    void repeatedAndInfinitePeriods() {
        TraceWindows twice = new TraceWindows(List.of(TraceWindows.parse("1:1:2")));
        assertOn(twice, 1500, 3500);
        assertOff(twice, 500, 2500, 4500);
        TraceWindows forever = new TraceWindows(List.of(TraceWindows.parse("1:1:0")));
        assertOn(forever, 101_500);
        assertOff(forever, 100_500);
    }

    @Test
    void specsRunInSequence() {
        TraceWindows w = new TraceWindows(List.of(TraceWindows.parse("0:1"), TraceWindows.parse("1:1")));
        assertOn(w, 500, 2500);
        assertOff(w, 1500, 3500);
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
