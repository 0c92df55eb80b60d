package org.rocprofsys.config.atomicfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    Path dir;

    private List<Path> entries() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void aPendingFileAppearsWholeOnCommitAndNotAtAllOtherwise() throws IOException {
        Path target = dir.resolve("trace.proto");
        Files.writeString(target, "old");
        try (AtomicFile.Pending p = AtomicFile.begin(target)) {
            Files.writeString(p.temporary(), "new content");
            assertEquals("old", Files.readString(target)); // nothing seen before the commit
            assertEquals(dir, p.temporary().getParent());
            p.commit();
            assertFalse(Files.exists(p.temporary()));
        }
        assertEquals("new content", Files.readString(target));
        Path temporary;
        try (AtomicFile.Pending p = AtomicFile.begin(target)) {
            temporary = p.temporary();
            Files.writeString(temporary, "part");
        }
        assertFalse(Files.exists(temporary), "an abandoned file is removed");
        assertEquals("new content", Files.readString(target));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(target), files.toList());
        }
    }

    @Test
    void writesTheContentAndLeavesNoTemporaryFile() throws IOException {
        Path target = dir.resolve("out.txt");
        AtomicFile.writeString(target, "hello\n");
        assertEquals("hello\n", Files.readString(target));
        assertEquals(List.of(target), entries());
    }

    @Test
    void replacesAnExistingFileWhole() throws IOException {
        Path target = dir.resolve("out.bin");
        Files.writeString(target, "an old and much longer content");
        AtomicFile.write(target, new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(target));
        assertEquals(List.of(target), entries());
    }

    @Test
    void theFillerWritesBeforeTheRenameAndItsResultComesBack() throws IOException {
        Path target = dir.resolve("filled");
        int r = AtomicFile.write(target, tmp -> {
            assertFalse(Files.exists(target), "the target appears only when complete");
            assertEquals(dir, tmp.getParent());
            assertTrue(tmp.getFileName().toString().startsWith(".filled."));
            Files.writeString(tmp, "x");
            return 42;
        });
        assertEquals(42, r);
        assertEquals("x", Files.readString(target));
    }

    @Test
    void aFailingFillerLeavesNothingAndTheOldFileUntouched() throws IOException {
        Path target = dir.resolve("kept");
        Files.writeString(target, "old");
        IOException thrown = new IOException("disk on fire");
        IOException e = assertThrows(
                IOException.class,
                () -> AtomicFile.write(target, tmp -> {
                    Files.writeString(tmp, "half");
                    throw thrown;
                }));
        assertSame(thrown, e, "the filler's own exception is passed on");
        assertEquals("old", Files.readString(target));
        assertEquals(List.of(target), entries());
    }

    @Test
    void anUncheckedFailureAlsoLeavesNothing() throws IOException {
        Path target = dir.resolve("new");
        assertThrows(
                UncheckedIOException.class,
                () -> AtomicFile.write(target, tmp -> {
                    throw new UncheckedIOException(new IOException("boom"));
                }));
        assertEquals(List.of(), entries());
    }

    @Test
    void aMissingDirectoryIsNamedInTheError() {
        Path target = dir.resolve("absent/out.txt");
        FileWriteException e = assertThrows(FileWriteException.class, () -> AtomicFile.writeString(target, "x"));
        assertEquals(target, e.file());
        assertEquals(
                "cannot write " + target + ": directory " + dir.resolve("absent") + " does not exist", e.getMessage());
    }

    @Test
    void aTargetThatIsADirectoryIsNamedAndNothingIsLeft() throws IOException {
        Path target = Files.createDirectory(dir.resolve("taken"));
        Files.writeString(target.resolve("inside"), "x");
        FileWriteException e = assertThrows(FileWriteException.class, () -> AtomicFile.writeString(target, "x"));
        assertTrue(e.getMessage().startsWith("cannot write " + target + ": "), e.getMessage());
        assertEquals(List.of(target), entries());
    }

    @Test
    void anUnwritableDirectoryIsNamedInTheError() throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")), "root writes anywhere");
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Path target = locked.resolve("out");
            FileWriteException e = assertThrows(
                    FileWriteException.class, () -> AtomicFile.write(target, "x".getBytes(StandardCharsets.UTF_8)));
            assertEquals("cannot write " + target + ": permission denied in " + locked, e.getMessage());
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aRelativeTargetIsNamedAsGiven() throws IOException {
        Path relative = Path.of("no-such-dir-" + ProcessHandle.current().pid(), "out");
        FileWriteException e = assertThrows(FileWriteException.class, () -> AtomicFile.writeString(relative, "x"));
        assertTrue(e.getMessage().startsWith("cannot write " + relative + ": directory "), e.getMessage());
    }
}
