package org.rocprofsys.instrument.report;

import java.util.List;
import org.rocprofsys.instrument.plan.FunctionInfo;

/**
 * The .json form: {@code {"rocprofsys": {"<label>": {"module_functions": [...]}}}} with one object
 * per function, keys as upstream's serializer names them (start_address as a hex string,
 * address_range, num_instructions, module, function, signature, linkage, visibility), indented by
 * four spaces like cereal's pretty JSON. The signature is the demangled text (upstream nests its
 * own structure there).
 */
public final class JsonList {
    private JsonList() {}

    public static String render(FunctionList list, List<FunctionInfo> rows) {
        return render(list, rows, null);
    }

    /** {@code reasons}: one per row, written as a last key "reason"; null for none. */
    public static String render(FunctionList list, List<FunctionInfo> rows, List<String> reasons) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n    \"rocprofsys\": {\n        \"")
                .append(list.label())
                .append("\": {\n")
                .append("            \"module_functions\": [");
        for (int i = 0; i < rows.size(); i++) {
            FunctionInfo f = rows.get(i);
            String in = "                    ";
            sb.append(i == 0 ? "\n" : ",\n").append("                {\n");
            sb.append(in)
                    .append("\"start_address\": ")
                    .append(str("0x" + Long.toHexString(f.address())))
                    .append(",\n");
            sb.append(in).append("\"address_range\": ").append(f.size()).append(",\n");
            sb.append(in)
                    .append("\"num_instructions\": ")
                    .append(f.instructions())
                    .append(",\n");
            sb.append(in).append("\"module\": ").append(str(f.module())).append(",\n");
            sb.append(in).append("\"function\": ").append(str(f.name())).append(",\n");
            sb.append(in).append("\"signature\": ").append(str(f.signature())).append(",\n");
            sb.append(in).append("\"linkage\": ").append(str(f.linkage())).append(",\n");
            sb.append(in).append("\"visibility\": ").append(str(f.visibility()));
            if (reasons != null) {
                sb.append(",\n").append(in).append("\"reason\": ").append(str(reasons.get(i)));
            }
            sb.append("\n");
            sb.append("                }");
        }
        sb.append(rows.isEmpty() ? "]\n" : "\n            ]\n");
        sb.append("        }\n    }\n}\n");
        return sb.toString();
    }

    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }
}
