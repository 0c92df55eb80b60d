package org.rocprofsys.rocprofv3.stats;

import java.util.List;
import java.util.Locale;
import org.rocprofsys.core.gpu.stats.DurationStats;

/**
 * rocprofv3's summary table (seed 001, "Post-processing tracing options"): a
 * {@code ROCPROFV3 <DOMAIN> SUMMARY:} (or {@code ROCPROFV3 SUMMARY:}) title, then a markdown table
 * NAME | DOMAIN | CALLS | DURATION | AVERAGE | PERCENT (INC) | MIN | MAX | STDDEV in the chosen unit,
 * the longest total first.
 */
public final class SummaryTable {
    private SummaryTable() {}

    /** The divisor of nanoseconds of each --summary-units word. */
    static double divisor(String unit) {
        return switch (unit) {
            case "sec" -> 1e9;
            case "msec" -> 1e6;
            case "usec" -> 1e3;
            default -> 1;
        };
    }

    public static String text(String title, List<DomainStatistics.Entry> entries, String unit) {
        double div = divisor(unit);
        int nameWidth = 40;
        int domainWidth = 12;
        for (DomainStatistics.Entry e : entries) {
            nameWidth = Math.max(nameWidth, e.name().length());
            domainWidth = Math.max(domainWidth, e.domain().length());
        }
        String u = "(" + unit + ")";
        String[] heads = {
            "NAME",
            "DOMAIN",
            "CALLS",
            "DURATION " + u,
            "AVERAGE " + u,
            "PERCENT (INC)",
            "MIN " + u,
            "MAX " + u,
            "STDDEV"
        };
        int[] widths = new int[heads.length];
        widths[0] = nameWidth;
        widths[1] = domainWidth;
        for (int i = 2; i < heads.length; i++) {
            widths[i] = Math.max(15, heads[i].length());
        }
        widths[5] = heads[5].length();
        StringBuilder out = new StringBuilder(title).append('\n');
        row(out, widths, heads);
        out.append('|');
        for (int w : widths) {
            out.append("-".repeat(w + 2)).append('|');
        }
        out.append('\n');
        double total = entries.stream().mapToDouble(e -> e.stats().sum()).sum();
        for (DomainStatistics.Entry e : entries) {
            DurationStats s = e.stats();
            row(out, widths, new String[] {
                e.name(),
                e.domain(),
                Long.toString(s.count()),
                number(s.sum(), div),
                String.format(Locale.ROOT, "%.3e", s.mean() / div),
                String.format(Locale.ROOT, "%.6f", total == 0 ? 0 : 100.0 * s.sum() / total),
                number(s.min(), div),
                number(s.max(), div),
                String.format(Locale.ROOT, "%.3e", s.stddev() / div)
            });
        }
        return out.toString();
    }

    private static String number(long ns, double div) {
        return div == 1 ? Long.toString(ns) : String.format(Locale.ROOT, "%.6f", ns / div);
    }

    private static void row(StringBuilder out, int[] widths, String[] cells) {
        out.append('|');
        for (int i = 0; i < cells.length; i++) {
            out.append(' ').append(cells[i]);
            out.append(" ".repeat(Math.max(0, widths[i] - cells[i].length()))).append(" |");
        }
        out.append('\n');
    }
}
