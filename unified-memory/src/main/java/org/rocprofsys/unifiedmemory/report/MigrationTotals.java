package org.rocprofsys.unifiedmemory.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LongSummaryStatistics;

/** The migrations of one direction on one device: a row of the unified-memory report. */
final class MigrationTotals {
    private final LongSummaryStatistics sizes = new LongSummaryStatistics();
    private long totalTimeNs;

    void add(long bytes, long durationNs) {
        sizes.accept(bytes);
        totalTimeNs += Math.max(0, durationNs);
    }

    long count() {
        return sizes.getCount();
    }

    /** The smallest migration's bytes, 0 before any. */
    long minBytes() {
        return count() == 0 ? 0 : sizes.getMin();
    }

    /** The largest migration's bytes, 0 before any. */
    long maxBytes() {
        return count() == 0 ? 0 : sizes.getMax();
    }

    long totalBytes() {
        return sizes.getSum();
    }

    long totalTimeNs() {
        return totalTimeNs;
    }

    /** Mean size in bytes, cut to 2 decimals (seed 000: 432865280 / 36 gives 12024035.55). */
    BigDecimal averageBytes() {
        if (count() == 0) {
            return BigDecimal.ZERO;
        }
        return BigDecimal.valueOf(totalBytes()).divide(BigDecimal.valueOf(count()), 2, RoundingMode.DOWN);
    }

    /**
     * Migrated bytes over the migrations' time in GB/s (GB = 10^9), cut to 2 decimals: the seed's
     * 432865280 B in 827859200 ns is 0.52, 65011712 B in 39135300 ns is 1.66.
     */
    BigDecimal throughputGbPerSecond() {
        if (totalTimeNs == 0) {
            return BigDecimal.ZERO;
        }
        return BigDecimal.valueOf(totalBytes()).divide(BigDecimal.valueOf(totalTimeNs), 2, RoundingMode.DOWN);
    }
}
