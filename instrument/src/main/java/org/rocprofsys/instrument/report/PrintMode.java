package org.rocprofsys.instrument.report;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocprofsys.instrument.plan.FunctionInfo;

/**
 * The stdout form of {@code --print-<list> MODE} (inventory §6.4):
 * <pre>
 * functions:  [list] module:            then  [list]    [func][ninstr]       per function
 * modules:    [list]    [module]         per module
 * pair:       [list]    [module] --&gt; [func][ninstr]
 * </pre>
 * The {@code +} variants print the full signature instead of the name.
 */
public enum PrintMode {
    FUNCTIONS("functions"),
    FUNCTIONS_PLUS("functions+"),
    MODULES("modules"),
    PAIR("pair"),
    PAIR_PLUS("pair+");

    private final String word;

    PrintMode(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    public static PrintMode of(String s) {
        for (PrintMode m : values()) {
            if (m.word.equals(s)) return m;
        }
        throw new IllegalArgumentException(
                "unknown print mode '" + s + "' (functions, modules, functions+, pair, pair+)");
    }

    public String format(FunctionList list, List<FunctionInfo> rows) {
        String tag = "[" + list.stem() + "]";
        StringBuilder sb = new StringBuilder();
        switch (this) {
            case FUNCTIONS, FUNCTIONS_PLUS -> {
                Map<String, List<FunctionInfo>> byModule = new LinkedHashMap<>();
                for (FunctionInfo f : rows)
                    byModule.computeIfAbsent(f.module(), k -> new java.util.ArrayList<>())
                            .add(f);
                for (var e : byModule.entrySet()) {
                    sb.append(tag).append(' ').append(e.getKey()).append(":\n");
                    for (FunctionInfo f : e.getValue()) {
                        sb.append(tag)
                                .append("    [")
                                .append(name(f))
                                .append("][")
                                .append(f.instructions())
                                .append("]\n");
                    }
                }
            }
            case MODULES -> {
                Set<String> modules = new LinkedHashSet<>();
                for (FunctionInfo f : rows) modules.add(f.module());
                for (String m : modules)
                    sb.append(tag).append("    [").append(m).append("]\n");
            }
            case PAIR, PAIR_PLUS -> {
                for (FunctionInfo f : rows) {
                    sb.append(tag)
                            .append("    [")
                            .append(f.module())
                            .append("] --> [")
                            .append(name(f))
                            .append("][")
                            .append(f.instructions())
                            .append("]\n");
                }
            }
        }
        return sb.toString();
    }

    private String name(FunctionInfo f) {
        return this == FUNCTIONS_PLUS || this == PAIR_PLUS ? f.signature() : f.name();
    }
}
