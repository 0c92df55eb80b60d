package org.rocprofsys.elf;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.Disassembly;
import org.rocprofsys.testkit.NativeCompiler;

class ElfFileTest {
    private static final String PROG = """
            #include <stdio.h>
            int counter = 3;
            static int helper(int x) { return x * counter; }
            int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; }
            int main(int argc, char **argv) { printf("%d\\n", work(argc)); return 0; }
            """;
    private static final String LIB = """
            int lib_value = 7;
            int lib_fn(int x) { return x + lib_value; }
            __attribute__((visibility("hidden"))) int lib_hidden(int x) { return x * 2; }
            """;

    @TempDir
    static Path dir;

    static Path pie;
    static Path nopie;
    static Path lib;

    @BeforeAll
    static void build() throws Exception {
        pie = TestBinaries.compileC(dir, "pie", PROG, "-O0", "-fPIE", "-pie", "-Wl,-rpath,/opt/x");
        nopie = TestBinaries.compileC(dir, "nopie", PROG, "-O0", "-fno-pie", "-no-pie");
        lib = TestBinaries.compileC(dir, "libt.so", LIB, "-O2", "-shared", "-fPIC", "-Wl,-soname,libt.so.1");
    }

    @Test
    void headerOfPieAndNonPie() throws Exception {
        ElfFile p = ElfFile.open(pie);
        assertEquals(ElfConstants.ET_DYN, p.type());
        assertTrue(p.positionIndependent());
        assertTrue(p.hasInterpreter());
        assertEquals(ElfConstants.EM_X86_64, p.machine());
        ElfFile n = ElfFile.open(nopie);
        assertEquals(ElfConstants.ET_EXEC, n.type());
        assertFalse(n.positionIndependent());
        String hdr = Command.of("readelf", "-h", "-W", nopie.toString()).ok();
        Matcher m = Pattern.compile("Entry point address:\\s+0x([0-9a-f]+)").matcher(hdr);
        assertTrue(m.find());
        assertEquals(Long.parseLong(m.group(1), 16), n.entry());
        m = Pattern.compile("Number of section headers:\\s+(\\d+)").matcher(hdr);
        assertTrue(m.find());
        assertEquals(Integer.parseInt(m.group(1)), n.shnum());
        m = Pattern.compile("Number of program headers:\\s+(\\d+)").matcher(hdr);
        assertTrue(m.find());
        assertEquals(Integer.parseInt(m.group(1)), n.phnum());
        assertTrue(n.entry() >= 0x400000, "non-PIE links at 0x400000");
    }

    @Test
    void programHeadersMatchReadelf() throws Exception {
        ElfFile p = ElfFile.open(pie);
        String out = Command.of("readelf", "-l", "-W", pie.toString()).ok();
        Pattern load = Pattern.compile(
                "^\\s+LOAD\\s+0x([0-9a-f]+)\\s+0x([0-9a-f]+)\\s+0x([0-9a-f]+)\\s+0x([0-9a-f]+)\\s+0x([0-9a-f]+)\\s+(\\S+(?: \\S)*)\\s+0x([0-9a-f]+)",
                Pattern.MULTILINE);
        Matcher m = load.matcher(out);
        List<ProgramHeader> loads = p.loadSegments();
        int i = 0;
        while (m.find()) {
            ProgramHeader h = loads.get(i++);
            assertEquals(Long.parseLong(m.group(1), 16), h.offset());
            assertEquals(Long.parseLong(m.group(2), 16), h.vaddr());
            assertEquals(Long.parseLong(m.group(4), 16), h.filesz());
            assertEquals(Long.parseLong(m.group(5), 16), h.memsz());
            assertEquals(m.group(6).contains("E"), h.executable());
        }
        assertEquals(loads.size(), i);
        assertTrue(i >= 2);
    }

    @Test
    void sectionsAndSymbolsMatchNm() throws Exception {
        for (Path bin : List.of(pie, nopie, lib)) {
            ElfFile f = ElfFile.open(bin);
            assertTrue(f.section(".text").isPresent());
            assertTrue(f.section(".symtab").isPresent());
            Map<String, Long> nm = new HashMap<>();
            for (String line :
                    Command.of("nm", "--defined-only", bin.toString()).ok().split("\n")) {
                String[] parts = line.trim().split("\\s+");
                if (parts.length == 3 && (parts[1].equals("T") || parts[1].equals("t"))) {
                    nm.put(parts[2], Long.parseLong(parts[0], 16));
                }
            }
            assertFalse(nm.isEmpty());
            Map<String, Long> ours = new HashMap<>();
            for (ElfSymbol s : f.symtab()) {
                if (s.definedFunction()) ours.put(s.name(), s.value());
            }
            for (var e : nm.entrySet()) {
                assertEquals(e.getValue(), ours.get(e.getKey()), bin + " " + e.getKey());
            }
        }
    }

