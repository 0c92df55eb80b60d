package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.core.timemory.ProcessReport.Row;

/**
 * The text table of one component ({@code <component>.txt}, and standard output with
 * COUT_OUTPUT), as timemory's {@code operation::print_header} / {@code operation::print} /
 * {@code print_statistics} fill its stream: LABEL, COUNT, DEPTH, METRIC, UNITS, SUM, MEAN, MIN,
 * MAX, VAR, STDDEV, % SELF, each only when the component reports it (trip_count: no UNITS, MEAN,
 * statistics or % SELF).
 */
final class TextReport {
    private TextReport() {}

    static String render(ProcessReport report, Component c) {
        return render(report, c, c.label());
    }

    /** With {@code metric} in the METRIC column (the sampled profiles' names). */
    static String render(ProcessReport report, Component c, String metric) {
        TimemoryOptions o = report.options();
        TimemoryOptions.Format f = o.format(c);
        int ci = report.componentIndex(c);
        TextTable t = new TextTable(
                f.width(), o.table().maxWidth(), o.table().separatorFrequency(), TextTable.upper(c.description()));
        t.column("LABEL", true);
        t.column("COUNT", false);
        t.column("DEPTH", false);
        t.column("METRIC", true);
        if (c.reportsUnits()) {
            t.column("UNITS", true);
        }
        t.column("SUM", false);
        if (c.reportsMean()) {
            t.column("MEAN", false);
        }
        if (c.reportsStatistics()) {
            t.column("MIN", false);
            t.column("MAX", false);
            t.column("VAR", false);
            t.column("STDDEV", false);
        }
        if (c.reportsSelf()) {
            t.column("% SELF", false);
        }
        for (Row r : report.rows) {
            Measure m = r.measure;
            List<String> cells = new ArrayList<>(12);
            cells.add(r.prefix);
            cells.add(Long.toString(m.laps));
            cells.add(Integer.toString(r.depth));
            cells.add(metric);
            if (c.reportsUnits()) {
                cells.add(f.unitRepr());
            }
            if (c.integral()) {
                cells.add(Long.toString(m.raw[ci]));
            } else {
                double v = ProcessReport.value(m, ci, f.unit());
                cells.add(num(v, f));
                if (c.reportsMean()) {
                    cells.add(num(v / m.laps, f));
                }
            }
            if (c.reportsStatistics()) {
                cells.add(num(m.min[ci], f));
                cells.add(num(m.max[ci], f));
                cells.add(num(m.variance(ci), f));
                cells.add(num(m.stddev(ci), f));
            }
            if (c.reportsSelf()) {
                cells.add(NumberText.fixed(r.self[ci], 1, true));
            }
            t.row(cells.toArray(String[]::new));
        }
        return t.render();
    }

    private static String num(double v, TimemoryOptions.Format f) {
        return f.scientific() ? NumberText.scientific(v, f.precision()) : NumberText.fixed(v, f.precision(), true);
    }
}
