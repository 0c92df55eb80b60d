package org.rocprofsys.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.Objcopy;

/** What the reader adds over headers and symbols: contents, notes, build-id, debuglink, in-memory images. */
class ElfContentsTest {
    private static final String PROG = """
            int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
            int main(int argc, char **argv) { (void) argv; return work(argc); }
            """;

    @TempDir
    static Path dir;

    static Path plain;
    static Path compressed;

    @BeforeAll
    static void build() throws Exception {
        plain = TestBinaries.compileC(dir, "plain", PROG, "-O0", "-g", "-Wl,--build-id=sha1");
        compressed = TestBinaries.compileC(dir, "gz", PROG, "-O0", "-g", "-gz", "-Wl,--build-id=sha1");
    }

    @Test
    void buildIdMatchesReadelf() throws Exception {
        String notes = Command.of("readelf", "-n", plain.toString()).ok();
        Matcher m = Pattern.compile("Build ID: ([0-9a-f]+)").matcher(notes);
        assertTrue(m.find(), notes);
        ElfFile elf = ElfFile.open(plain);
        assertEquals(m.group(1), HexFormat.of().formatHex(elf.buildId()));
        assertEquals(20, elf.buildId().length);
        // the same note is seen through the sections and through the PT_NOTE segment
        assertTrue(elf.sectionNotes().stream()
                .anyMatch(n -> n.name().equals("GNU") && n.type() == ElfConstants.NT_GNU_BUILD_ID));
        ElfNote seg = elf.segmentNotes().stream()
                .filter(n -> n.type() == ElfConstants.NT_GNU_BUILD_ID)
                .findFirst()
                .orElseThrow();
        assertArrayEquals(
                elf.buildId(), elf.fileSlice(seg.descOffset(), 20).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
    }

    @Test
    void compressedSectionsInflateToTheUncompressedBytes() throws Exception {
        ElfFile gz = ElfFile.open(compressed);
        SectionHeader info = gz.section(".debug_info").orElseThrow();
        assertTrue((info.flags() & ElfConstants.SHF_COMPRESSED) != 0, "-gz compresses .debug_info");
        Path copy = dir.resolve("gz.plain");
        Command.of("objcopy", "--decompress-debug-sections", compressed.toString(), copy.toString())
                .ok();
        ElfFile inflated = ElfFile.open(copy);
        for (String name : List.of(".debug_info", ".debug_line", ".debug_abbrev")) {
            ByteBuffer want = inflated.sectionContents(name).orElseThrow();
            ByteBuffer got = gz.sectionContents(name).orElseThrow();
            assertEquals(want, got, name);
        }
        assertTrue(gz.sectionContents(".no_such_section").isEmpty());
        assertEquals(0, gz.sectionContents(gz.section(".bss").orElseThrow()).limit(), "NOBITS has no bytes");
    }

    @Test
    void debugLinkNamesTheDebugFileAndItsCrc() throws Exception {
        Path debug = dir.resolve("plain.debug");
        Path stripped = Objcopy.split(plain, "--strip-debug", debug, dir.resolve("plain.stripped"));
        DebugLink link = ElfFile.open(stripped).debugLink().orElseThrow();
        assertEquals("plain.debug", link.file());
        CRC32 crc = new CRC32();
        crc.update(Files.readAllBytes(debug));
        assertEquals((int) crc.getValue(), link.crc());
        assertTrue(ElfFile.open(plain).debugLink().isEmpty());
    }

    @Test
    void inMemoryImageReadsLikeTheFile() throws Exception {
        ElfFile file = ElfFile.open(plain);
        ElfFile image = ElfFile.of("[image]", Files.readAllBytes(plain));
        assertEquals(Path.of("[image]"), image.path());
        assertEquals(file.symbols(), image.symbols());
        assertArrayEquals(file.buildId(), image.buildId());
        assertThrows(ElfFormatException.class, () -> ElfFile.of("[junk]", new byte[64]));
    }

    @Test
    void addressesAndOffsetsThroughTheLoadSegments() throws Exception {
        ElfFile elf = ElfFile.open(plain);
        ElfSymbol work = TestSymbols.named(elf, "work");
        long off = elf.vaddrToOffset(work.value());
        ProgramHeader text = elf.loadSegmentAtOffset(off).orElseThrow();
        assertTrue(text.executable());
        assertEquals(work.value(), text.vaddr() + (off - text.offset()));
        long want = ByteBuffer.wrap(elf.bytesAt(work.value(), 8))
                .order(ByteOrder.LITTLE_ENDIAN)
                .getLong();
        assertEquals(want, elf.longAt(work.value()));
        assertEquals(want, elf.fileBytes(off, 8).getLong(0));
        assertThrows(ElfFormatException.class, () -> elf.longAt(0x7fff_0000_0000L));
        assertThrows(ElfFormatException.class, () -> elf.fileBytes(elf.fileSize() - 4, 8));
        assertFalse(elf.loadSegmentAtOffset(elf.fileSize() + 4096).isPresent());
    }
}
