package org.rocprofsys.sampler.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.testbin.SymBuild;
import org.rocprofsys.sampler.perf.PerfRecord;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.Objcopy;

class SymbolizerTest {
    private static final int PID = 4242;

    private static PerfRecord.Mmap mmap(int pid, long start, long end, long pgoff, String path, boolean exec) {
        return new PerfRecord.Mmap(
                -1, pid, pid, start, end - start, pgoff, 0, 0, 0, 0, new byte[0], exec ? 5 : 1, 2, path, true, !exec);
    }

    /** Runs the program with "maps": its function addresses, and Mmap records made from its /proc/self/maps. */
    private record Run(Map<String, Long> functions, List<PerfRecord.Mmap> maps) {}

    private static Run run(Path exe, int pid) throws Exception {
        String out = Command.of(exe.toString(), "maps").run().all();
        Map<String, Long> fns = new HashMap<>();
        List<PerfRecord.Mmap> maps = new java.util.ArrayList<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("FN")) {
                fns.put(f[1], Long.parseUnsignedLong(f[2].substring(2), 16));
            } else if (f[0].equals("MAP")) {
                String[] r = f[1].split("-");
                String[] dev = f[4].split(":");
                String path = f.length > 6 ? f[6] : "//anon";
                maps.add(new PerfRecord.Mmap(
                        -1,
                        pid,
                        pid,
                        Long.parseUnsignedLong(r[0], 16),
                        Long.parseUnsignedLong(r[1], 16) - Long.parseUnsignedLong(r[0], 16),
                        Long.parseUnsignedLong(f[3], 16),
                        Integer.parseInt(dev[0], 16),
                        Integer.parseInt(dev[1], 16),
                        Long.parseLong(f[5]),
                        0,
                        new byte[0],
                        f[2].charAt(2) == 'x' ? 5 : 1,
                        2,
                        path,
                        true,
                        f[2].charAt(2) != 'x'));
            }
        }
        return new Run(fns, maps);
    }

    private static void runtimeSymbols(Path exe, boolean pie) throws Exception {
        Run r = run(exe, PID);
        try (Symbolizer s = new Symbolizer(new Symbolizer.Options(true, true, Path.of("/nonexistent")))) {
            r.maps().forEach(s::accept);
            for (String fn : List.of("add_one", "compute_sum", "outer_with_inline", "main")) {
                long pc = r.functions().get(fn);
                Frame f = s.symbolize(PID, pc + 2);
                assertEquals(fn, f.symbol(), f.toString());
                assertEquals(2, f.offset());
                assertEquals(exe.toString(), f.module());
                assertEquals(pc + 2, f.pc());
                assertTrue(f.file() != null && f.file().endsWith("symbols_c.c"), f.toString());
                assertTrue(f.line() > 0);
                // as a return address: looked up at pc - 1, still reported at pc
                Frame ra = s.symbolize(PID, pc + 1, true);
                assertEquals(fn, ra.symbol());
                assertEquals(1, ra.offset());
            }
            Map<String, SymBuild.NmSym> nm = SymBuild.nm(exe, false);
            Frame f = s.symbolize(PID, r.functions().get("add_one"));
            assertEquals(nm.get("add_one").value(), f.vaddr(), "vaddr of a " + (pie ? "PIE" : "fixed") + " executable");
            // the function before main's start belongs to the previous function or none, never to main
            Frame line = s.symbolize(PID, r.functions().get("add_one") + 1);
            assertEquals(SymBuild.lineOf("symbols_c.c", "LINE-ADD-ONE"), line.line(), line.toString());
            // libc through its own mapping (puts is a real libc address in a PIE; in a non-PIE it may be a PLT stub)
            if (pie) {
                Frame p = s.symbolize(PID, r.functions().get("puts"));
                assertTrue(p.module().contains("libc.so.6"), p.toString());
                assertTrue(Set.of("puts", "_IO_puts").contains(p.symbol()), p.toString());
                assertEquals(0, p.offset());
            }
            // inlined frames: some pc of outer_with_inline is inside inlined_helper
            long o = r.functions().get("outer_with_inline");
            boolean inl = false;
            for (long pc = o; pc < o + nm.get("outer_with_inline").size(); pc++) {
                List<Frame> fr = s.symbolizeInlined(PID, pc, false);
                assertEquals("outer_with_inline", fr.getLast().symbol());
                assertEquals(s.symbolize(PID, pc), fr.getLast());
                if (fr.size() == 2) {
                    assertEquals("inlined_helper", fr.getFirst().symbol());
                    assertTrue(fr.getFirst().inlined());
                    assertEquals(
                            SymBuild.lineOf("symbols_c.c", "LINE-CALL-INLINE"),
                            fr.getLast().line());
                    inl = true;
                }
            }
            assertTrue(inl);
            // an address in no mapping
            Frame u = s.symbolize(PID, 0x10L);
            assertEquals(Frame.UNKNOWN, u.module());
            assertEquals(Frame.UNKNOWN, u.symbol());
            // the kernel
            assertEquals(
                    Symbolizer.KERNEL, s.symbolize(PID, 0xffffffff81000000L).module());
            // another pid knows nothing
            assertEquals(
                    Frame.UNKNOWN,
                    s.symbolize(PID + 1, r.functions().get("main")).symbol());
        }
    }

    @Test
    void runtimePie() throws Exception {
        runtimeSymbols(SymBuild.compile("symbols_c.c", "symbols_c_pie", "-O2", "-g", "-fPIE", "-pie"), true);
    }

    @Test
    void runtimeNonPie() throws Exception {
        runtimeSymbols(SymBuild.compile("symbols_c.c", "symbols_c_nopie", "-O2", "-g", "-fno-pie", "-no-pie"), false);
    }

    /**
     * A program stripped of everything, its symbols and line tables in a debug file beside it
     * (.gnu_debuglink), as distributions ship them: both come from that file.
     */
    @Test
    void symbolsAndLinesOfAStrippedProgramComeFromItsDebugFile() throws Exception {
        Path exe = SymBuild.compile("symbols_c.c", "symbols_c_split", "-O2", "-g", "-fPIE", "-pie");
        Path stripped = exe.resolveSibling("symbols_c_split_stripped");
        Path debug = exe.resolveSibling("symbols_c_split_stripped.debug");
        Objcopy.split(exe, "--strip-all", debug, stripped);
        assertTrue(SymBuild.nm(stripped, false).isEmpty(), "the stripped copy has no symbols of its own");
        Run r = run(stripped, PID);
        try (Symbolizer s = new Symbolizer(new Symbolizer.Options(true, false, Path.of("/nonexistent")))) {
            r.maps().forEach(s::accept);
            for (String fn : List.of("add_one", "compute_sum", "main")) {
                Frame f = s.symbolize(PID, r.functions().get(fn) + 1);
                assertEquals(fn, f.symbol(), f.toString());
                assertEquals(stripped.toString(), f.module());
                assertTrue(f.file() != null && f.file().endsWith("symbols_c.c"), f.toString());
            }
            Frame line = s.symbolize(PID, r.functions().get("add_one") + 1);
            assertEquals(SymBuild.lineOf("symbols_c.c", "LINE-ADD-ONE"), line.line(), line.toString());
        }
    }

    @Test
    void perfMapForJitCode(@TempDir Path dir) throws Exception {
        Files.writeString(
                PerfMap.pathFor(dir, PID),
                "7f0000001000 40 LFoo;::bar (interpreted)\n"
                        + "0x7f0000001040 0x20 Interpreter\n"
                        + "garbage line\n"
                        + "7f0000002000 100 void Baz.qux(int)\n");
        try (Symbolizer s = new Symbolizer(new Symbolizer.Options(false, false, dir))) {
            s.accept(mmap(PID, 0x7f0000000000L, 0x7f0000010000L, 0, "//anon", true));
            Frame f = s.symbolize(PID, 0x7f0000001010L);
            assertEquals("LFoo;::bar (interpreted)", f.symbol());
            assertEquals(0x10, f.offset());
            assertEquals(PerfMap.pathFor(dir, PID).toString(), f.module());
            assertEquals("Interpreter", s.symbolize(PID, 0x7f0000001040L).symbol());
            assertEquals("void Baz.qux(int)", s.symbolize(PID, 0x7f00000020ffL).symbol());
            // inside the anon mapping but in no entry
            Frame u = s.symbolize(PID, 0x7f0000003000L);
            assertEquals(Frame.UNKNOWN, u.symbol());
            assertEquals("//anon", u.module());
            // no mapping seen at all: the perf map still applies
            Files.writeString(PerfMap.pathFor(dir, PID + 1), "1000 10 jitted\n");
            assertEquals("jitted", s.symbolize(PID + 1, 0x1008).symbol());
        }
        PerfMap m = PerfMap.load(PerfMap.pathFor(dir, PID));
        assertEquals(3, m.size());
        assertNull(m.lookup(0x7f0000001060L));
    }

    @Test
    void aPcNoSymbolOrFdeCoversIsModulePlusOffset() throws Exception {
        Path exe = SymBuild.compile("cold.c", "cold_sym", "-O2", "-g");
        long base = 0x555500000000L;
        try (Symbolizer s = new Symbolizer()) {
            s.accept(mmap(PID, base, base + 0x1000, 0, exe.toString(), true));
            // the ELF header: mapped from the file, in no function
            Frame f = s.symbolize(PID, base + 0x40);
            assertEquals("cold_sym+0x40", f.symbol());
            assertTrue(f.known());
            assertEquals(0x40, f.vaddr());
            // a return address is looked up at pc - 1 but named by itself, as perf prints it
            assertEquals("cold_sym+0x40", s.symbolize(PID, base + 0x40, true).symbol());
        }
        assertEquals("libz.so.1+0x1a2b", Symbolizer.moduleOffset("/usr/lib/libz.so.1", 0x1a2b));
    }

    @Test
    void vdso() throws Exception {
        // this JVM's own vDSO: the same image the target gets from the same kernel
        long start = -1;
        long end = -1;
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            if (line.endsWith("[vdso]")) {
                String[] r = line.substring(0, line.indexOf(' ')).split("-");
                start = Long.parseUnsignedLong(r[0], 16);
                end = Long.parseUnsignedLong(r[1], 16);
            }
        }
        assumeTrue(start > 0, "no vDSO");
        byte[] image = java.lang.foreign.MemorySegment.ofAddress(start)
                .reinterpret(end - start)
                .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        ElfSymbols img = ElfSymbols.fromImage("[vdso]", image);
        ElfSymbols.Symbol cg = img.symbols().stream()
                .filter(x -> x.name().endsWith("clock_gettime"))
                .findFirst()
                .orElseThrow();
        // a target whose vDSO sits elsewhere
        long base = 0x7ffff7fc1000L;
        try (Symbolizer s = new Symbolizer()) {
            s.accept(mmap(PID, base, base + (end - start), 0, "[vdso]", true));
            long pc = base
                    + (cg.start()
                            - img.segments().getFirst().vaddr()
                            + img.segments().getFirst().offset())
                    + 4;
            Frame f = s.symbolize(PID, pc);
            assertEquals("[vdso]", f.module());
            assertTrue(f.symbol().endsWith("clock_gettime"), f.toString());
            assertEquals(4, f.offset());
        }
    }

    @Test
    void mapsForkExecAndOverlap() {
        ProcessMaps maps = new ProcessMaps();
        maps.accept(mmap(1, 0x1000, 0x5000, 0, "/bin/a", true));
        maps.accept(mmap(1, 0x2000, 0x3000, 0, "/lib/b.so", true));
        List<ProcessMaps.Mapping> m = maps.mappings(1);
        assertEquals(3, m.size(), m.toString());
        assertEquals("/bin/a", maps.find(1, 0x1fff).path());
        assertEquals("/lib/b.so", maps.find(1, 0x2000).path());
        ProcessMaps.Mapping right = maps.find(1, 0x4000);
        assertEquals("/bin/a", right.path());
        assertEquals(0x3000, right.start());
        assertEquals(0x2000, right.pgoff(), "the right piece keeps its file offset");
        assertNull(maps.find(1, 0x5000));

        // fork: the child starts with a copy, later changes stay apart
        maps.accept(new PerfRecord.Fork(-1, 2, 1, 2, 1));
        assertEquals(3, maps.mappings(2).size());
        maps.accept(mmap(2, 0x9000, 0xa000, 0, "/lib/c.so", true));
        assertNull(maps.find(1, 0x9000));
        assertEquals("/lib/c.so", maps.find(2, 0x9000).path());
        // a new thread (pid == ppid) is no new process
        maps.accept(new PerfRecord.Fork(-1, 1, 1, 7, 1));
        assertTrue(maps.mappings(7).isEmpty());

        // exec: the mappings of the old image are gone, the new image's come after
        maps.accept(new PerfRecord.Comm(-1, 2, 2, "ls", false));
        assertEquals(4, maps.mappings(2).size(), "a plain rename keeps the maps");
        maps.accept(new PerfRecord.Comm(-1, 2, 2, "ls", true));
        assertTrue(maps.mappings(2).isEmpty());
        maps.accept(mmap(2, 0x1000, 0x2000, 0, "/bin/ls", true));
        assertEquals("/bin/ls", maps.find(2, 0x1000).path());
        assertEquals("/bin/a", maps.find(1, 0x1000).path(), "the parent is untouched");
        assertNotNull(maps.find(1, 0x2fff));
    }

    @Test
    void cachedPerBuildId() throws Exception {
        Path exe = SymBuild.compile("symbols_c.c", "symbols_c_pie", "-O2", "-g", "-fPIE", "-pie");
        byte[] bid = ElfSymbols.load(exe).buildId();
        try (Symbolizer s = new Symbolizer()) {
            var a = new ProcessMaps.Mapping(0x1000, 0x2000, 0, exe.toString(), bid, 0, 0, 0, 5, true);
            var b = new ProcessMaps.Mapping(0x5000, 0x6000, 0, "/other/name/of/it", bid, 0, 0, 0, 5, true);
            var c = new ProcessMaps.Mapping(0x5000, 0x6000, 0, exe.toString(), new byte[0], 0, 0, 1, 5, true);
            ElfSymbols first = s.symbols(a).orElseThrow();
            assertTrue(first == s.symbols(b).orElseThrow(), "same build-id, same symbols");
            assertTrue(first != s.symbols(c).orElseThrow(), "no build-id: keyed by path and inode");
        }
    }

    @Test
    void unknownModuleFile() throws Exception {
        try (Symbolizer s = new Symbolizer()) {
            s.accept(mmap(PID, 0x400000, 0x401000, 0, "/nonexistent/lib.so", true));
            Frame f = s.symbolize(PID, 0x400010);
            assertEquals("/nonexistent/lib.so", f.module());
            assertEquals(Frame.UNKNOWN, f.symbol());
            assertEquals("[unknown] (/nonexistent/lib.so)", f.toString());
        }
    }
}
