package org.rocprofsys.core.gpu.stats;

import java.util.Locale;

/**
 * A stats table as rocprofv3 writes its {@code *_stats.csv}: the quoted header
 * {@code "Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"}, then
 * one row per name with the name quoted, integers as they are, the average and the standard
 * deviation with 6 decimals above 0.01 (else 8-digit scientific), the percentage with 2 decimals
 * from 1, 4 decimals above 0.01, else 3-digit scientific. A quote inside a name is doubled.
 */
public final class StatsCsv {
    private StatsCsv() {}

    public static final String HEADER =
            "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n";

    public static String render(StatsTable table) {
        StringBuilder b = new StringBuilder(HEADER);
        for (StatsTable.Row r : table.rows()) {
            b.append(line(
                    quoted(r.name()),
                    r.calls(),
                    r.totalNs(),
                    real(r.averageNs()),
                    percentage(r.percentage()),
                    r.minNs(),
                    r.maxNs(),
                    real(r.stddev())));
        }
        return b.toString();
    }

    /** One CSV line: the cells as they print, separated by commas, ended by a newline. */
    public static String line(Object... cells) {
        StringBuilder b = new StringBuilder();
        for (Object cell : cells) {
            b.append(b.isEmpty() ? "" : ",").append(cell);
        }
        return b.append('\n').toString();
    }

    /** A text cell: in quotes, a quote inside doubled. */
    public static String quoted(String text) {
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    static String real(double v) {
        return v > 0.01 ? String.format(Locale.ROOT, "%.6f", v) : String.format(Locale.ROOT, "%.8e", v);
    }

    static String percentage(double v) {
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return v > 0.01 ? String.format(Locale.ROOT, "%.4f", v) : String.format(Locale.ROOT, "%.3e", v);
    }
}