    @Test
    void symbolAttributesAndBytes() throws Exception {
        ElfFile l = ElfFile.open(lib);
        ElfSymbol fn = TestSymbols.named(l, "lib_fn");
        assertEquals(ElfConstants.STT_FUNC, fn.type());
        assertEquals(ElfConstants.STB_GLOBAL, fn.bind());
        assertEquals(ElfConstants.STV_DEFAULT, fn.visibility());
        assertTrue(fn.size() > 0);
        ElfSymbol hidden = TestSymbols.named(l, "lib_hidden");
        // the linker turns hidden globals into plain locals in the output symtab
        assertEquals(ElfConstants.STB_LOCAL, hidden.bind());
        // an object file still has the visibility
        Path obj = dir.resolve("libt.o");
        NativeCompiler.c().compile(dir.resolve("libt.so.c"), obj, "-O2", "-fPIC", "-c");
        ElfFile o = ElfFile.open(obj);
        assertEquals(ElfConstants.ET_REL, o.type());
        ElfSymbol oh = TestSymbols.named(o, "lib_hidden");
        assertEquals(ElfConstants.STV_HIDDEN, oh.visibility());
        assertEquals(ElfConstants.STB_GLOBAL, oh.bind());
        assertTrue(l.dynsym().stream().anyMatch(s -> s.name().equals("lib_fn") && s.table() == ElfSymbol.Table.DYNSYM));
        assertTrue(l.dynsym().stream().noneMatch(s -> s.name().equals("lib_hidden")));
        assertEquals("libt.so.1", l.soname().orElseThrow());
        assertFalse(l.hasInterpreter());

        // bytes at the symbol equal what objdump shows for its first instruction
        byte[] b = l.bytesAt(fn.value(), (int) fn.size());
        String dump = Disassembly.of(lib, fn.value(), fn.value() + fn.size());
        Matcher m = Pattern.compile(
                        "^\\s*" + Long.toHexString(fn.value()) + ":\\s+((?:[0-9a-f]{2} )+)", Pattern.MULTILINE)
                .matcher(dump);
        assertTrue(m.find(), dump);
        String[] hex = m.group(1).trim().split(" ");
        for (int i = 0; i < hex.length; i++) {
            assertEquals((byte) Integer.parseInt(hex[i], 16), b[i]);
        }
        long off = l.vaddrToOffset(fn.value());
        assertEquals(
                fn.value()
                        - l.loadSegmentContaining(fn.value()).orElseThrow().vaddr()
                        + l.loadSegmentContaining(fn.value()).orElseThrow().offset(),
                off);
        assertEquals(-1, l.vaddrToOffset(0x7fff_0000_0000L));
        assertThrows(IllegalArgumentException.class, () -> l.bytesAt(0x7fff_0000_0000L, 4));
    }

    @Test
    void dynamicEntries() throws Exception {
        ElfFile p = ElfFile.open(pie);
        assertTrue(p.needed().contains("libc.so.6"), p.needed().toString());
        assertEquals("/opt/x", p.runpath().or(p::rpath).orElseThrow());
        assertTrue(p.pieFlag());
        ElfFile n = ElfFile.open(nopie);
        assertFalse(n.pieFlag());
    }

    @Test
    void rejectsNonElfAndOtherMachines() throws Exception {
        Path text = dir.resolve("not-elf.txt");
        Files.writeString(text, "hello, this is not an ELF file at all\n");
        ElfFormatException e = assertThrows(ElfFormatException.class, () -> ElfFile.open(text));
        assertTrue(e.getMessage().contains("not an ELF file"), e.getMessage());

        byte[] good = Files.readAllBytes(lib);
        Path armFile = dir.resolve("arm.so");
        e = rejected(armFile, patched(good, 18, (byte) 183, (byte) 0));
        assertEquals(armFile + ": not an x86-64 ELF file (machine 183, AArch64)", e.getMessage());
        e = rejected(dir.resolve("c32.so"), patched(good, 4, (byte) 1));
        assertTrue(e.getMessage().contains("not a 64-bit ELF file"), e.getMessage());
        e = rejected(dir.resolve("be.so"), patched(good, 5, (byte) 2));
        assertTrue(e.getMessage().contains("not a little-endian"), e.getMessage());

        // cut before the section-header table (which sits at the end of the file)
        e = rejected(dir.resolve("cut.so"), java.util.Arrays.copyOf(good, good.length - 200));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertTrue(e.getMessage().contains("section-header table"), e.getMessage());

        e = rejected(
                dir.resolve("tiny"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 62});
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    /** A copy of {@code good} with {@code values} written from {@code offset} on. */
    private static byte[] patched(byte[] good, int offset, byte... values) {
        byte[] b = good.clone();
        System.arraycopy(values, 0, b, offset, values.length);
        return b;
    }

    /** Writes {@code bytes} to {@code file} and returns how ElfFile.open refuses it. */
    private static ElfFormatException rejected(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes);
        return assertThrows(ElfFormatException.class, () -> ElfFile.open(file));
    }
}
