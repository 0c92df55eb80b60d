package org.rocprofsys.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceFilesTest {
    @TempDir
    Path dir;

    @Test
    void writesTheResourceOnceAndRestoresAChangedCopy() throws Exception {
        Path target = dir.resolve("sub/kit.c");
        ResourceFiles.copy(ResourceFilesTest.class, "/kit.c", target);
        String text = Files.readString(target);
        assertEquals("int kit(void) { return 1; }\n", text);
        FileTime old = FileTime.fromMillis(1_000_000);
        Files.setLastModifiedTime(target, old);
        ResourceFiles.copy(ResourceFilesTest.class, "/kit.c", target);
        assertEquals(old, Files.getLastModifiedTime(target), "an identical copy is left alone");
        Files.writeString(target, "changed");
        ResourceFiles.copy(ResourceFilesTest.class, "/kit.c", target);
        assertEquals(text, Files.readString(target));
        assertThrows(IOException.class, () -> ResourceFiles.copy(ResourceFilesTest.class, "/none.c", target));
    }
}
