package org.rocprofsys.rocprofv3.stats;

import java.util.List;
import java.util.Locale;
import org.rocprofsys.core.gpu.stats.DurationStats;
import org.rocprofsys.rocprofv3.trace.Csv;
import org.rocprofsys.rocprofv3.trace.TraceFile;

/**
 * The _stats.csv files as seed 001 shows them: Name, Calls, TotalDurationNs, AverageNs (6
 * decimals), Percentage (of the table's total: 2 decimals from 1 %, 4 below, 3-digit exponent
 * form below 0.01 %), MinNs, MaxNs, StdDev (6 decimals, {@code 0.00000000e+00} when 0).
 */
public final class StatsText {
    private StatsText() {}

    public static String csv(List<DomainStatistics.Entry> entries) {
        StringBuilder out = new StringBuilder();
        Csv.header(out, TraceFile.Columns.STATS);
        double total = entries.stream().mapToDouble(e -> e.stats().sum()).sum();
        for (DomainStatistics.Entry e : entries) {
            DurationStats s = e.stats();
            out.append('"').append(e.name().replace("\"", "\"\"")).append('"');
            out.append(',').append(s.count());
            out.append(',').append(s.sum());
            out.append(',').append(String.format(Locale.ROOT, "%.6f", s.mean()));
            out.append(',').append(percentage(total == 0 ? 0 : 100.0 * s.sum() / total));
            out.append(',').append(s.min());
            out.append(',').append(s.max());
            double sd = s.stddev();
            out.append(',').append(sd == 0 ? "0.00000000e+00" : String.format(Locale.ROOT, "%.6f", sd));
            out.append('\n');
        }
        return out.toString();
    }

    static String percentage(double p) {
        if (p >= 1 || p == 0) {
            return String.format(Locale.ROOT, "%.2f", p);
        }
        if (p >= 0.01) {
            return String.format(Locale.ROOT, "%.4f", p);
        }
        return String.format(Locale.ROOT, "%.3e", p);
    }
}
