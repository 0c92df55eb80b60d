package org.rocprofsys.sampler.symbols;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.Demangler;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ProgramHeader;
import org.rocprofsys.elf.testbin.SymBuild;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.Objcopy;

class ElfSymbolsTest {

    private static final List<String> C_FUNCTIONS =
            List.of("add_one", "local_helper", "compute_sum", "outer_with_inline", "main");

    private static void checkAgainstNm(Path exe, int expectedType) throws Exception {
        ElfSymbols elf = ElfSymbols.load(exe);
        assertEquals(expectedType, elf.type(), "e_type of " + exe);
        assertTrue(elf.hasSymtab());
        Map<String, SymBuild.NmSym> nm = SymBuild.nm(exe, false);
        for (String fn : C_FUNCTIONS) {
            SymBuild.NmSym s = nm.get(fn);
            assertNotNull(s, fn + " in nm of " + exe);
            assertTrue(s.size() > 0, fn);
            ElfSymbols.Symbol mine = elf.find(fn);
            assertNotNull(mine, fn);
            assertEquals(s.value(), mine.start(), fn + " start");
            assertEquals(s.size(), mine.size(), fn + " size");
            for (long off : new long[] {0, s.size() / 2, s.size() - 1}) {
                ElfSymbols.Hit hit = elf.lookup(s.value() + off);
                assertNotNull(hit, fn + "+" + off);
                assertEquals(fn, hit.name());
                assertEquals(off, hit.offset());
                assertEquals(s.size(), hit.size());
            }
        }
        // every sized function symbol of nm resolves to itself (or an alias at the same address)
        for (SymBuild.NmSym s : nm.values()) {
            if (s.size() > 0) {
                ElfSymbols.Hit hit = elf.lookup(s.value());
                assertNotNull(hit, s.name());
                assertEquals(s.value(), hit.start(), s.name());
            }
        }
        // the build-id note matches readelf -n
        Matcher m = Pattern.compile("Build ID: ([0-9a-f]+)")
                .matcher(Command.of("readelf", "-n", exe.toString()).ok());
        assertTrue(m.find(), "readelf shows a build id");
        assertEquals(m.group(1), elf.buildIdHex());
        assertArrayEquals(HexFormat.of().parseHex(m.group(1)), elf.buildId());
        // file offset -> vaddr through the executable PT_LOAD
        ProgramHeader text = elf.segments().stream()
                .filter(ProgramHeader::executable)
                .findFirst()
                .orElseThrow();
        SymBuild.NmSym add = nm.get("add_one");
        long fileOff = add.value() - text.vaddr() + text.offset();
        assertEquals(add.value(), elf.fileOffsetToVaddr(fileOff));
    }

    @Test
    void cSymbolsPie() throws Exception {
        checkAgainstNm(
                SymBuild.compile("symbols_c.c", "symbols_c_pie", "-O2", "-g", "-fPIE", "-pie"), ElfConstants.ET_DYN);
    }

    @Test
    void cSymbolsNonPie() throws Exception {
        Path exe = SymBuild.compile("symbols_c.c", "symbols_c_nopie", "-O2", "-g", "-fno-pie", "-no-pie");
        checkAgainstNm(exe, ElfConstants.ET_EXEC);
        ElfSymbols elf = ElfSymbols.load(exe);
        assertTrue(elf.find("add_one").start() >= 0x400000L, "non-PIE link address");
        assertFalse(elf.isPositionIndependent());
    }

