package org.rocprofsys.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads a native library the tool can do without (Capstone, NVML, AMD SMI, libstdc++, libdw,
 * CUPTI, rocprofiler-sdk): the first of a list of candidates that loads. A candidate with a
 * {@code /} is a path, loaded only when the file exists; anything else is a name the dynamic
 * loader searches for (sonames such as {@code libdw.so.1}: the unversioned names exist only with
 * -dev packages).
 */
public final class OptionalLibrary {
    private OptionalLibrary() {}

    /**
     * The first of {@code candidates} that loads into {@code arena}, or a {@link LibraryLoad.Missing}
     * whose reason names {@code what} and every candidate tried.
     */
    public static LibraryLoad load(String what, List<String> candidates, Arena arena) {
        List<String> tried = new ArrayList<>();
        for (String candidate : candidates) {
            tried.add(candidate);
            SymbolLookup lookup = lookup(candidate, arena);
            if (lookup != null) {
                return new LibraryLoad.Loaded(candidate, lookup);
            }
        }
        String reason = tried.isEmpty()
                ? what + " not found: no candidate library was given"
                : what + " not found: could not load " + String.join(" or ", tried);
        return new LibraryLoad.Missing(tried, reason);
    }

    /** {@link #load} into the global arena: for libraries kept for the life of the process. */
    public static LibraryLoad loadForever(String what, List<String> candidates) {
        return load(what, candidates, Arena.global());
    }

    private static SymbolLookup lookup(String candidate, Arena arena) {
        try {
            if (candidate.contains("/")) {
                Path p = Path.of(candidate);
                return Files.exists(p) ? SymbolLookup.libraryLookup(p, arena) : null;
            }
            return SymbolLookup.libraryLookup(candidate, arena);
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            return null;
        }
    }
}
