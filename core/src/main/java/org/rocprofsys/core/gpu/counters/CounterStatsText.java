package org.rocprofsys.core.gpu.counters;

import java.util.List;
import java.util.Locale;
import org.rocprofsys.core.gpu.stats.StatsCsv;
import org.rocprofsys.core.gpu.stats.StatsJson;

/**
 * The counter rows of the stats, in the style of rocprofv3's {@code *_stats} files: one row per
 * kernel, device and counter with its executions and the sum, mean, minimum, maximum and standard
 * deviation of its values. rocprofv3 has no such table (it lists every dispatch in
 * {@code counter_collection.csv}); the columns are named like its stats columns.
 */
final class CounterStatsText {
    static final String HEADER =
            "\"Kernel_Name\",\"Agent_Id\",\"Counter_Name\",\"Calls\",\"Sum\",\"Average\",\"Min\",\"Max\",\"StdDev\"\n";

    record Row(String kernel, CounterSeries series, CounterValues values) {}

    private CounterStatsText() {}

    static String csv(List<Row> rows) {
        StringBuilder b = new StringBuilder(HEADER);
        for (Row r : rows) {
            CounterValues v = r.values();
            b.append(StatsCsv.line(
                    StatsCsv.quoted(r.kernel()),
                    r.series().device(),
                    StatsCsv.quoted(r.series().metric()),
                    v.count(),
                    real(v.sum()),
                    real(v.mean()),
                    real(v.min()),
                    real(v.max()),
                    real(v.stddev())));
        }
        return b.toString();
    }

    static String json(List<Row> rows) {
        return StatsJson.render(GpuCounterFormat.STATS, rows, (r, row) -> {
            CounterValues v = r.values();
            row.put("Kernel_Name", r.kernel())
                    .put("Agent_Id", r.series().device())
                    .put("Counter_Name", r.series().metric())
                    .put("Calls", v.count())
                    .put("Sum", v.sum())
                    .put("Average", v.mean())
                    .put("Min", v.min())
                    .put("Max", v.max())
                    .put("StdDev", v.stddev());
        });
    }

    /** Whole values as integers (most counters count), others with 6 decimals. */
    private static String real(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15
                ? Long.toString((long) v)
                : String.format(Locale.ROOT, "%.6f", v);
    }
}