    @Test
    void cppDemangledNames() throws Exception {
        for (String[] v :
                new String[][] {{"symbols_cpp_pie", "-fPIE", "-pie"}, {"symbols_cpp_nopie", "-fno-pie", "-no-pie"}}) {
            Path exe = SymBuild.compile("symbols_cpp.cpp", v[0], "-O2", "-g", v[1], v[2]);
            ElfSymbols elf = ElfSymbols.load(exe);
            Map<String, SymBuild.NmSym> demangled = SymBuild.nm(exe, true);
            for (String want : List.of(
                    "ns::Widget<int>::run(int)",
                    "ns::Widget<double>::run(double)",
                    "ns::inner::compute(long, char const*)")) {
                SymBuild.NmSym s = demangled.get(want);
                assertNotNull(s, want + " in nm -C of " + exe + ": " + demangled.keySet());
                ElfSymbols.Hit hit = elf.lookup(s.value() + s.size() / 2);
                assertNotNull(hit, want);
                assertTrue(hit.name().startsWith("_ZN2ns"), hit.name());
                assertEquals(want, Demangler.shared().demangle(hit.name()));
                assertEquals(s.size() / 2, hit.offset());
            }
            // every mangled function name demangles as nm -C (binutils' own demangler) does
            Map<String, SymBuild.NmSym> mangled = SymBuild.nm(exe, false);
            Map<Long, String> byAddr = new java.util.HashMap<>();
            demangled.values().forEach(s -> byAddr.put(s.value(), s.name()));
            int checked = 0;
            for (SymBuild.NmSym s : mangled.values()) {
                if (s.name().startsWith("_Z") && byAddr.containsKey(s.value())) {
                    assertEquals(byAddr.get(s.value()), Demangler.shared().demangle(s.name()), s.name());
                    checked++;
                }
            }
            assertTrue(checked >= 3, "checked " + checked);
        }
    }

    @Test
    void strippedFallsBackToDynsym() throws Exception {
        Path exe = SymBuild.compile("symbols_c.c", "symbols_c_rdynamic", "-O2", "-g", "-fPIE", "-pie", "-rdynamic");
        Path stripped = exe.resolveSibling("symbols_c_stripped");
        Files.copy(exe, stripped, StandardCopyOption.REPLACE_EXISTING);
        Command.of("strip", stripped.toString()).ok();
        Map<String, SymBuild.NmSym> nm = SymBuild.nm(exe, false);

        ElfSymbols full = ElfSymbols.load(exe);
        ElfSymbols elf = ElfSymbols.load(stripped);
        assertTrue(full.hasSymtab());
        assertFalse(elf.hasSymtab(), "strip removed .symtab");
        assertEquals(full.buildIdHex(), elf.buildIdHex(), "strip keeps the build-id note");
        for (String fn : List.of("add_one", "compute_sum", "outer_with_inline", "main")) {
            SymBuild.NmSym s = nm.get(fn);
            ElfSymbols.Hit hit = elf.lookup(s.value() + 1);
            assertNotNull(hit, fn + " in .dynsym");
            assertEquals(fn, hit.name());
            assertEquals(1, hit.offset());
        }
        // a static function is not exported: the stripped file does not know it
        SymBuild.NmSym local = nm.get("local_helper");
        ElfSymbols.Hit hit = elf.lookup(local.value() + 1);
        assertTrue(hit == null || !hit.name().equals("local_helper"), String.valueOf(hit));
        assertEquals("local_helper", full.lookup(local.value() + 1).name());
        assertTrue(elf.size() < full.size());
    }

