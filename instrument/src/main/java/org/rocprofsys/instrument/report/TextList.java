package org.rocprofsys.instrument.report;

import java.util.List;
import java.util.Locale;
import org.rocprofsys.instrument.plan.FunctionInfo;

/**
 * The .txt form of a list, laid out like upstream's {@code module_function::write_header} and
 * {@code operator<<}: right-aligned numbers, then module, function and signature left-aligned in
 * columns as wide as their longest entry (at most 80 characters, longer ones cut to 77 + "...")
 * plus 8.
 */
public final class TextList {
    static final int MAX_WIDTH = 80;

    private TextList() {}

    public static String render(List<FunctionInfo> rows) {
        return render(rows, null);
    }

    /** {@code reasons}: one per row, written as a last column "Reason"; null for none. */
    public static String render(List<FunctionInfo> rows, List<String> reasons) {
        int w0 = 0;
        int w1 = 0;
        int w2 = 0;
        for (FunctionInfo f : rows) {
            w0 = Math.max(w0, f.module().length());
            w1 = Math.max(w1, f.name().length());
            w2 = Math.max(w2, f.signature().length());
        }
        w0 = Math.min(w0, MAX_WIDTH);
        w1 = Math.min(w1, MAX_WIDTH);
        w2 = Math.min(w2, MAX_WIDTH);
        StringBuilder sb = new StringBuilder();
        sb.append(right("StartAddress", 14))
                .append(' ')
                .append(right("AddressRange", 14))
                .append(' ')
                .append(right("#Instructions", 14))
                .append(' ')
                .append(right("Ratio", 6))
                .append(' ')
                .append(right("Linkage", 7))
                .append(' ')
                .append(right("Visibility", 10))
                .append("  ")
                .append(left("Module", w0 + 8))
                .append(' ')
                .append(left("Function", w1 + 8))
                .append(' ')
                .append(left("FunctionSignature", w2 + 8));
        if (reasons != null) {
            sb.append(' ').append("Reason");
        }
        sb.append('\n');
        for (int i = 0; i < rows.size(); i++) {
            FunctionInfo f = rows.get(i);
            sb.append(right("0x" + Long.toHexString(f.address()), 14))
                    .append(' ')
                    .append(right(Long.toString(f.size()), 14))
                    .append(' ')
                    .append(right(Integer.toString(f.instructions()), 14))
                    .append(' ')
                    .append(right(ratio(f), 6))
                    .append("  ")
                    .append(right(f.linkage(), 7))
                    .append(' ')
                    .append(right(f.visibility(), 10))
                    .append(' ')
                    .append(left(cut(f.module()), w0 + 8))
                    .append(' ')
                    .append(left(cut(f.name()), w1 + 8))
                    .append(' ')
                    .append(left(cut(f.signature()), w2 + 8));
            if (reasons != null) {
                sb.append(' ').append(reasons.get(i));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** address range per instruction, as C++ prints a double with fixed and precision 2. */
    static String ratio(FunctionInfo f) {
        if (f.instructions() == 0) return f.size() == 0 ? "-nan" : "inf";
        return String.format(Locale.ROOT, "%.2f", f.size() / (double) f.instructions());
    }

    static String cut(String s) {
        return s.length() > MAX_WIDTH ? s.substring(0, MAX_WIDTH - 3) + "..." : s;
    }

    private static String right(String s, int w) {
        return s.length() >= w ? s : " ".repeat(w - s.length()) + s;
    }

    private static String left(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
