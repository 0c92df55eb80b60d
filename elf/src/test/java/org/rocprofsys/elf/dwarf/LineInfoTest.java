package org.rocprofsys.elf.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rocprofsys.elf.testbin.SymBuild;
import org.rocprofsys.testkit.Command;

class LineInfoTest {

    /** addr2line -a -f -i -C: per address, innermost first. */
    private static Map<Long, List<LineInfo.Location>> addr2line(Path exe, List<Long> addrs) throws Exception {
        StringBuilder in = new StringBuilder();
        addrs.forEach(a -> in.append("0x").append(Long.toHexString(a)).append('\n'));
        String out = Command.of("addr2line", "-a", "-f", "-i", "-C", "-e", exe.toString())
                .stdin(in.toString())
                .ok();
        Map<Long, List<LineInfo.Location>> res = new LinkedHashMap<>();
        List<LineInfo.Location> cur = null;
        String[] lines = out.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.startsWith("0x")) {
                cur = new ArrayList<>();
                res.put(Long.parseUnsignedLong(l.substring(2), 16), cur);
            } else {
                String pos = lines[++i].replaceFirst(" \\(discriminator \\d+\\)$", "");
                int c = pos.lastIndexOf(':');
                String file = pos.substring(0, c);
                String line = pos.substring(c + 1);
                cur.add(new LineInfo.Location(l, file, line.equals("?") ? 0 : Integer.parseInt(line)));
            }
        }
        return res;
    }

    private static void compareAll(Path exe, List<String> functions, boolean cpp) throws Exception {
        Map<String, SymBuild.NmSym> nm = SymBuild.nm(exe, cpp);
        List<Long> addrs = new ArrayList<>();
        for (String fn : functions) {
            SymBuild.NmSym s = nm.get(fn);
            for (long a = s.value(); a < s.value() + s.size(); a++) {
                addrs.add(a);
            }
        }
        Map<Long, List<LineInfo.Location>> oracle = addr2line(exe, addrs);
        int inlinedSeen = 0;
        int compared = 0;
        try (LineInfo li = LineInfo.open(exe).orElseThrow()) {
            for (Map.Entry<Long, List<LineInfo.Location>> e : oracle.entrySet()) {
                List<LineInfo.Location> want = e.getValue();
                if (want.getFirst().file().equals("??")) {
                    continue;
                }
                List<LineInfo.Location> got = li.frames(e.getKey());
                assertEquals(want, got, exe.getFileName() + " at 0x" + Long.toHexString(e.getKey()));
                assertEquals(Optional.of(want.getFirst()), li.lookup(e.getKey()));
                compared++;
                if (want.size() > 1) {
                    inlinedSeen++;
                }
            }
        }
        assertTrue(compared > 20, "compared " + compared);
        if (!cpp) {
            assertTrue(inlinedSeen > 0, "some address of outer_with_inline is in inlined_helper");
        }
    }

    @Test
    void matchesAddr2lineC() throws Exception {
        for (String[] v :
                new String[][] {{"symbols_c_pie", "-fPIE", "-pie"}, {"symbols_c_nopie", "-fno-pie", "-no-pie"}}) {
            Path exe = SymBuild.compile("symbols_c.c", v[0], "-O2", "-g", v[1], v[2]);
            compareAll(exe, List.of("add_one", "compute_sum", "outer_with_inline"), false);
        }
    }

    @Test
    void matchesAddr2lineCpp() throws Exception {
        Path exe = SymBuild.compile("symbols_cpp.cpp", "symbols_cpp_pie", "-O2", "-g", "-fPIE", "-pie");
        compareAll(
                exe,
                List.of(
                        "ns::Widget<int>::run(int)",
                        "ns::Widget<double>::run(double)",
                        "ns::inner::compute(long, char const*)"),
                true);
    }

    @Test
    void knownLines() throws Exception {
        Path exe = SymBuild.compile("symbols_c.c", "symbols_c_pie", "-O2", "-g", "-fPIE", "-pie");
        Map<String, SymBuild.NmSym> nm = SymBuild.nm(exe, false);
        int addOne = SymBuild.lineOf("symbols_c.c", "LINE-ADD-ONE");
        int inline = SymBuild.lineOf("symbols_c.c", "LINE-INLINE");
        int call = SymBuild.lineOf("symbols_c.c", "LINE-CALL-INLINE");
        try (LineInfo li = LineInfo.open(exe).orElseThrow()) {
            SymBuild.NmSym s = nm.get("add_one");
            boolean sawMarker = false;
            for (long a = s.value(); a < s.value() + s.size(); a++) {
                LineInfo.Location l = li.lookup(a).orElseThrow();
                assertTrue(l.file().endsWith("/symbols_c.c"), l.file());
                assertTrue(l.line() >= addOne - 2 && l.line() <= addOne + 1, l.toString());
                sawMarker |= l.line() == addOne;
            }
            assertTrue(sawMarker, "the body line of add_one");
            SymBuild.NmSym o = nm.get("outer_with_inline");
            boolean sawInline = false;
            for (long a = o.value(); a < o.value() + o.size(); a++) {
                List<LineInfo.Location> f = li.frames(a);
                if (f.size() == 2) {
                    assertEquals("inlined_helper", f.get(0).function());
                    assertTrue(f.get(0).line() == inline || f.get(0).line() == inline + 1, f.toString());
                    assertEquals(
                            new LineInfo.Location("outer_with_inline", f.get(0).file(), call), f.get(1));
                    sawInline = true;
                }
            }
            assertTrue(sawInline);
        }
    }

    @Test
    void noDwarfIsEmpty() throws Exception {
        Path exe = SymBuild.compile("symbols_c.c", "symbols_c_nodebug", "-O2", "-fPIE", "-pie");
        assertFalse(LineInfo.open(exe).isPresent(), "no -g: no line info");
        Path dbg = SymBuild.compile("symbols_c.c", "symbols_c_pie", "-O2", "-g", "-fPIE", "-pie");
        Path stripped = dbg.resolveSibling("symbols_c_pie_stripped");
        Files.copy(dbg, stripped, StandardCopyOption.REPLACE_EXISTING);
        Command.of("strip", "-g", stripped.toString()).ok();
        assertFalse(LineInfo.open(stripped).isPresent(), "strip -g: no line info");
        assertFalse(LineInfo.open(Path.of("/nonexistent")).isPresent());
    }
}