    @Test
    void strippedFilesGetFdeFunctionsAndTheirDebugFilesSymbols(@TempDir Path dir) throws Exception {
        Path exe = SymBuild.compile("cold.c", "cold_sym", "-O2", "-g");
        Map<String, SymBuild.NmSym> nm = SymBuild.nm(exe, false);
        DebugFiles noRoot = new DebugFiles(List.of(dir.resolve("no-root")));

        Path stripped = dir.resolve("cold");
        Command.of("objcopy", "--strip-all", exe.toString(), stripped.toString())
                .ok();
        ElfSymbols bare = ElfSymbols.load(stripped, noRoot);
        assertNull(bare.debugFile());
        // each FDE is a function named by its start (work.cold is one too: it has its own FDE),
        // but main, which _start hands to __libc_start_main
        for (String fn : List.of("main", "work", "work.cold", "hidden_work", "report")) {
            SymBuild.NmSym s = nm.get(fn);
            ElfSymbols.Hit hit = bare.lookup(s.value() + 1);
            assertNotNull(hit, fn);
            assertEquals(fn.equals("main") ? "main" : ElfSymbols.syntheticName(s.value()), hit.name(), fn);
            assertEquals(s.value(), hit.start(), fn);
            assertEquals(s.size(), hit.size(), fn);
        }
        assertTrue(bare.fdeFunctions() >= 5, bare.toString());

        // the same file with its debug file beside it (.gnu_debuglink): the real names
        Path debug = dir.resolve("cold.debug");
        Path linked = Objcopy.split(exe, "--strip-all", debug, dir.resolve("cold-linked"));
        ElfSymbols named = ElfSymbols.load(linked, noRoot);
        assertEquals(debug, named.debugFile());
        for (String fn : List.of("main", "work", "work.cold", "hidden_work", "report")) {
            SymBuild.NmSym s = nm.get(fn);
            assertEquals(fn, named.lookup(s.value() + 1).name(), fn);
        }
        assertTrue(named.fdeFunctions() < bare.fdeFunctions(), "only the PLT's FDEs lack a symbol");
    }

    @Test
    void libcInternalsAreNamedFromLibc6Dbg() throws Exception {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(libc), "no Debian x86-64 libc");
        var debug = DebugFiles.system().open(org.rocprofsys.elf.ElfFile.open(libc));
        org.junit.jupiter.api.Assumptions.assumeTrue(
                debug.isPresent(), "libc6-dbg is not installed (apt-get install libc6-dbg)");
        ElfSymbols elf = ElfSymbols.load(libc);
        assertEquals(debug.get().path(), elf.debugFile());
        int checked = 0;
        for (var s : debug.get().symtab()) {
            boolean internal = s.name().equals("_int_free")
                    || s.name().equals("_int_malloc")
                    || s.name().startsWith("__memcmp_evex");
            if (internal && s.definedFunction() && s.size() > 0) {
                ElfSymbols.Hit hit = elf.lookup(s.value() + s.size() / 2);
                assertNotNull(hit, s.name());
                assertEquals(s.value(), hit.start(), s.name());
                checked++;
            }
        }
        assertTrue(checked >= 3, "checked " + checked);
        assertEquals("_int_free", elf.lookup(elf.find("_int_free").start()).name());
    }

    @Test
    void sharedLibraryDynsym() throws Exception {
        // a distribution library: lookups of its exported functions through .dynsym (sizes from nm -D)
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(libc));
        ElfSymbols elf = ElfSymbols.load(libc);
        assertEquals(ElfConstants.ET_DYN, elf.type());
        String out =
                Command.of("nm", "-D", "-S", "--defined-only", libc.toString()).ok();
        Matcher m = Pattern.compile("(?m)^([0-9a-f]+) ([0-9a-f]+) [TiW] (qsort)(@@?[A-Z_0-9.]+)?$")
                .matcher(out);
        assertTrue(m.find(), "qsort in nm -D");
        long start = Long.parseUnsignedLong(m.group(1), 16);
        ElfSymbols.Hit hit = elf.lookup(start + 3);
        assertNotNull(hit);
        assertEquals(start, hit.start());
        assertEquals(3, hit.offset());
        assertNotEquals(0, elf.buildId().length);
    }

    @Test
    void notElf() throws Exception {
        Path f = Files.createTempFile("notelf", ".txt");
        try {
            Files.writeString(f, "hello");
            assertThrows(IOException.class, () -> ElfSymbols.load(f));
            assertThrows(IOException.class, () -> ElfSymbols.load(Path.of("/nonexistent/file")));
        } finally {
            Files.delete(f);
        }
    }
}
