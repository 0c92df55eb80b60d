package org.rocprofsys.core.calltree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The one-slot record (arrays of one slot, compared slot by slot) of the default profile (wall_clock alone) is the general record of one slot. */
class MeasureTest {
    @Test
    void recordOneKeepsWhatRecordKeeps() {
        Random r = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            Measure general = new Measure(1);
            Measure one = new Measure(1);
            int calls = 1 + r.nextInt(40);
            for (int c = 0; c < calls; c++) {
                long wallNs = r.nextInt(1_000_000);
                double display = wallNs / 1e9;
                general.record(new long[] {wallNs}, new double[] {display}, wallNs);
                one.recordOne(wallNs, display, wallNs);
            }
            String at = "trial " + trial + ", " + calls + " calls";
            assertEquals(general.laps(), one.laps(), at);
            assertEquals(general.wallNs(), one.wallNs(), at);
            assertEquals(general.count(), one.count(), at);
            assertEquals(general.raw(0), one.raw(0), at);
            assertEquals(general.statistic(Measure.Statistic.SUM, 0), one.statistic(Measure.Statistic.SUM, 0), at);
            assertEquals(general.statistic(Measure.Statistic.SQR, 0), one.statistic(Measure.Statistic.SQR, 0), at);
            assertEquals(general.statistic(Measure.Statistic.MIN, 0), one.statistic(Measure.Statistic.MIN, 0), at);
            assertEquals(general.statistic(Measure.Statistic.MAX, 0), one.statistic(Measure.Statistic.MAX, 0), at);
        }
    }
}
