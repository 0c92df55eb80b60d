package org.rocprofsys.instrument.plan;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.instrument.capstone.Capstone;
import org.rocprofsys.instrument.capstone.Insn;
import org.rocprofsys.instrument.select.SelectionMessage;
import org.rocprofsys.instrument.select.SelectionOptions;
import org.rocprofsys.testkit.Disassembly;

class PlannerTest {
    /**
     * Hand-written entries the patcher's tests run too (the lines of a C {@code __asm__} string): a
     * RIP-relative load and a short conditional jump.
     */
    static final String RIPLOADER_AND_JCC = """
              ".globl riploader\\n.type riploader,@function\\nriploader:\\n"
              "  movl counter(%rip), %eax\\n  addl $1, %eax\\n  ret\\n.size riploader, .-riploader\\n"
              ".globl asm_jcc\\n.type asm_jcc,@function\\nasm_jcc:\\n"
              "  testl %edi, %edi\\n  je 1f\\n  movl $1, %eax\\n  ret\\n1:\\n  movl $2, %eax\\n  ret\\n.size asm_jcc, .-asm_jcc\\n"
            """;

    /** C functions plus hand-written entries that exercise each patchability rule. */
    static final String PROG = """
            #include <stdio.h>
            int counter = 2;
            __attribute__((noinline)) int inner(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * counter; return s; }
            __attribute__((noinline)) int outer(int x) { return inner(x) + 1; }
            __attribute__((noinline)) int sw(int x) {
              switch (x) { case 0: return 3; case 1: return 5; case 2: return 9; case 3: return 11;
                           case 4: return 17; case 5: return 23; default: return 0; } }
            __attribute__((noinline)) int helper(void) { return counter; }
            __asm__(".text\\n"
            """ + RIPLOADER_AND_JCC + """
              ".globl asm_call\\n.type asm_call,@function\\nasm_call:\\n"
              "  call helper\\n  addl $1, %eax\\n  ret\\n.size asm_call, .-asm_call\\n"
              ".globl asm_jmp\\n.type asm_jmp,@function\\nasm_jmp:\\n"
              "  jmp 1f\\n  nop\\n  nop\\n  nop\\n1:\\n  movl $5, %eax\\n  ret\\n.size asm_jmp, .-asm_jmp\\n"
              ".globl asm_loop\\n.type asm_loop,@function\\nasm_loop:\\n"
              "  loop 1f\\n  nop\\n  nop\\n  nop\\n1:\\n  movl $5, %eax\\n  ret\\n.size asm_loop, .-asm_loop\\n"
              ".globl asm_target\\n.type asm_target,@function\\nasm_target:\\n"
              "  xorl %eax, %eax\\n1:\\n  incl %eax\\n  cmpl $10, %eax\\n  jne 1b\\n  ret\\n.size asm_target, .-asm_target\\n"
              ".globl asm_ret\\n.type asm_ret,@function\\nasm_ret:\\n"
              "  testl %edi, %edi\\n  jne 1f\\n  ret\\n1:\\n  movl $7, %eax\\n  ret\\n.size asm_ret, .-asm_ret\\n"
              ".globl asm_short\\n.type asm_short,@function\\nasm_short:\\n"
              "  xorl %eax, %eax\\n  ret\\n.size asm_short, .-asm_short\\n"
              ".globl asm_self\\n.type asm_self,@function\\nasm_self:\\n"
              "  decl %edi\\n  jne asm_self\\n  ret\\n.size asm_self, .-asm_self\\n"
              ".globl asm_pre\\n.type asm_pre,@function\\nasm_pre:\\n"
              "  addl $1, %edi\\n.size asm_pre, .-asm_pre\\n"
              ".globl asm_post\\n.type asm_post,@function\\nasm_post:\\n"
              "  movl %edi, %eax\\n  addl $2, %eax\\n  ret\\n.size asm_post, .-asm_post\\n"
              ".globl asm_entered\\n.type asm_entered,@function\\nasm_entered:\\n"
              "  xorl %eax, %eax\\n  addl $2, %eax\\n  ret\\n.size asm_entered, .-asm_entered\\n"
              "  int3\\n.Lnosymbol:\\n  jmp asm_entered+2\\n");
            int riploader(void); int asm_jcc(int); int asm_call(void); int asm_jmp(void); int asm_loop(void);
            int asm_target(void); int asm_ret(int); int asm_short(void); void asm_self(int);
            int main(int argc, char **argv) {
              (void) argv;
              printf("%d\\n", outer(argc) + sw(argc) + riploader() + asm_jcc(argc) + asm_call() + asm_jmp()
                     + asm_target() + asm_ret(argc) + asm_short());
              return 0;
            }
            """;

    @TempDir
    static Path dir;

    static Path pie;
    static Path nopie;

