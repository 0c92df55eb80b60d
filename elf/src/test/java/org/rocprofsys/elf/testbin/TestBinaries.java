package org.rocprofsys.elf.testbin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocprofsys.testkit.NativeCompiler;

/** Small C/C++ programs written by the tests themselves, compiled into the test's folder. */
public final class TestBinaries {
    private TestBinaries() {}

    /** Writes {@code source} to {@code dir/name.<ext>} and compiles it to {@code dir/name} with {@code flags}. */
    public static Path compile(Path dir, String name, String source, boolean cxx, String... flags)
            throws IOException, InterruptedException {
        Path src = dir.resolve(name + (cxx ? ".cpp" : ".c"));
        Files.writeString(src, source);
        NativeCompiler compiler = cxx ? NativeCompiler.cxx() : NativeCompiler.c();
        return compiler.compile(src, dir.resolve(name), flags);
    }

    public static Path compileC(Path dir, String name, String source, String... flags)
            throws IOException, InterruptedException {
        return compile(dir, name, source, false, flags);
    }
}
