package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.core.calltree.Measure;
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

    /**
     * With {@code metric} in the METRIC column (the sampled profiles' names). papi_array has one
     * line per CPU counter in each row, the counter's name in METRIC (timemory's
     * {@code label_array}: the event's PAPI name here).
     */
    static String render(ProcessReport report, Component c, String metric) {
        TimemoryOptions o = report.options();
        TimemoryOptions.Format f = o.format(c);
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
        int first = report.slot(c);
        for (Row r : report.rows()) {
            if (c == Component.PAPI_ARRAY) {
                int[] columns = report.counterColumns();
                String[][] lines = new String[columns.length][];
                for (int k = 0; k < columns.length; k++) {
                    List<String> cells = new ArrayList<>(12);
                    if (k == 0) {
                        cells.add(r.prefix());
                        cells.add(Long.toString(r.measure().laps()));
                        cells.add(Integer.toString(r.depth()));
                    } else {
                        cells.add("");
                        cells.add("");
                        cells.add("");
                    }
                    int k2 = columns[k];
                    values(cells, r, c, f, first + k2, o.counters().get(k2));
                    lines[k] = cells.toArray(String[]::new);
                }
                t.row(lines);
            } else {
                List<String> cells = new ArrayList<>(12);
                cells.add(r.prefix());
                cells.add(Long.toString(r.measure().laps()));
                cells.add(Integer.toString(r.depth()));
                values(cells, r, c, f, first, metric);
                t.row(cells.toArray(String[]::new));
            }
        }
        return t.render();
    }

    /** The cells from METRIC on for the value in {@code slot}. */
    private static void values(
            List<String> cells, Row r, Component c, TimemoryOptions.Format f, int slot, String metric) {
        Measure m = r.measure();
        cells.add(metric);
        if (c.reportsUnits()) {
            cells.add(f.unitRepr());
        }
        if (c.integral()) {
            cells.add(Long.toString(m.raw(slot)));
        } else {
            double v = c.value(m, slot, f.unit());
            cells.add(num(v, f));
            if (c.reportsMean()) {
                cells.add(num(v / m.laps(), f));
            }
        }
        if (c.reportsStatistics()) {
            cells.add(num(m.statistic(Measure.Statistic.MIN, slot), f));
            cells.add(num(m.statistic(Measure.Statistic.MAX, slot), f));
            cells.add(num(m.variance(slot), f));
            cells.add(num(m.stddev(slot), f));
        }
        if (c.reportsSelf()) {
            cells.add(NumberText.fixed(r.self()[slot], 1, true));
        }
    }

    private static String num(double v, TimemoryOptions.Format f) {
        return f.scientific() ? NumberText.scientific(v, f.precision()) : NumberText.fixed(v, f.precision(), true);
    }
}
