package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.wire.ClockConversion.Pair;

class ClockConversionTest {
    private static final long MS = 1_000_000L;

    @Test
    void identityLeavesMonotonicTimesAlone() {
        assertEquals(123456789L, ClockConversion.IDENTITY.toMonotonicNs(123456789L));
        assertEquals(0, ClockConversion.IDENTITY.toMonotonicNs(0));
    }

    @Test
    void dyadicSlopesAreExact() {
        // 8/3 ticks per ns (3/8 ns per tick)
        ClockConversion c =
                ClockConversion.through(new Pair(1000, 5000), new Pair(1000 + 800_000_000L, 5000 + 300_000_000L));
        assertEquals(5000, c.toMonotonicNs(1000));
        assertEquals(5003, c.toMonotonicNs(1008));
        assertEquals(5375, c.toMonotonicNs(2000));
        assertEquals(5000 + 300_000_000L, c.toMonotonicNs(1000 + 800_000_000L));
        assertEquals(5000 + 3 * 125_000_000_000L, c.toMonotonicNs(1000 + 1_000_000_000_000L), "extrapolated");
        assertEquals(5001, c.toMonotonicNs(1003), "floor");
        assertEquals(4997, c.toMonotonicNs(992), "before the init pair");
        // 16/5 ticks per ns
        ClockConversion d = ClockConversion.through(new Pair(0, 0), new Pair(96_000_000L, 30_000_000L));
        assertEquals(312, d.toMonotonicNs(1000));
        assertEquals(30_000_000L, d.toMonotonicNs(96_000_000L));
    }

    @Test
    void realisticSlopesMatchExactArithmeticWithinOneNanosecond() {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 200; i++) {
            long t0 = rnd.nextLong(1L << 40, 1L << 58); // ticks since boot, up to years at a few GHz
            long m0 = rnd.nextLong(1L << 30, 1L << 56);
            long spanNs = rnd.nextLong(10 * MS, 7L * 24 * 3600 * 1_000_000_000L); // 10 ms .. a week
            double ghz = 0.8 + rnd.nextDouble() * 4.5;
            long spanTicks = (long) (spanNs * ghz);
            ClockConversion c = ClockConversion.through(new Pair(t0, m0), new Pair(t0 + spanTicks, m0 + spanNs));
            for (int j = 0; j < 50; j++) {
                long d = rnd.nextLong(0, spanTicks * 2);
                long exact = BigInteger.valueOf(d)
                                .multiply(BigInteger.valueOf(spanNs))
                                .divide(BigInteger.valueOf(spanTicks))
                                .longValueExact()
                        + m0;
                long got = c.toMonotonicNs(t0 + d);
                assertTrue(
                        got == exact || got == exact + 1,
                        "d=" + d + " span " + spanTicks + "/" + spanNs + ": " + got + " vs exact " + exact);
            }
            assertEquals(m0, c.toMonotonicNs(t0));
            assertEquals(m0 + spanNs, c.toMonotonicNs(t0 + spanTicks), "the later pair maps onto itself");
        }
    }

    @Test
    void pairsOutOfOrderAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ClockConversion.through(new Pair(10, 10), new Pair(10, 20)));
        assertThrows(IllegalArgumentException.class, () -> ClockConversion.through(new Pair(10, 10), new Pair(20, 5)));
    }

    // choose(): which later pair --------------------------------------------------------------

    private static final Pair INIT = new Pair(1_000_000L, 50 * MS);

    /** A pair at `ms` after INIT, 4 ticks per ns plus `skew` ns (so each pair gives its own slope). */
    private static Pair at(long ms, long skewNs) {
        return new Pair(INIT.ticks() + 4 * ms * MS, INIT.monotonicNs() + ms * MS + skewNs);
    }

    /** Which pair a conversion went through: the ns it gives for that pair's ticks. */
    /** ClockConversion.choose(INIT, exit, latest, now, own) converts through {@code expected}. */
    private static void assertChooses(Pair expected, String why, Pair exit, Pair latest, long now, Supplier<Pair> own) {
        assertTrue(goesThrough(ClockConversion.choose(INIT, exit, latest, now, own), expected), why);
    }

    private static boolean goesThrough(ClockConversion c, Pair p) {
        return c.toMonotonicNs(p.ticks()) == p.monotonicNs() && c.toMonotonicNs(INIT.ticks()) == INIT.monotonicNs();
    }

    private static Supplier<Pair> never() {
        return () -> {
            throw new AssertionError("the collector's own pair was not needed");
        };
    }

    @Test
    void anExitedProcessUsesItsExitPair() {
        Pair exit = at(500, 7);
        Pair latest = at(400, -9);
        assertChooses(
                exit,
                "the exit pair, however long ago the process exited",
                exit,
                latest,
                INIT.monotonicNs() + 3600_000 * MS,
                never());
    }

    @Test
    void aShortExitPairGivesWayToTheCollectorsOwnPair() {
        Pair exit = at(3, 7); // 3 ms after init: too short a baseline
        Pair own = at(900, 3);
        assertChooses(own, "", exit, null, own.monotonicNs(), () -> own);
        assertChooses(exit, "without a pair of its own, the short one", exit, null, own.monotonicNs(), null);
    }

    @Test
    void aRunningProcessUsesItsLatestPairWhileItIsRecent() {
        Pair latest = at(400, 11);
        long now = latest.monotonicNs() + 300 * MS; // extrapolating 300 ms from a 400 ms baseline
        assertChooses(latest, "", null, latest, now, never());
    }

    @Test
    void aStaleOrShortLatestPairGivesWayToTheCollectorsOwnPair() {
        Pair own = at(60_000, 5);
        Pair stale = at(400, 11); // a minute ago
        AtomicInteger reads = new AtomicInteger();
        Supplier<Pair> reader = () -> {
            reads.incrementAndGet();
            return own;
        };
        assertChooses(own, "", null, stale, own.monotonicNs(), reader);
        Pair shortOne = at(2, 11);
        assertChooses(own, "", null, shortOne, at(5, 0).monotonicNs(), reader);
        assertEquals(2, reads.get());
        assertChooses(stale, "without a pair of its own, the stale one", null, stale, own.monotonicNs(), null);
    }

    @Test
    void anUnusableOwnPairIsIgnored() {
        Pair latest = at(2, 0);
        Pair noTsc = new Pair(0, INIT.monotonicNs() + 5000 * MS); // the helper where there is no TSC
        assertChooses(latest, "", null, latest, latest.monotonicNs() + 10 * MS, () -> noTsc);
    }

    @Test
    void withNoLaterPairTheInitTimeIsStillExact() {
        ClockConversion c = ClockConversion.choose(INIT, null, null, INIT.monotonicNs() + MS, null);
        assertEquals(INIT.monotonicNs(), c.toMonotonicNs(INIT.ticks()));
        assertEquals(INIT.monotonicNs() + 100, c.toMonotonicNs(INIT.ticks() + 100));
        Pair zero = new Pair(0, 0); // what an unset exit or latest pair reads as
        assertEquals(
                INIT.monotonicNs(),
                ClockConversion.choose(INIT, zero, zero, 0, null).toMonotonicNs(INIT.ticks()));
    }
}
