package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table layout against excerpts of real rocprof-sys output (the rocprof-sys documentation's
 * wall_clock.txt samples): the rows are parsed back into cells and re-rendered; banner, header
 * centring, separators, widths and alignment must come out byte for byte.
 */
class TextTableTest {
    /** From docs/how-to/using-rocprof-sys-api.rst (rocprof-sys 1.0, user-api example), 4 of its rows. */
    private static final String USER_API = """
            |----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            |                                                                                          REAL-CLOCK TIMER (I.E. WALL-CLOCK TIMER)                                                                                          |
            |----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            |                                                 LABEL                                                   | COUNT  | DEPTH  |   METRIC   | UNITS  |   SUM    |   MEAN   |   MIN    |   MAX    |   VAR    | STDDEV   | % SELF |
            |---------------------------------------------------------------------------------------------------------|--------|--------|------------|--------|----------|----------|----------|----------|----------|----------|--------|
            | |00>>> ./user-api.inst                                                                                  |      1 |      0 | wall_clock | sec    | 0.874293 | 0.874293 | 0.874293 | 0.874293 | 0.000000 | 0.000000 |    0.0 |
            | |00>>> |_initialization                                                                                 |      1 |      1 | wall_clock | sec    | 0.000015 | 0.000015 | 0.000015 | 0.000015 | 0.000000 | 0.000000 |  100.0 |
            | |00>>>   |___gnu_cxx::operator!=<std::thread*, std::vector<std::thread, std::allocator<std::thread> > > |     13 |      2 | wall_clock | sec    | 0.000024 | 0.000002 | 0.000001 | 0.000003 | 0.000000 | 0.000000 |  100.0 |
            | |00>>>   |_pthread_join                                                                                 |     12 |      2 | wall_clock | sec    | 0.027583 | 0.002299 | 0.000003 | 0.011250 | 0.000011 | 0.003289 |  100.0 |
            |----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            """;

    /** From docs/how-to/understanding-rocprof-sys-output.rst (OpenMP example), 4 of its rows. */
    private static final String OMPT = """
            |-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            |                                                                       REAL-CLOCK TIMER (I.E. WALL-CLOCK TIMER)                                                                      |
            |-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            |                            LABEL                             | COUNT  | DEPTH  |   METRIC   | UNITS  |   SUM     |   MEAN    |   MIN     |   MAX     |   VAR    | STDDEV   | % SELF |
            |--------------------------------------------------------------|--------|--------|------------|--------|-----------|-----------|-----------|-----------|----------|----------|--------|
            | |00>>> main                                                  |      1 |      0 | wall_clock | sec    | 13.360265 | 13.360265 | 13.360265 | 13.360265 | 0.000000 | 0.000000 |   18.2 |
            | |00>>>         |_conj_grad                                   |     76 |      5 | wall_clock | sec    | 10.641165 |  0.140015 |  0.131894 |  0.155099 | 0.000017 | 0.004080 |    1.0 |
            | |11>>>             |_ompt_sync_region_barrier_implementation |   3952 |      7 | wall_clock | sec    |  2.059823 |  0.000521 |  0.000007 |  0.009508 | 0.000001 | 0.000863 |  100.0 |
            | |00>>>   |_c_print_results                                   |      1 |      2 | wall_clock | sec    |  0.000049 |  0.000049 |  0.000049 |  0.000049 | 0.000000 | 0.000000 |  100.0 |
            |-------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            """;

    @Test
    void userApiSampleReRendersExactly() {
        assertEquals(USER_API, rerender(USER_API));
    }

    @Test
    void openMpSampleReRendersExactly() {
        assertEquals(OMPT, rerender(OMPT));
    }

    @Test
    void headerCentringFollowsTimemoryArithmetic() {
        assertEquals("COUNT ", TextTable.centered("COUNT", 8));
        assertEquals("  METRIC  ", TextTable.centered("METRIC", 12));
        assertEquals("  SUM    ", TextTable.centered("SUM", 11));
        assertEquals("% SELF", TextTable.centered("% SELF", 8));
    }

    @Test
    void longCellsAreCutAtMaxWidth() {
        TextTable t = new TextTable(8, 30, 0, "");
        t.column("LABEL", true);
        t.row("x".repeat(40));
        String out = t.render();
        assertEquals(true, out.contains("| " + "x".repeat(27) + "... |"), out);
    }

    @Test
    void separatorFrequencyInsertsSeparators() {
        TextTable t = new TextTable(8, 120, 2, "");
        t.column("LABEL", true);
        for (int i = 0; i < 5; i++) {
            t.row("r" + i);
        }
        String[] lines = t.render().split("\n");
        // sep, header, sep, r0, r1, sep, r2, r3, sep, r4, sep
        assertEquals(11, lines.length);
        assertEquals("|--------|", lines[5]);
        assertEquals("|--------|", lines[8]);
    }

    private static String rerender(String doc) {
        String[] lines = doc.split("\n");
        String banner = lines[1].substring(1, lines[1].length() - 1).strip();
        String[] headers = cells(lines[3]);
        TextTable t = new TextTable(8, 120, 0, banner);
        for (String h : headers) {
            boolean left = h.equals("LABEL") || h.equals("METRIC") || h.equals("UNITS");
            t.column(h, left);
        }
        for (int i = 5; i < lines.length - 1; i++) {
            String[] c = cells(lines[i]);
            t.row(c);
        }
        return t.render();
    }

    private static String[] cells(String line) {
        String inner = line.substring(2, line.length() - 2);
        List<String> out = new ArrayList<>();
        for (String c : inner.split(" \\| ")) {
            out.add(c.strip());
        }
        return out.toArray(String[]::new);
    }
}
