package org.rocprofsys.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.Objcopy;

/** The separate debug file lookup: build-id, then .gnu_debuglink's three places, each checked to belong. */
class DebugFilesTest {
    @TempDir
    static Path dir;

    /** Built with a build-id; the debug file is checked by it. */
    static Path withId;
    /** Built without a build-id; the debug file is checked by the debuglink's CRC. */
    static Path noId;

    @BeforeAll
    static void build() throws Exception {
        withId = CfiPrograms.cold("cold.id", "-Wl,--build-id=sha1");
        noId = CfiPrograms.cold("cold.noid", "-Wl,--build-id=none");
    }

    /**
     * {@code exe}'s debug information as {@code <folder>/<name>}, and {@code exe} stripped with a
     * debuglink to it as {@code <folder>/prog}.
     */
    private static Path split(Path exe, Path folder, String name) throws Exception {
        Files.createDirectories(folder);
        Path debug = folder.resolve(name);
        return Objcopy.split(exe, "--strip-all", debug, folder.resolve("prog"));
    }

    private static Optional<ElfFile> lookup(Path stripped, Path root) throws Exception {
        return new DebugFiles(List.of(root)).open(ElfFile.open(stripped));
    }

    private static boolean hasFunction(ElfFile debug, String name) {
        return debug.symtab().stream().anyMatch(s -> s.name().equals(name) && s.definedFunction());
    }

    @Test
    void byBuildIdUnderTheRoot() throws Exception {
        ElfFile elf = ElfFile.open(withId);
        String hex = HexFormat.of().formatHex(elf.buildId());
        Path root = dir.resolve("root-id");
        Path stripped =
                split(withId, root.resolve(".build-id").resolve(hex.substring(0, 2)), hex.substring(2) + ".debug");
        ElfFile found = lookup(stripped, root).orElseThrow();
        assertEquals(
                root.resolve(".build-id/" + hex.substring(0, 2) + "/" + hex.substring(2) + ".debug"), found.path());
        assertTrue(hasFunction(found, "hidden_work"));
        assertTrue(hasFunction(found, "work.cold"));
    }

    @Test
    void byDebuglinkBesideTheFileInItsDebugFolderAndUnderTheRoot() throws Exception {
        // beside: the debug file sits where the stripped copy will be
        Path beside = dir.resolve("bin-beside-x").resolve("prog");
        Files.createDirectories(beside.getParent());
        Path debug = beside.resolveSibling("prog.debug");
        Objcopy.split(noId, "--strip-all", debug, beside);
        assertEquals(debug, lookup(beside, dir.resolve("no-root")).orElseThrow().path());

        // in .debug/ next to it
        Path sub = beside.resolveSibling(".debug").resolve("prog.debug");
        Files.createDirectories(sub.getParent());
        Files.move(debug, sub);
        assertEquals(sub, lookup(beside, dir.resolve("no-root")).orElseThrow().path());

        // under <root>/<the file's folder>
        Path root = dir.resolve("root-link");
        Path under = root.resolve(beside.getParent().getRoot().relativize(beside.getParent()))
                .resolve("prog.debug");
        Files.createDirectories(under.getParent());
        Files.move(sub, under);
        ElfFile found = lookup(beside, root).orElseThrow();
        assertEquals(under, found.path());
        assertTrue(hasFunction(found, "hidden_work"));
    }

    @Test
    void aDebugFileOfAnotherBuildIsRefused() throws Exception {
        Path stripped = split(noId, dir.resolve("other"), "prog.debug");
        assertTrue(lookup(stripped, dir.resolve("no-root")).isPresent(), "the right one is found");
        // the same name, other contents: the CRC differs
        Path other = CfiPrograms.cold("cold.noid.O0", "-O0", "-Wl,--build-id=none");
        Objcopy.keepDebugOnly(other, dir.resolve("other/prog.debug"));
        assertTrue(lookup(stripped, dir.resolve("no-root")).isEmpty(), "CRC mismatch");

        // build-ids differ: refused even at the debuglink's place
        Path idStripped = split(withId, dir.resolve("other-id"), "prog.debug");
        Path otherId = CfiPrograms.cold("cold.id.O0", "-O0", "-Wl,--build-id=sha1");
        Objcopy.keepDebugOnly(otherId, dir.resolve("other-id/prog.debug"));
        assertTrue(lookup(idStripped, dir.resolve("no-root")).isEmpty(), "build-id mismatch");
    }

    @Test
    void debianLibcDebugFileNamesLibcInternals() throws Exception {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.isRegularFile(libc), "no Debian x86-64 libc here");
        ElfFile elf = ElfFile.open(libc);
        assumeTrue(
                DebugFiles.system().candidates(elf).stream().anyMatch(Files::isRegularFile),
                "libc6-dbg is not installed (apt-get install libc6-dbg)");
        ElfFile debug = DebugFiles.system().open(elf).orElseThrow();
        assertTrue(hasFunction(debug, "_int_free"));
        assertTrue(debug.symtab().stream().anyMatch(s -> s.name().startsWith("__memcmp_")));
        assertTrue(elf.dynsym().stream().noneMatch(s -> s.name().equals("_int_free")), "not exported");
    }
}
