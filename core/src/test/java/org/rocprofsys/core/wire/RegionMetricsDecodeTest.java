package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.RegionMetrics;

/** The metric u64s of a region record: one per flag set, in bit order (docs/wire-protocol.md). */
class RegionMetricsDecodeTest {
    private static MemorySegment record(long... values) {
        MemorySegment r = MemorySegment.ofArray(new long[2 + values.length]);
        for (int i = 0; i < values.length; i++) {
            r.setAtIndex(JAVA_LONG, 2 + i, values[i]);
        }
        return r;
    }

    @Test
    void usageAndCountersComeAfterTheFirstThreeInBitOrder() {
        int flags = WireFormat.METRIC_THREAD_CPU
                | WireFormat.METRIC_VIRTUAL
                | WireFormat.METRIC_USER_TIME
                | WireFormat.METRIC_MINOR_FAULTS
                | WireFormat.METRIC_PRIORITY_CSW
                | WireFormat.METRIC_COUNTER0
                | WireFormat.METRIC_COUNTER0 << 1;
        RegionMetrics m = RingDrain.metrics(record(11, 4096, 22, 33, 44, 1000, -1), flags);
        assertEquals(11, m.threadCpuNs());
        assertEquals(RegionMetrics.ABSENT, m.rssBytes());
        assertEquals(RegionMetrics.ABSENT, m.peakRssBytes());
        assertEquals(
                new RegionMetrics.ResourceUsage(
                        4096, 22, RegionMetrics.ABSENT, RegionMetrics.ABSENT, 33, RegionMetrics.ABSENT, 44),
                m.usage());
        assertEquals(new RegionMetrics.CounterValues(new long[] {1000, RegionMetrics.ABSENT}), m.counters());
    }

    @Test
    void theFirstThreeAloneKeepTheirOldMeaning() {
        RegionMetrics m = RingDrain.metrics(record(5, 6, 7), 7);
        assertEquals(new RegionMetrics(5, 6, 7), m);
        assertEquals(RegionMetrics.NONE, RingDrain.metrics(record(), 0));
        assertEquals(0x123456, WireFormat.metricFlags(0x12345678 & ~0xff | 0x78));
    }
}
