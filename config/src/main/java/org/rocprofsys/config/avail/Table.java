package org.rocprofsys.config.avail;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** A table of strings, rendered in one of the {@link TableFormat}s. */
final class Table {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(List<String> headers) {
        this.headers = List.copyOf(headers);
    }

    /** A column of a table of {@code T}: its header, whether it is shown, and its cell for an item. */
    record Column<T>(String header, boolean shown, Function<T, String> cell) {}

    /** The shown {@code columns}, with a row for each of {@code items} that {@code keep} accepts. */
    static <T> Table of(List<Column<T>> columns, Iterable<T> items, Predicate<T> keep) {
        List<Column<T>> shown = columns.stream().filter(Column::shown).toList();
        Table t = new Table(shown.stream().map(Column::header).toList());
        for (T item : items) {
            if (keep.test(item)) {
                t.addRow(shown.stream().map(c -> c.cell().apply(item)).toList());
            }
        }
        return t;
    }

    void addRow(List<String> row) {
        if (row.size() != headers.size()) {
            throw new IllegalArgumentException("row has " + row.size() + " cells, table has " + headers.size());
        }
        rows.add(List.copyOf(row));
    }

    Table sortedBy(java.util.Comparator<List<String>> order) {
        Table t = new Table(headers);
        rows.stream().sorted(order).forEach(t.rows::add);
        return t;
    }

    int rowCount() {
        return rows.size();
    }

    /**
     * @param columnWidth  maximum width of a cell (longer cells are cut with "..."); 0 = unlimited
     * @param maxTotalWidth maximum width of a line, met by narrowing the widest column; 0 = unlimited
     */
    void print(PrintStream out, TableFormat format, String csvSeparator, int columnWidth, int maxTotalWidth) {
        switch (format) {
            case CSV -> printCsv(out, csvSeparator);
            case MARKDOWN -> printMarkdown(out, columnWidth);
            case TEXT -> printText(out, columnWidth, maxTotalWidth);
        }
    }

    private void printCsv(PrintStream out, String sep) {
        StringBuilder sb = new StringBuilder();
        headers.forEach(h -> sb.append(h).append(sep));
        out.println(sb);
        for (List<String> row : rows) {
            sb.setLength(0);
            row.forEach(c -> sb.append(c).append(sep));
            out.println(sb);
        }
    }

    private void printMarkdown(PrintStream out, int columnWidth) {
        out.println("| " + String.join(" | ", headers) + " |");
        out.println("|" + " --- |".repeat(headers.size()));
        for (List<String> row : rows) {
            out.println("| "
                    + String.join(
                            " | ", row.stream().map(c -> cut(c, columnWidth)).toList()) + " |");
        }
    }

    private void printText(PrintStream out, int columnWidth, int maxTotalWidth) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
            if (columnWidth > 0) {
                widths[i] = Math.max(headers.get(i).length(), Math.min(widths[i], columnWidth));
            }
        }
        if (maxTotalWidth > 0) {
            narrowToFit(widths, maxTotalWidth);
        }
        StringBuilder border = new StringBuilder("|");
        for (int w : widths) {
            border.append("-".repeat(w + 2)).append('|');
        }
        out.println(border);
        StringBuilder head = new StringBuilder("|");
        for (int i = 0; i < widths.length; i++) {
            String h = headers.get(i);
            int total = widths[i] + 2 - h.length();
            int left = total / 2;
            head.append(" ".repeat(left))
                    .append(h)
                    .append(" ".repeat(total - left))
                    .append('|');
        }
        out.println(head);
        out.println(border);
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder("|");
            for (int i = 0; i < widths.length; i++) {
                String c = cut(row.get(i), widths[i]);
                line.append(' ')
                        .append(c)
                        .append(" ".repeat(widths[i] - c.length()))
                        .append(" |");
            }
            out.println(line);
        }
        out.println(border);
    }

    private void narrowToFit(int[] widths, int maxTotalWidth) {
        while (true) {
            int total = 1;
            int widest = 0;
            for (int i = 0; i < widths.length; i++) {
                total += widths[i] + 3;
                if (widths[i] > widths[widest]) {
                    widest = i;
                }
            }
            int floor = Math.max(headers.get(widest).length(), 8);
            if (total <= maxTotalWidth || widths[widest] <= floor) {
                return;
            }
            widths[widest] = Math.max(floor, widths[widest] - (total - maxTotalWidth));
        }
    }

    private static String cut(String s, int width) {
        if (width <= 0 || s.length() <= width) {
            return s;
        }
        return width <= 3 ? s.substring(0, width) : s.substring(0, width - 3) + "...";
    }
}
