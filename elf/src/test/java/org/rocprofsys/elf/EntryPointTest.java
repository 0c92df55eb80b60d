package org.rocprofsys.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.rocprofsys.elf.testbin.SymBuild;

/** main found from _start in stripped executables, as Dyninst finds it. */
class EntryPointTest {
    @Test
    void mainOfStrippedPieAndNonPieExecutables() throws Exception {
        for (List<String> flags : List.of(List.of("-fPIE", "-pie"), List.of("-fno-pie", "-no-pie"))) {
            String name = "cold" + flags.getFirst().replace("-", "_");
            Path exe = CfiPrograms.cold(name, flags.toArray(String[]::new));
            long main = SymBuild.nm(exe, false).get("main").value();
            Path stripped = CfiPrograms.stripped(exe, name + ".stripped");
            assertEquals(OptionalLong.of(main), EntryPoint.main(ElfFile.open(stripped)), flags.toString());
        }
    }

    @Test
    void aLibraryHasNone() throws Exception {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.isRegularFile(libc), "no Debian x86-64 libc");
        assertTrue(EntryPoint.main(ElfFile.open(libc)).isEmpty());
    }

    @Test
    void debiansGzipMainStartsAnFde() throws Exception {
        Path gzip = Path.of("/usr/bin/gzip");
        assumeTrue(Files.isRegularFile(gzip), "gzip is not installed");
        ElfFile elf = ElfFile.open(gzip);
        long main = EntryPoint.main(elf).orElseThrow();
        assertTrue(elf.frameDescriptions().stream().anyMatch(f -> f.begin() == main && f.entryState()));
    }
}