    @RegisterExtension
    static final OpenCapstone CS = new OpenCapstone();

    @BeforeAll
    static void build() throws Exception {
        pie = TestBinaries.compileC(dir, "prog-pie", PROG, "-O0", "-fPIE", "-pie");
        nopie = TestBinaries.compileC(dir, "prog-nopie", PROG, "-O0", "-fno-pie", "-no-pie");
    }

    static PlanResult plan(Path bin, SelectionOptions o) throws Exception {
        return CS.plan(bin, PlannerOptions.of(o));
    }

    /** Selection options that take functions of any size (the planner's rules decide). */
    static SelectionOptions.Builder anySize() {
        return SelectionOptions.builder().minInstructions(0);
    }

    static Map<String, PlannedFunction> planned(PlanResult r) {
        return r.plan().instrumented().stream()
                .collect(Collectors.toMap(p -> p.function().name(), p -> p));
    }

    static Map<String, String> reasons(PlanResult r) {
        return r.plan().excluded().stream()
                .collect(Collectors.toMap(e -> e.function().name(), Exclusion::reason, (a, b) -> a));
    }

    @Test
    void patchabilityRulesAndReasons() throws Exception {
        for (Path bin : List.of(pie, nopie)) {
            PlanResult r = plan(bin, anySize().build());
            Map<String, PlannedFunction> p = planned(r);
            Map<String, String> why = reasons(r);
            for (String ok : List.of("inner", "outer", "sw", "helper", "riploader", "asm_jcc", "asm_call", "asm_jmp")) {
                assertTrue(p.containsKey(ok), bin + ": " + ok + " not planned: " + why.get(ok));
            }
            assertEquals("unrelocatable-instruction", why.get("asm_loop"));
            assertEquals("branch-target-in-patch", why.get("asm_target"));
            assertEquals("return-in-patch", why.get("asm_ret"));
            assertEquals("too-short-for-patch", why.get("asm_short"));
            assertEquals("jump-to-entry", why.get("asm_self"));
            assertEquals("fallthrough-into-entry", why.get("asm_post"));
            // the only jump into it comes from code that has no symbol
            assertEquals("branch-target-in-patch", why.get("asm_entered"));
            assertEquals("main-function", why.get("main"));
            assertEquals("critical-whole-match", why.get("_start"));
            // crt functions have st_size 0 here: nothing to decode, so they are listed only with --all-functions
            assertNull(why.get("register_tm_clones"));
            assertTrue(r.messages().stream()
                    .anyMatch(m -> m.format()
                            .equals("[function][Skipping] no-instrumentable-entry-point :: 'frame_dummy'...")));
            PlanResult all = CS.plan(bin, new PlannerOptions(anySize().build(), LabelFormat.NAME_ONLY, 0, true));
            assertEquals("no-instrumentable-entry-point", reasons(all).get("register_tm_clones"));
            assertEquals(
                    r.plan().available().size() + 6, all.plan().available().size(), "crt functions and _init/_fini");
            // every function is listed once, either instrumented or excluded
            assertEquals(
                    r.plan().available().size(),
                    r.plan().instrumented().size() + r.plan().excluded().size());
            assertTrue(r.plan().overlapping().isEmpty());
            assertEquals(bin == pie, r.plan().sharedObject());
        }
    }

    /** Applies fix-ups as the area builder would for code placed at {@code at}, then decodes it. */
    static List<Insn> relocateAndDecode(PlannedFunction f, long at) {
        return relocateAndDecode(CS.get(), f, at);
    }

    static List<Insn> relocateAndDecode(Capstone cs, PlannedFunction f, long at) {
        byte[] code = f.relocatedCode().clone();
        ByteBuffer bb = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
        for (CodeFixup x : f.fixups()) {
            long value = x.targetVaddr() + x.addend() - (at + x.offset());
            assertTrue(value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE);
            assertEquals(0, bb.getInt(x.offset()), "field is zero before relocation");
            bb.putInt(x.offset(), (int) value);
        }
        List<Insn> insns = cs.disassemble(code, at);
        assertEquals(code.length, insns.getLast().end() - at, "relocated code decodes whole");
        return insns;
    }

    static long objdumpTarget(Path bin, long from, long to, String mnemonicRegex) throws Exception {
        String dump = Disassembly.of(bin, from, to);
        Matcher m = Pattern.compile("\\t(?:" + mnemonicRegex + ")\\s+.*?(?:# )?([0-9a-f]+) <")
                .matcher(dump);
        assertTrue(m.find(), dump);
        return Long.parseLong(m.group(1), 16);
    }

