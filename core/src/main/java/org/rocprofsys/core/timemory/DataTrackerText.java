package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text table of a timemory {@code data_tracker} storage, as upstream's GPU counters write it
 * ({@code rocprof-device-<dev>-<METRIC>.txt}): one flat row per kernel name, the metric's name in
 * METRIC, its description as the banner, and the value statistics of the kernel's executions.
 */
public final class DataTrackerText {
    /** Minimum column width and decimals, timemory's component defaults. */
    private static final int WIDTH = 8;

    private static final int PRECISION = 3;
    private static final int MAX_WIDTH = 120;

    /**
     * One kernel's values.
     *
     * @param variance the sample variance of the values (0 below two)
     */
    public record Row(String label, long count, double sum, double min, double max, double variance) {}

    private DataTrackerText() {}

    /** The table; empty text when there is no row. */
    public static String render(String metric, String description, List<Row> rows) {
        String banner = description.isEmpty() ? metric : description;
        TextTable t = new TextTable(WIDTH, MAX_WIDTH, 0, banner.toUpperCase(Locale.ROOT));
        for (String h : List.of("LABEL", "COUNT", "DEPTH", "METRIC", "SUM", "MEAN", "MIN", "MAX", "VAR", "STDDEV")) {
            t.column(h, h.equals("LABEL") || h.equals("METRIC"));
        }
        for (Row r : rows) {
            List<String> cells = new ArrayList<>(10);
            cells.add("|0>>> " + r.label());
            cells.add(Long.toString(r.count()));
            cells.add("0");
            cells.add(metric);
            cells.add(num(r.sum()));
            cells.add(num(r.count() == 0 ? 0 : r.sum() / r.count()));
            cells.add(num(r.min()));
            cells.add(num(r.max()));
            cells.add(num(r.variance()));
            cells.add(num(Math.sqrt(Math.abs(r.variance()))));
            t.row(cells.toArray(String[]::new));
        }
        return t.render();
    }

    private static String num(double v) {
        return NumberText.fixed(v, PRECISION, true);
    }
}
