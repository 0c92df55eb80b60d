package org.rocprofsys.instrument.report;

import java.util.List;
import org.rocprofsys.instrument.plan.FunctionInfo;

/**
 * The .xml form, shaped like cereal's XML archive: {@code <cereal><rocprofsys><label>
 * <module_functions size="dynamic"><value0>...</value0>...}, tab-indented, with the same fields
 * as {@link JsonList}.
 */
public final class XmlList {
    private XmlList() {}

    public static String render(FunctionList list, List<FunctionInfo> rows) {
        return render(list, rows, null);
    }

    /** {@code reasons}: one per row, written as a last field "reason"; null for none. */
    public static String render(FunctionList list, List<FunctionInfo> rows, List<String> reasons) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<cereal>\n");
        sb.append("\t<rocprofsys>\n\t\t<").append(list.label()).append(">\n");
        sb.append("\t\t\t<module_functions size=\"dynamic\">\n");
        for (int i = 0; i < rows.size(); i++) {
            FunctionInfo f = rows.get(i);
            sb.append("\t\t\t\t<value").append(i).append(">\n");
            field(sb, "start_address", "0x" + Long.toHexString(f.address()));
            field(sb, "address_range", Long.toString(f.size()));
            field(sb, "num_instructions", Integer.toString(f.instructions()));
            field(sb, "module", f.module());
            field(sb, "function", f.name());
            field(sb, "signature", f.signature());
            field(sb, "linkage", f.linkage());
            field(sb, "visibility", f.visibility());
            if (reasons != null) {
                field(sb, "reason", reasons.get(i));
            }
            sb.append("\t\t\t\t</value").append(i).append(">\n");
        }
        sb.append("\t\t\t</module_functions>\n\t\t</").append(list.label()).append(">\n\t</rocprofsys>\n</cereal>\n");
        return sb.toString();
    }

    private static void field(StringBuilder sb, String name, String value) {
        sb.append("\t\t\t\t\t<")
                .append(name)
                .append('>')
                .append(escape(value))
                .append("</")
                .append(name)
                .append(">\n");
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
