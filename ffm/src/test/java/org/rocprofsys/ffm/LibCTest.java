package org.rocprofsys.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibCTest {
    @TempDir
    Path dir;

    @Test
    void openCloseAndErrors() throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "x");
        int fd = LibC.openRead(f.toString());
        assertTrue(fd >= 0, "fd " + fd);
        assertEquals(0, LibC.close(fd));
        assertEquals(-1, LibC.openRead(dir.resolve("missing").toString()));
        assertEquals("ENOENT", LibC.errnoName(LibC.ENOENT));
        assertEquals("No such file or directory", LibC.strerror(LibC.ENOENT));
    }

    @Test
    void killWithSignalZeroProbesAProcess() {
        assertEquals(0, LibC.kill(ProcessHandle.current().pid(), 0));
    }

    @Test
    void cStrings() {
        try (Arena a = Arena.ofConfined()) {
            assertEquals("abc", LibC.string(a.allocateFrom("abc")));
            assertNull(LibC.string(MemorySegment.NULL));
        }
    }
}
