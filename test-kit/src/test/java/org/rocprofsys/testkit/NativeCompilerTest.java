package org.rocprofsys.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class NativeCompilerTest {
    @TempDir
    Path dir;

    @Test
    void languagesFollowTheExtension() {
        assertEquals(Language.C, Language.of(Path.of("a.c")));
        assertEquals(Language.CXX, Language.of(Path.of("b/a.cpp")));
        assertEquals(Language.CXX, Language.of(Path.of("a.cc")));
        assertEquals(Language.CUDA, Language.of(Path.of("k.cu")));
        assertThrows(IllegalArgumentException.class, () -> Language.of(Path.of("a.txt")));
    }

    @Test
    void buildsRunsAndReusesAnUpToDateOutput() throws Exception {
        Path src = Files.writeString(
                dir.resolve("hello.c"), "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n");
        Path exe = NativeCompiler.build(src, dir.resolve("hello"), "-O1");
        assertEquals("hi\n", Command.of(exe.toString()).ok());
        FileTime built = Files.getLastModifiedTime(exe);
        Files.setLastModifiedTime(src, FileTime.fromMillis(built.toMillis() - 10_000));
        NativeCompiler.build(src, dir.resolve("hello"), "-O1");
        assertEquals(built, Files.getLastModifiedTime(exe), "same command, older source: reused");
        Files.setLastModifiedTime(exe, FileTime.fromMillis(built.toMillis() - 20_000));
        NativeCompiler.build(src, dir.resolve("hello"), "-O2");
        assertNotEquals(
                built.toMillis() - 20_000, Files.getLastModifiedTime(exe).toMillis(), "other flags: rebuilt");
    }

    @Test
    void relativeSourcesAreFoundNextToTheOutput() throws Exception {
        Files.writeString(dir.resolve("lib.c"), "int answer(void) { return 42; }\n");
        Path lib = dir.resolve("libanswer.so");
        NativeCompiler.c().compile(lib, List.of("-shared", "-fPIC", "-o", lib.toString(), "lib.c"));
        assertTrue(Files.isRegularFile(lib));
    }

    @Test
    void aFailedCompilationShowsTheDiagnostics() throws Exception {
        Path src = Files.writeString(dir.resolve("bad.c"), "int main(void) { return missing; }\n");
        IOException e = assertThrows(IOException.class, () -> NativeCompiler.build(src, dir.resolve("bad")));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void anAbsentCompilerSkipsTheTest() throws Exception {
        Path src = Files.writeString(dir.resolve("x.c"), "int main(void) { return 0; }\n");
        NativeCompiler none = new NativeCompiler(Language.C, "/nonexistent/cc");
        TestAbortedException e = assertThrows(TestAbortedException.class, () -> none.compile(src, dir.resolve("x")));
        assertTrue(e.getMessage().contains("/nonexistent/cc"), e.getMessage());
    }
}
