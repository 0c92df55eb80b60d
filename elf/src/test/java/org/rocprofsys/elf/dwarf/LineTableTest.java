package org.rocprofsys.elf.dwarf;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfSymbol;
import org.rocprofsys.elf.TestSymbols;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.testkit.Command;

/** The line reader as rocprof-sys-instrument's labels use it: one position per function entry. */
class LineTableTest {
    static final String SRC = """
            #include <stdio.h>
            int counter = 3;

            static int helper(int x) {
              return x * counter;
            }

            int work(int n) {
              int s = 0;
              for (int i = 0; i < n; i++)
                s += helper(i);
              return s;
            }

            int main(int argc, char **argv) {
              (void) argv;
              printf("%d\\n", work(argc));
              return 0;
            }
            """;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"-gdwarf-5", "-gdwarf-4", "-gz"})
    void entriesMatchAddr2line(String flavour) throws Exception {
        Path bin = TestBinaries.compileC(dir, "lines", SRC, "-O0", "-g", flavour);
        ElfFile elf = ElfFile.open(bin);
        LineInfo t = LineInfo.open(bin).orElseThrow();
        assertFalse(t.lookup(TestSymbols.named(elf, "main").value()).isEmpty());
        List<Long> probes = new ArrayList<>();
        for (ElfSymbol s : elf.symtab()) {
            if (s.definedFunction() && List.of("helper", "work", "main").contains(s.name())) {
                probes.add(s.value());
                probes.add(s.value() + s.size() / 2);
            }
        }
        assertEquals(6, probes.size());
        for (long a : probes) {
            String out = Command.of("addr2line", "-e", bin.toString(), "0x" + Long.toHexString(a))
                    .ok()
                    .trim();
            String fileLine = out.split(" ")[0];
            int colon = fileLine.lastIndexOf(':');
            LineInfo.Location s =
                    t.lookup(a).orElseThrow(() -> new AssertionError("no line for 0x" + Long.toHexString(a)));
            assertEquals(Integer.parseInt(fileLine.substring(colon + 1)), s.line(), out);
            assertEquals(
                    Path.of(fileLine.substring(0, colon)).getFileName(),
                    Path.of(s.file()).getFileName(),
                    out);
            assertEquals("lines.c", s.fileName(), out);
        }
        ElfSymbol work = TestSymbols.named(elf, "work");
        assertEquals(8, t.lookup(work.value()).orElseThrow().line());
        t.close();
    }

    @Test
    void noDebugInfoMeansNoLines() throws Exception {
        Path bin = TestBinaries.compileC(dir, "nolines", SRC, "-O0", "-g0");
        assertTrue(LineInfo.open(bin).isEmpty());
        assertTrue(LineInfo.open(bin).flatMap(l -> l.lookup(0x1000)).isEmpty());
    }
}
