package org.rocprofsys.instrument.plan;

import java.util.Set;
import org.rocprofsys.instrument.select.SignatureParts;

/**
 * The region label of an instrumented function (inventory §6.3, {@code --label}):
 * {@code [<return> ]<name>[(<params>)]}. Only what the symbol itself tells is available: the
 * parameter types of C++ (mangled) names, and the return type of function templates, whose
 * mangling carries it. {@code file} and {@code line} need DWARF and are not added; C functions
 * get no parameter list.
 */
public record LabelFormat(boolean returnType, boolean args, boolean file, boolean line) {
    public static final LabelFormat NAME_ONLY = new LabelFormat(false, false, false, false);

    /** From {@code --label} words: any of file, line, return, args. */
    public static LabelFormat of(Set<String> parts) {
        for (String p : parts) {
            if (!Set.of("file", "line", "return", "args").contains(p)) {
                throw new IllegalArgumentException("unknown --label part '" + p + "' (choices: file line return args)");
            }
        }
        return new LabelFormat(parts.contains("return"), parts.contains("args"), parts.contains("file"),
                parts.contains("line"));
    }

    String label(String demangledSignature) {
        SignatureParts p = SignatureParts.parse(demangledSignature);
        StringBuilder sb = new StringBuilder();
        if (returnType && !p.returnType().isEmpty()) sb.append(p.returnType()).append(' ');
        sb.append(p.name());
        if (args && p.parameters() != null) sb.append('(').append(p.parameters()).append(')');
        return sb.toString();
    }
}
