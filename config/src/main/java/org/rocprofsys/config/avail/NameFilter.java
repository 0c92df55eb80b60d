package org.rocprofsys.config.avail;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * rocprof-sys-avail's regex filters: a value matches when it matches at least one positive regex
 * (or there are none) and no regex written with a leading {@code ~}. Regexes search, as egrep.
 */
record NameFilter(List<Pattern> include, List<Pattern> exclude) {
    static final NameFilter ALL = new NameFilter(List.of(), List.of());

    static NameFilter of(Collection<String> regexes, boolean ignoreCase) {
        List<Pattern> in = new ArrayList<>();
        List<Pattern> out = new ArrayList<>();
        int flags = ignoreCase ? Pattern.CASE_INSENSITIVE : 0;
        for (String r : regexes) {
            try {
                if (r.startsWith("~")) {
                    out.add(Pattern.compile(r.substring(1), flags));
                } else {
                    in.add(Pattern.compile(r, flags));
                }
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("invalid regular expression '" + r + "': " + e.getDescription());
            }
        }
        return new NameFilter(List.copyOf(in), List.copyOf(out));
    }

    boolean isEmpty() {
        return include.isEmpty() && exclude.isEmpty();
    }

    /** True when one of the values is included and none is excluded. */
    boolean matchesAny(Collection<String> values) {
        for (Pattern p : exclude) {
            for (String v : values) {
                if (p.matcher(v).find()) {
                    return false;
                }
            }
        }
        if (include.isEmpty()) {
            return true;
        }
        for (Pattern p : include) {
            for (String v : values) {
                if (p.matcher(v).find()) {
                    return true;
                }
            }
        }
        return false;
    }

    boolean matches(String value) {
        return matchesAny(List.of(value));
    }
}
