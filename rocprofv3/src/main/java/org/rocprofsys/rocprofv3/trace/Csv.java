package org.rocprofsys.rocprofv3.trace;

import java.util.List;

/** rocprofv3's CSV: every header and text field in double quotes, numbers bare, one row a line. */
public final class Csv {
    private Csv() {}

    public static void header(StringBuilder out, List<String> columns) {
        line(out, List.copyOf(columns));
    }

    public static void line(StringBuilder out, List<?> values) {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            Object v = values.get(i);
            if (v instanceof Number) {
                out.append(v);
            } else {
                out.append('"').append(String.valueOf(v).replace("\"", "\"\"")).append('"');
            }
        }
        out.append('\n');
    }
}
