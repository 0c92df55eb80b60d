package org.rocprofsys.instrument.select;

import java.util.List;

/**
 * Upstream's {@code --internal-library-append} and {@code --internal-library-remove}: libraries
 * added to, or taken out of, the "internal libs" whose functions are never instrumented (the glibc
 * family, the tool's dependencies, ...; see {@link HardConstraints}). A library is named by its file
 * name or a leading part of it that ends before a '.' or '-' ({@code liblzma} names
 * {@code liblzma.so.5.4.5}, as does {@code liblzma.so.5}).
 *
 * @param append libraries treated as internal besides upstream's list
 * @param remove libraries of upstream's list whose functions become candidates
 */
public record InternalLibraries(List<String> append, List<String> remove) {
    public static final InternalLibraries NONE = new InternalLibraries(List.of(), List.of());

    public InternalLibraries {
        append = List.copyOf(append);
        remove = List.copyOf(remove);
    }

    public InternalLibraries plusAppend(List<String> more) {
        List<String> all = new java.util.ArrayList<>(append);
        all.addAll(more);
        return new InternalLibraries(all, remove);
    }

    boolean appended(String fileName) {
        return names(append, fileName);
    }

    boolean removed(String fileName) {
        return names(remove, fileName);
    }

    /** Whether the module file {@code fileName} is internal: upstream's list or appended, and not removed. */
    public boolean internal(String fileName) {
        return !removed(fileName) && (HardConstraints.internalLibrary(fileName) || appended(fileName));
    }

    /** Whether one of {@code libraries} names the module file {@code fileName}. */
    public static boolean names(List<String> libraries, String fileName) {
        for (String lib : libraries) {
            if (fileName.equals(lib)) return true;
            if (fileName.startsWith(lib) && lib.length() < fileName.length()) {
                char next = fileName.charAt(lib.length());
                if (next == '.' || next == '-') return true;
            }
        }
        return false;
    }
}
