package org.rocprofsys.sampler.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.DebugFiles;

class KernelSymbolsTest {
    @TempDir
    Path dir;

    private static final String KALLSYMS = """
            ffffffff81000000 T _stext
            ffffffff81234500 T read_zero
            ffffffff81234600 t copy_user_generic
            ffffffff81300000 D some_data
            ffffffffc0a01000 t ext4_file_read_iter\t[ext4]
            """;

    @Test
    void kernelPcsAreNamedAsPerfReportNamesThem() throws Exception {
        Path k = Files.writeString(dir.resolve("kallsyms"), KALLSYMS);
        KernelSymbols ks = KernelSymbols.load(k);
        assertNull(ks.unavailableReason());
        assertEquals("read_zero", ks.lookup(0xffffffff81234510L).name());
        assertEquals(0x10, ks.lookup(0xffffffff81234510L).offset());
        assertEquals("copy_user_generic", ks.lookup(0xffffffff81234700L).name()); // data symbols name no code
        assertEquals("ext4_file_read_iter", ks.lookup(0xffffffffc0a01004L).name());
        try (Symbolizer s = new Symbolizer(new Symbolizer.Options(false, false, dir, DebugFiles.system(), k))) {
            Frame f = s.symbolize(1, 0xffffffff81234601L, true);
            assertEquals("[k] copy_user_generic", f.symbol());
            assertEquals(Symbolizer.KERNEL, f.module());
        }
    }

    @Test
    void hiddenAddressesSayWhy() throws Exception {
        Path k =
                Files.writeString(dir.resolve("kallsyms"), "0000000000000000 T _stext\n0000000000000000 T read_zero\n");
        KernelSymbols ks = KernelSymbols.load(k);
        assertTrue(ks.unavailableReason().contains("kptr_restrict"), ks.unavailableReason());
        assertNull(ks.lookup(0xffffffff81234510L));
        try (Symbolizer s = new Symbolizer(new Symbolizer.Options(false, false, dir, DebugFiles.system(), k))) {
            assertEquals(Frame.UNKNOWN, s.symbolize(1, 0xffffffff81234510L).symbol());
        }
    }
}
