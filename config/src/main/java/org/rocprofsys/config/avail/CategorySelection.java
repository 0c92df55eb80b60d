package org.rocprofsys.config.avail;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The categories named with {@code -c}: {@code settings::rocprofsys} applies to one table,
 * a bare {@code core} to every table. Empty means no restriction.
 */
record CategorySelection(List<String> qualified, List<String> bare) {
    static final String SETTINGS = "settings";
    static final String COMPONENT = "component";
    static final String HW_COUNTERS = "hw_counters";

    static CategorySelection of(Collection<String> names) {
        List<String> q = new ArrayList<>();
        List<String> b = new ArrayList<>();
        for (String n : names) {
            for (String part : n.split("[ ,;]+")) {
                if (part.isEmpty()) {
                    continue;
                }
                (part.contains("::") ? q : b).add(part);
            }
        }
        return new CategorySelection(List.copyOf(q), List.copyOf(b));
    }

    boolean isEmpty() {
        return qualified.isEmpty() && bare.isEmpty();
    }

    /** Whether a qualified name asks for this table, e.g. {@code component::timing} for components. */
    boolean namesTable(String table) {
        return qualified.stream().anyMatch(q -> q.startsWith(table + "::"));
    }

    boolean accepts(String table, Collection<String> categories) {
        if (isEmpty()) {
            return true;
        }
        for (String c : categories) {
            if (bare.contains(c) || qualified.contains(table + "::" + c)) {
                return true;
            }
        }
        return false;
    }
}
