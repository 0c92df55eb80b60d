package org.rocprofsys.instrument.plan;

import java.util.Optional;
import java.util.Set;
import org.rocprofsys.elf.dwarf.LineInfo;
import org.rocprofsys.instrument.select.SignatureParts;

/**
 * The region label of an instrumented function (inventory §6.3, {@code --label}):
 * {@code [<return> ]<name>[(<params>)][ [<file>[:<line>]]]}. Types come from the symbol alone: the
 * parameter types of C++ (mangled) names, and the return type of function templates, whose
 * mangling carries it (C functions get no parameter list, other return types are unknown).
 * {@code file} and {@code line} come from the DWARF line table at the entry (as the line program
 * names the file), when the module has one.
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
        return new LabelFormat(
                parts.contains("return"), parts.contains("args"), parts.contains("file"), parts.contains("line"));
    }

    /** Whether labels need the DWARF line table. */
    boolean needsLines() {
        return file || line;
    }

    String label(String demangledSignature, Optional<LineInfo.Location> source) {
        SignatureParts p = SignatureParts.parse(demangledSignature);
        StringBuilder sb = new StringBuilder();
        if (returnType && !p.returnType().isEmpty()) sb.append(p.returnType()).append(' ');
        sb.append(p.name());
        if (args && p.parameters() != null)
            sb.append('(').append(p.parameters()).append(')');
        if (source.isPresent()) {
            LineInfo.Location s = source.get();
            if (file) {
                sb.append(" [").append(s.fileName());
                if (line) sb.append(':').append(s.line());
                sb.append(']');
            } else if (line) {
                sb.append(':').append(s.line());
            }
        }
        return sb.toString();
    }
}
