package org.rocprofsys.config.atomicfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemporaryNamesTest {
    @TempDir
    Path dir;

    @Test
    void randomHexHasTwoDigitsPerByteAndDoesNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String h = TemporaryNames.randomHex(6);
            assertTrue(h.matches("[0-9a-f]{12}"), h);
            assertTrue(seen.add(h), "repeated: " + h);
        }
    }

    @Test
    void filesAreNewEmptyAndTheOwnersAlone() throws IOException {
        Path a = TemporaryNames.createFile(dir, ".trace.proto.", ".tmp");
        Path b = TemporaryNames.createFile(dir, ".trace.proto.", ".tmp");
        assertTrue(a.getFileName().toString().matches("\\.trace\\.proto\\.[0-9a-f]{16}\\.tmp"), a.toString());
        assertTrue(!a.equals(b) && Files.size(a) == 0 && Files.size(b) == 0);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(a)));
    }

    @Test
    void foldersAreNewAndTheOwnersAlone() throws IOException {
        Path f = TemporaryNames.createFolder(dir, "rocprofsys-42-");
        assertTrue(Files.isDirectory(f));
        assertTrue(f.getFileName().toString().matches("rocprofsys-42-[0-9a-f]{12}"), f.toString());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    }

    @Test
    void aMissingFolderIsAnError() {
        assertThrows(NoSuchFileException.class, () -> TemporaryNames.createFile(dir.resolve("none"), "x.", ".tmp"));
    }
}
