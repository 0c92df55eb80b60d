package org.rocprofsys.tracetest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The data rows of a CSV file the tools wrote (rocprofv3's per-event files, the stats). */
public final class CsvRows {
    private CsvRows() {}

    /** The data rows of a CSV file (its header dropped), each split at the commas outside quotes. */
    public static List<List<String>> of(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        List<List<String>> out = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (char c : line.toCharArray()) {
                if (c == '"') {
                    quoted = !quoted;
                } else if (c == ',' && !quoted) {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(c);
                }
            }
            cells.add(cell.toString());
            out.add(cells);
        }
        return out;
    }
}