    @Test
    void relocatedCodePointsWhereTheOriginalDid() throws Exception {
        for (Path bin : List.of(pie, nopie)) {
            PlanResult r = plan(bin, anySize().build());
            Map<String, PlannedFunction> p = planned(r);
            long area = ElfFile.open(bin).highestLoadEnd() + 0x10_0000;

            PlannedFunction rip = p.get("riploader");
            assertEquals(6, rip.patchLength());
            assertEquals(1, rip.fixups().size());
            assertEquals(-4, rip.fixups().getFirst().addend());
            List<Insn> ri = relocateAndDecode(rip, area);
            long counter =
                    objdumpTarget(bin, rip.function().address(), rip.function().address() + 6, "mov");
            assertEquals(counter, ri.getFirst().rip().target());
            assertEquals("mov", ri.getFirst().mnemonic());

            PlannedFunction jcc = p.get("asm_jcc");
            assertEquals(9, jcc.patchLength());
            List<Insn> ji = relocateAndDecode(jcc, area);
            assertEquals("je", ji.get(1).mnemonic());
            assertEquals(6, ji.get(1).size(), "rel8 je became 0F 84 rel32");
            long jeTarget =
                    objdumpTarget(bin, jcc.function().address(), jcc.function().address() + 4, "je");
            assertEquals(jeTarget, ji.get(1).branch().target());
            assertEquals("mov", ji.get(2).mnemonic());

            // call helper -> lea r11, [rip + asm_call+5]; push r11; jmp helper
            PlannedFunction call = p.get("asm_call");
            List<Insn> ci = relocateAndDecode(call, area);
            long helper = r.plan().instrumented().stream()
                    .filter(f -> f.function().name().equals("helper"))
                    .findFirst()
                    .orElseThrow()
                    .function()
                    .address();
            assertEquals(
                    List.of("lea", "push", "jmp"),
                    ci.stream().map(Insn::mnemonic).toList());
            assertEquals(call.function().address() + 5, ci.get(0).rip().target());
            assertEquals("r11", ci.get(1).opStr());
            assertEquals(helper, ci.get(2).branch().target());
            assertEquals(
                    objdumpTarget(
                            bin, call.function().address(), call.function().address() + 5, "call"),
                    helper);

            PlannedFunction jmp = p.get("asm_jmp");
            List<Insn> mi = relocateAndDecode(jmp, area);
            assertEquals(5, mi.getFirst().size(), "jmp rel8 became E9 rel32");
            assertEquals(jmp.function().address() + 5, mi.getFirst().branch().target());

            // an -O0 C prologue has nothing PC-relative: push rbp; mov rbp, rsp; ...
            PlannedFunction outer = p.get("outer");
            assertTrue(outer.patchLength() >= 5);
            assertEquals(0x55, outer.relocatedCode()[0] & 0xff);
        }
    }

    @Test
    void callerIncludeForcesOuter() throws Exception {
        SelectionOptions o = SelectionOptions.builder()
                .minInstructions(256)
                .callerInclude("^inner")
                .build();
        assertEquals(0, o.minAddressRange(), "only -i given: the address range becomes 0");
        PlanResult r = plan(nopie, o);
        Map<String, PlannedFunction> p = planned(r);
        assertTrue(p.containsKey("outer"));
        assertFalse(p.containsKey("inner"));
        assertEquals("min-instructions-loop", reasons(r).get("inner"));
        List<String> lines = r.messages().stream().map(SelectionMessage::format).toList();
        assertTrue(lines.contains("[function][Forcing] caller-include-regex :: 'outer'..."), lines.toString());
        assertTrue(lines.contains("[function][Skipping] min-instructions :: 'helper'..."), lines.toString());
        assertEquals(Set.of("outer"), p.keySet());
        assertTrue(r.summary().startsWith("   1 instrumented funcs in "));
    }

    @Test
    void userExcludeRestrictAndInstructionExclude() throws Exception {
        PlanResult r = plan(nopie, anySize().functionExclude("^asm_", "^sw$").build());
        Map<String, String> why = reasons(r);
        assertEquals("function-exclude-regex", why.get("asm_jcc"));
        assertEquals("function-exclude-regex", why.get("sw"));
        assertTrue(planned(r).containsKey("inner"));

        r = plan(
                nopie,
                SelectionOptions.builder().functionRestrict("^(inner|sw)$").build());
        assertEquals(Set.of("inner", "sw"), planned(r).keySet());
        assertEquals("function-restrict-regex", reasons(r).get("outer"));

        r = plan(nopie, anySize().instructionExclude("imul").build());
        assertEquals("instruction-exclude-regex", reasons(r).get("inner"));

        r = plan(nopie, anySize().moduleExclude("prog-nopie$").build());
        assertTrue(r.plan().instrumented().isEmpty());
        assertEquals("module-exclude-regex", reasons(r).get("inner"));

        // defaults: 1024 instructions / 4096 bytes keep all of these small functions out
        r = plan(nopie, SelectionOptions.defaults());
        assertTrue(r.plan().instrumented().isEmpty());
    }
}
