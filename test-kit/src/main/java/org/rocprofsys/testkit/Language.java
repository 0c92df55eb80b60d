package org.rocprofsys.testkit;

import java.nio.file.Path;

/** The languages of the test programs, each with the compiler that builds it. */
public enum Language {
    C,
    CXX,
    CUDA;

    /** The language of a source file, by its extension (.c, .cpp/.cc/.cxx, .cu). */
    public static Language of(Path source) {
        String name = source.getFileName().toString();
        String ext = name.substring(name.lastIndexOf('.') + 1);
        return switch (ext) {
            case "c" -> C;
            case "cpp", "cc", "cxx", "C" -> CXX;
            case "cu" -> CUDA;
            default -> throw new IllegalArgumentException("no language for " + source);
        };
    }
}
