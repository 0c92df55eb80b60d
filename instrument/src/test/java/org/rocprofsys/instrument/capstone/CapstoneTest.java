package org.rocprofsys.instrument.capstone;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfSymbol;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.testkit.Disassembly;

class CapstoneTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static Insn one(Capstone cs, String bytes, long at) {
        List<Insn> l = cs.disassemble(hex(bytes), at);
        assertEquals(1, l.size(), bytes);
        return l.getFirst();
    }

    @Test
    void decodesOperandsNeededForRelocation() {
        try (Capstone cs = Capstone.openX86_64()) {
            assertTrue(cs.versionMajor() == 4 || cs.versionMajor() == 5);
            checkDetails(cs);
        }
    }

    /** Capstone 5's layout, against a real libcapstone.so.5 when the environment names one. */
    @Test
    void capstone5LayoutWhenAvailable() {
        String lib = System.getenv("ROCPROFSYS_TEST_CAPSTONE5");
        Assumptions.assumeTrue(lib != null && Files.exists(Path.of(lib)), "no libcapstone.so.5 given");
        try (Capstone cs = Capstone.openX86_64(Path.of(lib))) {
            assertEquals(5, cs.versionMajor());
            checkDetails(cs);
        }
    }

    private static void checkDetails(Capstone cs) {
        Insn mov = one(cs, "48 8b 05 10 00 00 00", 0x1000);
        assertEquals("mov", mov.mnemonic());
        assertEquals("rax, qword ptr [rip + 0x10]", mov.opStr());
        assertEquals(new Insn.RipOperand(3, 4, 0x1017), mov.rip());
        assertNull(mov.branch());

        // Capstone 4 reports disp_size 2 for this one (0x66 prefix); the displacement is 32 bits
        Insn movdqa = one(cs, "66 0f 6f 05 e8 72 09 00", 0x1000);
        assertEquals(new Insn.RipOperand(4, 4, 0x1008 + 0x972e8), movdqa.rip());
        Insn vmov = one(cs, "c5 f9 6f 05 e8 72 09 00", 0x1000);
        assertEquals(new Insn.RipOperand(4, 4, 0x1008 + 0x972e8), vmov.rip());

        Insn cmp = one(cs, "83 3d 10 00 00 00 05", 0x1000);
        assertEquals(new Insn.RipOperand(2, 4, 0x1017), cmp.rip());

        Insn call = one(cs, "e8 fb 0f 00 00", 0x1000);
        assertTrue(call.isCall());
        assertEquals(new Insn.RelativeBranch(1, 4, 0x2000), call.branch());

        Insn jmp8 = one(cs, "eb fe", 0x1000);
        assertEquals(new Insn.RelativeBranch(1, 1, 0x1000), jmp8.branch());
        assertTrue(jmp8.in(Group.JUMP));
        assertFalse(jmp8.isIndirectJump());

        Insn je = one(cs, "74 05", 0x1000);
        assertEquals(new Insn.RelativeBranch(1, 1, 0x1007), je.branch());
        Insn je32 = one(cs, "0f 84 00 01 00 00", 0x1000);
        assertEquals(new Insn.RelativeBranch(2, 4, 0x1106), je32.branch());

        assertEquals("loop", one(cs, "e2 fe", 0x1000).mnemonic());
        assertEquals(0x1000, one(cs, "e2 fe", 0x1000).branch().target());
        assertEquals("jrcxz", one(cs, "e3 00", 0x1000).mnemonic());
        Insn xbegin = one(cs, "c7 f8 00 00 00 00", 0x1000);
        assertEquals("xbegin", xbegin.mnemonic());
        assertEquals(0x1006, xbegin.branch().target());

        Insn ret = one(cs, "c3", 0x1000);
        assertTrue(ret.isReturn());
        assertTrue(one(cs, "ff e0", 0x1000).isIndirectJump());
        Insn jmpMem = one(cs, "ff 25 00 00 00 00", 0x1000);
        assertTrue(jmpMem.isIndirectJump());
        assertEquals(0x1006, jmpMem.rip().target());
        assertEquals("endbr64", one(cs, "f3 0f 1e fa", 0x1000).mnemonic());
        assertTrue(one(cs, "0f 05", 0x1000).in(Group.INT));

        // decoding stops at the first invalid byte sequence
        List<Insn> partial = cs.disassemble(hex("90 90 06 90"), 0x2000);
        assertEquals(2, partial.size());
        assertEquals(0x2002, partial.getLast().end());
        assertTrue(cs.disassemble(new byte[0], 0).isEmpty());
    }

    @Test
    void chunkedDecodingMatchesObjdump(@TempDir Path dir) throws Exception {
        // a function much longer than one decoding chunk
        StringBuilder src = new StringBuilder("volatile int sink;\nvoid big(void) {\n");
        for (int i = 0; i < 1500; i++)
            src.append("  sink = sink * 3 + ").append(i).append(";\n");
        src.append("}\nint main(void) { big(); return sink; }\n");
        Path bin = TestBinaries.compileC(dir, "big", src.toString(), "-O0");
        ElfFile elf = ElfFile.open(bin);
        ElfSymbol big = elf.symtab().stream()
                .filter(s -> s.name().equals("big"))
                .findFirst()
                .orElseThrow();
        List<Insn> insns;
        try (Capstone cs = Capstone.openX86_64()) {
            insns = cs.disassemble(elf.segmentAt(big.value(), big.size()), big.value());
        }
        String dump = Disassembly.of(bin, big.value(), big.value() + big.size(), "-M", "intel", "--no-show-raw-insn");
        Matcher m = Pattern.compile("^\\s+([0-9a-f]+):\\s+(\\S+)", Pattern.MULTILINE)
                .matcher(dump);
        List<Long> addrs = new ArrayList<>();
        List<String> mnems = new ArrayList<>();
        while (m.find()) {
            addrs.add(Long.parseLong(m.group(1), 16));
            mnems.add(m.group(2));
        }
        assertTrue(insns.size() > 4000, "got " + insns.size());
        assertEquals(addrs.size(), insns.size());
        for (int i = 0; i < insns.size(); i++) {
            assertEquals(addrs.get(i), insns.get(i).address());
            assertEquals(mnems.get(i), insns.get(i).mnemonic(), "at " + Long.toHexString(addrs.get(i)));
        }
        assertEquals(big.value() + big.size(), insns.getLast().end());
    }

    @Test
    void missingLibraryIsAClearError(@TempDir Path dir) {
        CapstoneException e =
                assertThrows(CapstoneException.class, () -> Capstone.openX86_64(dir.resolve("libcapstone.so.99")));
        assertTrue(e.getMessage().contains("Capstone not found"), e.getMessage());
        assertTrue(String.join(" ", Capstone.SONAMES).contains("libcapstone.so.4"));
    }
}
