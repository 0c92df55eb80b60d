package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which machines hold the rings' records while the target runs, and how much. */
class HeldRecordsTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(HeldRecords.RINGS_PROPERTY);
    }

    @Test
    void machinesOfUpToThreeCpusHoldTheDefaultBudgetAndLargerOnesNone() {
        long budget = HeldRecords.defaultBytes();
        assertTrue(budget > 0 && budget <= 512L << 20, budget + " bytes");
        assertEquals(budget, HeldRecords.forRings(1));
        assertEquals(budget, HeldRecords.forRings(2));
        assertEquals(budget, HeldRecords.forRings(3));
        assertEquals(0, HeldRecords.forRings(4));
        assertEquals(0, HeldRecords.forRings(16));
    }

    @Test
    void thePropertySetsTheBudgetOnAnyMachine() {
        System.setProperty(HeldRecords.RINGS_PROPERTY, "1048576");
        assertEquals(1 << 20, HeldRecords.forRings(16));
        assertEquals(1 << 20, HeldRecords.forRings(2));
        System.setProperty(HeldRecords.RINGS_PROPERTY, "0");
        assertEquals(0, HeldRecords.forRings(2));
        System.setProperty(HeldRecords.RINGS_PROPERTY, "-5");
        assertEquals(0, HeldRecords.forRings(2));
    }
}
