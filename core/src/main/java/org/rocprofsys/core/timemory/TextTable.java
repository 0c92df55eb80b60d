package org.rocprofsys.core.timemory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * timemory's {@code data::stream} table, reproduced for one header per column:
 *
 * <pre>
 * |-----------------------------------...|   banner block (when there is a banner)
 * |        BANNER IN UPPER CASE          |
 * |-----------------------------------...|
 * |  LABEL   | COUNT  | ...              |   headers, centred by timemory's formula
 * |----------|--------|---...            |
 * | |0>>> a  |      1 | ...              |   rows: text left, numbers right
 * |-----------------------------------...|
 * </pre>
 *
 * Every column is at least the stream width wide, and as wide as its longest cell plus 2. Cells
 * longer than MAX_WIDTH are cut to MAX_WIDTH-3 characters plus "..." (to MAX_WIDTH when it is 20
 * or less). Widths count UTF-8 bytes, as std::string does.
 */
final class TextTable {
    private final int minWidth;
    private final int maxWidth;
    private final long separatorFrequency;
    private final String banner;
    private final List<String> headers = new ArrayList<>();
    private final List<Boolean> left = new ArrayList<>();
    private final List<Integer> widths = new ArrayList<>();
    /** Each row's physical lines: one, or one per value of a multi-value component. */
    private final List<String[][]> rows = new ArrayList<>();

    /**
     * @param minWidth the stream width (the component's width setting)
     * @param banner   text of the banner block (upper-cased by the caller); empty for none
     */
    TextTable(int minWidth, int maxWidth, long separatorFrequency, String banner) {
        this.minWidth = minWidth;
        this.maxWidth = maxWidth;
        this.separatorFrequency = separatorFrequency;
        this.banner = banner;
    }

    /** Adds a column; {@code leftAligned} for text cells (label, metric, units). */
    void column(String header, boolean leftAligned) {
        String h = cut(header);
        headers.add(h);
        left.add(leftAligned);
        widths.add(Math.max(minWidth, len(h) + 2));
    }

    void row(String... cells) {
        rows.add(new String[][] {line(cells)});
    }

    /**
     * A row of several lines, as timemory's stream writes a component with several values (its
     * column groups after each break): every line has all cells, the leading ones (LABEL, COUNT,
     * DEPTH) empty after the first line; the header shows one group, which every line shares.
     */
    void row(String[][] lines) {
        String[][] r = new String[lines.length][];
        for (int i = 0; i < lines.length; i++) {
            r[i] = line(lines[i]);
        }
        rows.add(r);
    }

    private String[] line(String[] cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells, got " + cells.length);
        }
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = cut(cells[i]);
            int w = Math.max(minWidth, len(r[i]) + 2);
            widths.set(i, Math.max(w, widths.get(i)));
        }
        return r;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String render() {
        if (headers.isEmpty() || rows.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        if (!banner.isEmpty()) {
            separator(out, '-');
            banner(out);
        }
        separator(out, '-');
        for (int i = 0; i < headers.size(); i++) {
            out.append('|')
                    .append(' ')
                    .append(centered(headers.get(i), widths.get(i)))
                    .append(' ');
        }
        out.append("|\n");
        separator(out, '|');
        for (int r = 0; r < rows.size(); r++) {
            for (String[] row : rows.get(r)) {
                for (int i = 0; i < row.length; i++) {
                    int w = widths.get(i) - 2;
                    out.append('|').append(' ');
                    if (i == 0 || left.get(i)) {
                        out.append(row[i]).append(" ".repeat(Math.max(0, w - len(row[i]))));
                    } else {
                        out.append(" ".repeat(Math.max(0, w - len(row[i])))).append(row[i]);
                    }
                    out.append(' ');
                }
                out.append("|\n");
            }
            if (separatorFrequency > 0
                    && (r + 1) < rows.size()
                    && (r % separatorFrequency) == (separatorFrequency - 1)) {
                separator(out, '|');
            }
        }
        separator(out, '-');
        return out.toString();
    }

    private void separator(StringBuilder out, char delim) {
        for (int i = 0; i < widths.size(); i++) {
            out.append(i == 0 ? '|' : delim).append("-".repeat(widths.get(i)));
        }
        out.append("|\n");
    }

    /** stream::write_banner: words wrapped to the table width and centred. */
    private void banner(StringBuilder out) {
        long tot = 0;
        for (int w : widths) {
            tot += w + 1;
        }
        List<String> lines = new ArrayList<>();
        lines.add("");
        for (String word : banner.split("[ \t]+")) {
            if (word.isEmpty()) {
                continue;
            }
            String wd = word;
            if (len(wd) > tot) {
                long half = tot / 2 - 4;
                wd = word.substring(0, (int) Math.max(0, Math.min(word.length(), half))) + "..."
                        + word.substring((int) Math.max(0, word.length() - Math.max(0, half)));
            }
            String last = lines.get(lines.size() - 1);
            long nlen = len(last) + len(wd) + 2;
            if (nlen >= tot) {
                lines.add("");
                last = "";
            }
            lines.set(lines.size() - 1, last.isEmpty() ? wd : last + " " + wd);
        }
        for (String line : lines) {
            long l = len(line);
            long obeg = tot / 2;
            obeg -= l / 2;
            obeg += l;
            long oend = tot - obeg;
            out.append('|').append(pad(line, obeg)).append(pad("|", oend)).append('\n');
        }
    }

    /** Right-aligned in {@code width} (std::setw with std::right). */
    private static String pad(String s, long width) {
        long p = width - len(s);
        return p > 0 ? " ".repeat((int) p) + s : s;
    }

    /**
     * data::base::write_entry for a header: centred with timemory's arithmetic, including its
     * unsigned comparison that nearly always takes one more space off the left side.
     */
    static String centered(String s, int w) {
        int i = len(s);
        int whalf = w / 2;
        int ihalf = (i + 1) / 2;
        int wrem = Math.max(whalf - ihalf, 0);
        if (i + wrem > w - 3) {
            wrem = w - 3 - i;
        }
        long cmp = (long) wrem - i - (w - 2);
        if (Long.compareUnsigned(cmp, 1) > 0) {
            wrem -= 1;
        }
        String beg = " ".repeat(Math.max(0, wrem)) + s;
        return beg + " ".repeat(Math.max(0, w - 2 - len(beg)));
    }

    /** stream_entry::construct's MAX_WIDTH cut. */
    private String cut(String s) {
        if (maxWidth > 0 && len(s) > maxWidth) {
            return maxWidth > 20 ? prefixBytes(s, maxWidth - 3) + "..." : prefixBytes(s, maxWidth);
        }
        return s;
    }

    /** The longest prefix of {@code s} of at most {@code bytes} UTF-8 bytes (whole characters). */
    private static String prefixBytes(String s, int bytes) {
        int used = 0;
        int i = 0;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            int b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (used + b > bytes) {
                break;
            }
            used += b;
            i += Character.charCount(cp);
        }
        return s.substring(0, i);
    }

    static int len(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return s.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return s.length();
    }

    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }
}
