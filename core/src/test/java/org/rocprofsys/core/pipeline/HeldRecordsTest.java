package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which machines hold the rings' records while the target runs, and how much. */
class HeldRecordsTest {
    @Test
    void machinesOfUpToThreeCpusHoldTheDefaultBudgetAndLargerOnesNone() {
        long budget = HeldRecords.defaultBytes();
        assertTrue(budget > 0 && budget <= 512L << 20, budget + " bytes");
        assertEquals(budget, HeldRecords.forRings(1, HeldRecords.AUTOMATIC));
        assertEquals(budget, HeldRecords.forRings(2, HeldRecords.AUTOMATIC));
        assertEquals(budget, HeldRecords.forRings(3, HeldRecords.AUTOMATIC));
        assertEquals(0, HeldRecords.forRings(4, HeldRecords.AUTOMATIC));
        assertEquals(0, HeldRecords.forRings(16, HeldRecords.AUTOMATIC));
    }

    @Test
    void theSettingSetsTheBudgetOnAnyMachine() {
        assertEquals(1 << 20, HeldRecords.forRings(16, 1 << 20));
        assertEquals(1 << 20, HeldRecords.forRings(2, 1 << 20));
        assertEquals(0, HeldRecords.forRings(2, 0));
        assertEquals(0, HeldRecords.forRings(2, -5));
    }
}
