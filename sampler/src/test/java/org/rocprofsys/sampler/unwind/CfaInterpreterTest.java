package org.rocprofsys.sampler.unwind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CFA program interpreter, the expression evaluator and CFI parsing on hand-built bytes. */
class CfaInterpreterTest {
    static final long F = 0x401000;
    /** gcc's x86-64 CIE program: CFA = rsp + 8, return address at CFA - 8. */
    static final byte[] GCC_CIE = {0x0c, 0x07, 0x08, (byte) 0x90, 0x01};

    static Cie cie(byte[] instructions, boolean signal) {
        return new Cie(0, 1, signal ? "zRS" : "zR", 1, -8, X86Regs.RIP, 0x1b, 0xff, signal, true, instructions, 0);
    }

    static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    static UnwindRow row(byte[] fde, long pc) throws CannotUnwindException {
        return CfaInterpreter.rowAt(cie(GCC_CIE, false), F, fde, 0, pc);
    }

    static CfaRule.RegisterOffset cfa(int reg, long off) {
        return new CfaRule.RegisterOffset(reg, off);
    }

    @Test
    void cieInitialRowAtFunctionEntry() throws Exception {
        UnwindRow r = row(new byte[0], F);
        assertEquals(cfa(X86Regs.RSP, 8), r.cfa());
        assertEquals(new Rule.Offset(-8), r.rule(X86Regs.RIP));
        assertNull(r.rule(X86Regs.RBP));
    }

    /** push %rbp; mov %rsp,%rbp; ... ; leave at +24: the classic frame-pointer prologue rows. */
    @Test
    void advanceLocSelectsTheRowOfEachPc() throws Exception {
        byte[] fde = b(
                0x41, 0x0e, 0x10, 0x86, 0x02, // +1: cfa rsp+16, rbp at cfa-16
                0x43, 0x0d, 0x06, // +4: cfa rbp+16
                0x54, 0x0c, 0x07, 0x08); // +24: cfa rsp+8
        assertEquals(cfa(X86Regs.RSP, 8), row(fde, F).cfa());
        assertNull(row(fde, F).rule(X86Regs.RBP));
        assertEquals(cfa(X86Regs.RSP, 16), row(fde, F + 1).cfa());
        assertEquals(new Rule.Offset(-16), row(fde, F + 1).rule(X86Regs.RBP));
        assertEquals(cfa(X86Regs.RSP, 16), row(fde, F + 3).cfa());
        assertEquals(cfa(X86Regs.RBP, 16), row(fde, F + 4).cfa());
        assertEquals(cfa(X86Regs.RBP, 16), row(fde, F + 23).cfa());
        assertEquals(cfa(X86Regs.RSP, 8), row(fde, F + 24).cfa());
        assertEquals(new Rule.Offset(-16), row(fde, F + 24).rule(X86Regs.RBP), "not restored by def_cfa");
    }

    @Test
    void advanceLoc1248WithCodeAlignmentAndSignedOffsets() throws Exception {
        Cie c = new Cie(0, 3, "", 4, -8, X86Regs.RIP, 0, 0xff, false, false, GCC_CIE, 0);
        byte[] fde = b(
                0x02, 0x02, 0x0e, 0x20, // advance_loc1 2*4: cfa offset 32
                0x03, 0x01, 0x00, 0x11, 0x03, 0x7e, // advance_loc2 1*4: rbx at cfa + (-2 * -8) = +16 (sf)
                0x04, 0x01, 0x00, 0x00, 0x00, 0x13, 0x7c); // advance_loc4 1*4: def_cfa_offset_sf -4*-8 = 32
        assertEquals(
                cfa(X86Regs.RSP, 8), CfaInterpreter.rowAt(c, F, fde, 0, F + 7).cfa());
        assertEquals(
                cfa(X86Regs.RSP, 32), CfaInterpreter.rowAt(c, F, fde, 0, F + 8).cfa());
        assertNull(CfaInterpreter.rowAt(c, F, fde, 0, F + 11).rule(X86Regs.RBX));
        assertEquals(
                new Rule.Offset(16), CfaInterpreter.rowAt(c, F, fde, 0, F + 12).rule(X86Regs.RBX));
        assertEquals(
                cfa(X86Regs.RSP, 32), CfaInterpreter.rowAt(c, F, fde, 0, F + 16).cfa());
    }

    @Test
    void rememberAndRestoreStateAroundAnEarlyReturn() throws Exception {
        byte[] fde = b(
                0x41, 0x0e, 0x10, 0x83, 0x02, // +1: push rbx
                0x45, 0x0a, // +6: remember
                0x0e, 0x08, 0xc3, // pop rbx: cfa rsp+8, rbx restored to the CIE's (none)
                0x41, 0x0b); // +7: restore_state
        UnwindRow inEpilogue = row(fde, F + 6);
        assertEquals(cfa(X86Regs.RSP, 8), inEpilogue.cfa());
        assertNull(inEpilogue.rule(X86Regs.RBX));
        UnwindRow after = row(fde, F + 7);
        assertEquals(cfa(X86Regs.RSP, 16), after.cfa());
        assertEquals(new Rule.Offset(-16), after.rule(X86Regs.RBX));
    }

    @Test
    void sameValueUndefinedRegisterValOffsetArgsSize() throws Exception {
        byte[] fde = b(
                0x08, 0x03, // rbx same value
                0x07, 0x10, // rip undefined
                0x09, 0x0c, 0x00, // r12 in rax
                0x14, 0x0d, 0x01, // r13 = cfa - 8
                0x2e, 0x10, // GNU_args_size 16
                0x05, 0x0e, 0x03, // offset_extended r14 at cfa-24
                0x2f, 0x0f, 0x02, // GNU_negative_offset_extended r15 at cfa + 16
                0x06, 0x0e); // restore_extended r14
        UnwindRow r = row(fde, F);
        assertInstanceOf(Rule.SameValue.class, r.rule(X86Regs.RBX));
        assertInstanceOf(Rule.Undefined.class, r.rule(X86Regs.RIP));
        assertEquals(new Rule.Register(X86Regs.RAX), r.rule(X86Regs.R12));
        assertEquals(new Rule.ValOffset(-8), r.rule(X86Regs.R13));
        assertNull(r.rule(X86Regs.R14));
        assertEquals(new Rule.Offset(16), r.rule(X86Regs.R15));
    }

    @Test
    void vectorRegisterColumnsAreParsedAndDropped() throws Exception {
        UnwindRow r = row(b(0x05, 0x11, 0x02, 0x05, 0x10, 0x03), F); // xmm0 (17) at cfa-16: dropped; rip at cfa-24
        assertEquals(new Rule.Offset(-24), r.rule(X86Regs.RIP));
    }

    @Test
    void malformedProgramsAreRefused() {
        assertThrows(CannotUnwindException.class, () -> row(b(0x0b), F), "restore_state with no remember");
        assertThrows(CannotUnwindException.class, () -> row(b(0x3f), F), "unknown opcode");
        assertThrows(CannotUnwindException.class, () -> row(b(0x0c, 0x07), F), "truncated operand");
        assertThrows(
                CannotUnwindException.class,
                () -> CfaInterpreter.rowAt(cie(b(0xc6), false), F, new byte[0], 0, F),
                "restore in a CIE");
    }

    /** gcc's .plt FDE: CFA = rsp + 8 + ((rip & 15) >= 11 ? 8 : 0) (the push of the lazy-binding stub). */
    static final byte[] PLT_FDE = b(
            0x0e, 0x10, 0x46, 0x0e, 0x18, 0x4a, 0x0f, 0x0b, 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24,
            0x22);

    @Test
    void pltCfaExpression() throws Exception {
        long plt = F; // the FDE starts at the .plt
        UnwindRow r = row(PLT_FDE, plt + 16 + 5);
        CfaRule.Expression e = assertInstanceOf(CfaRule.Expression.class, r.cfa());
        RegisterSet regs = RegisterSet.of(plt + 16 + 5, 0x7000, 0);
        DwarfExpression.Memory none = a -> {
            throw new CannotUnwindException("no memory");
        };
        assertEquals(0x7008, DwarfExpression.evaluate(e.expression(), null, regs, none));
        regs.set(X86Regs.RIP, plt + 16 + 11);
        assertEquals(0x7010, DwarfExpression.evaluate(e.expression(), null, regs, none));
        regs.set(X86Regs.RIP, plt + 32 + 12);
        assertEquals(0x7010, DwarfExpression.evaluate(e.expression(), null, regs, none));
        assertEquals(cfa(X86Regs.RSP, 24), row(PLT_FDE, plt + 6).cfa());
    }

    @Test
    void expressionOperations() throws Exception {
        RegisterSet regs = RegisterSet.of(0x10, 0x100, 0x200);
        DwarfExpression.Memory mem = a -> a * 2;
        // lit5 const1s(-3) plus -> 2; dup mul -> 4; const2u 1000 swap minus -> 996
        assertEquals(
                996,
                DwarfExpression.evaluate(
                        b(0x35, 0x09, 0xfd, 0x22, 0x12, 0x1e, 0x0a, 0xe8, 0x03, 0x16, 0x1c), null, regs, mem));
        // bregx rbp(6) -16, deref -> (0x200-16)*2
        assertEquals((0x200 - 16) * 2, DwarfExpression.evaluate(b(0x92, 0x06, 0x70, 0x06), null, regs, mem));
        // initial value (the CFA) plus_uconst 8
        assertEquals(0x1008, DwarfExpression.evaluate(b(0x23, 0x08), 0x1000L, regs, mem));
        // lit1 bra +1 over lit7, lit9 -> 9 ; lit0 bra (not taken) lit7 -> 7
        assertEquals(9, DwarfExpression.evaluate(b(0x31, 0x28, 0x01, 0x00, 0x37, 0x39), null, regs, mem));
        assertEquals(7, DwarfExpression.evaluate(b(0x30, 0x28, 0x01, 0x00, 0x37), null, regs, mem));
        // signed comparison and shifts
        assertEquals(1, DwarfExpression.evaluate(b(0x11, 0x7f, 0x30, 0x2d), null, regs, mem)); // -1 < 0
        assertEquals(-1L >>> 4, DwarfExpression.evaluate(b(0x11, 0x7f, 0x34, 0x25), null, regs, mem));
        assertEquals(-1, DwarfExpression.evaluate(b(0x11, 0x7f, 0x34, 0x26), null, regs, mem));
        assertThrows(
                CannotUnwindException.class,
                () -> DwarfExpression.evaluate(b(0x50), null, regs, mem),
                "DW_OP_reg0 is a location");
        assertThrows(
                CannotUnwindException.class,
                () -> DwarfExpression.evaluate(b(0x73, 0x00), null, regs, mem),
                "rbx is not known");
        assertThrows(
                CannotUnwindException.class, () -> DwarfExpression.evaluate(b(0x22), null, regs, mem), "underflow");
        assertThrows(
                CannotUnwindException.class,
                () -> DwarfExpression.evaluate(b(0x2f, 0xfd, 0xff), null, regs, mem),
                "an endless skip");
    }

    @Test
    void leb128() throws Exception {
        DwarfCursor c = DwarfCursor.of(b(0xe5, 0x8e, 0x26, 0xc0, 0xbb, 0x78, 0x7f, 0x80, 0x01));
        assertEquals(624485, c.uleb());
        assertEquals(-123456, c.sleb());
        assertEquals(-1, c.sleb());
        assertEquals(128, c.uleb());
    }

    /** The rules applied to a stack: the caller's rip, rsp and callee-saved registers. */
    @Test
    void stepRestoresTheCaller() throws Exception {
        byte[] fde = b(0x41, 0x0e, 0x10, 0x83, 0x02, 0x41, 0x0e, 0x18, 0x86, 0x03); // push rbx; push rbp
        UnwindRow r = row(fde, F + 2);
        long sp = 0x7ffd0000L;
        ByteBuffer st = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        st.putLong(0, 0xbbbbL); // saved rbp
        st.putLong(8, 0x3333L); // saved rbx
        st.putLong(16, 0x401234L); // return address
        RegisterSet regs = RegisterSet.of(F + 2, sp, 0x1);
        regs.set(X86Regs.RBX, 0x9);
        regs.set(X86Regs.R12, 0x12);
        regs.set(X86Regs.RAX, 0xa);
        RegisterSet caller = Unwinder.step(r, regs, new Unwinder.Memory(st.array(), sp));
        assertEquals(0x401234L, caller.ip());
        assertEquals(sp + 24, caller.sp());
        assertEquals(0xbbbbL, caller.get(X86Regs.RBP));
        assertEquals(0x3333L, caller.get(X86Regs.RBX));
        assertEquals(0x12, caller.get(X86Regs.R12), "callee-saved with no rule: same value");
        assertTrue(!caller.has(X86Regs.RAX), "caller-saved with no rule: unknown");
    }

    /** The frame-pointer fallback where no mapping/CFI is known, and its stop at the copy's end. */
    @Test
    void framePointerFallbackWithoutCfi() {
        long sp = 0x7ffd0000L;
        ByteBuffer st = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
        // frame 1 at sp+32: saved bp -> sp+96, ret 0x1111; frame 2 at sp+96: saved bp -> sp+4096 (past the copy)
        st.putLong(32, sp + 96);
        st.putLong(40, 0x1111);
        st.putLong(96, sp + 4096);
        st.putLong(104, 0x2222);
        UnwindResult res =
                new Unwinder().unwind(RegisterSet.of(0x9999, sp, sp + 32), st.array(), sp, new AddressSpace());
        assertEquals(List.of(0x9999L, 0x1111L, 0x2222L), res.pcs());
        assertEquals(UnwindResult.Stop.STACK_END, res.stop());
        assertEquals(2, res.framePointerFrames());
        UnwindResult capped = new Unwinder(new ModuleCache(), 2)
                .unwind(RegisterSet.of(0x9999, sp, sp + 32), st.array(), sp, new AddressSpace());
        assertEquals(UnwindResult.Stop.DEPTH_LIMIT, capped.stop());
        assertEquals(2, capped.depth());
    }

    // ---- .eh_frame / .debug_frame parsing -----------------------------------------------------------

    static final class Sec {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        int pos() {
            return out.size();
        }

        void u8(int v) {
            out.write(v);
        }

        void u32(long v) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (v >>> (8 * i)));
            }
        }

        void u64(long v) {
            u32(v);
            u32(v >>> 32);
        }

        void bytes(byte[] b) {
            out.writeBytes(b);
        }
    }

    /** An .eh_frame with a "zPLR" CIE (pcrel sdata4 personality, LSDA, FDE addresses) and two FDEs. */
    @Test
    void ehFrameZplrPcrelAndFdeLookup() throws Exception {
        long secAddr = 0x2000;
        Sec s = new Sec();
        // CIE: length, id 0, version 1, "zPLR", code 1, data -8 (0x78), ra 16, aug len 7:
        // P: enc 0x9b (indirect|pcrel|sdata4) + 4 bytes, L: 0x1b, R: 0x1b; instructions; pad
        byte[] cieBody = b(
                0, 0, 0, 0, 1, 'z', 'P', 'L', 'R', 0, 1, 0x78, 16, 7, 0x9b, 0, 0, 0, 0, 0x1b, 0x1b, 0x0c, 0x07, 0x08,
                0x90, 0x01, 0, 0);
        s.u32(cieBody.length);
        s.bytes(cieBody);
        long[] begins = {0x1100, 0x1000};
        int[] fdePos = new int[2];
        for (int i = 0; i < 2; i++) {
            fdePos[i] = s.pos();
            s.u32(4 + 4 + 4 + 1 + 4 + 3 + 0); // id, pc_begin, pc_range, aug len, lsda, instructions
            int idPos = s.pos();
            s.u32(idPos); // CIE pointer: back to offset 0
            int pcPos = s.pos();
            s.u32(begins[i] - (secAddr + pcPos)); // pcrel sdata4
            s.u32(0x40);
            s.u8(4);
            s.u32(0); // LSDA (pcrel 0)
            s.bytes(b(0x44, 0x0e, 0x10)); // +4: cfa rsp+16
        }
        s.u32(0); // terminator
        CfiTable t = CfiTable.of(s.out.toByteArray(), secAddr, true);
        Fde f = t.find(0x1120);
        assertEquals(0x1100, f.pcBegin());
        assertEquals(0x40, f.pcRange());
        assertEquals("zPLR", f.cie().augmentation());
        assertEquals(0x1000, t.find(0x1000).pcBegin());
        assertNull(t.find(0x1040), "between the two functions");
        assertNull(t.find(0xfff));
        assertEquals(cfa(X86Regs.RSP, 16), t.rowAt(0x1104).cfa());
        assertEquals(cfa(X86Regs.RSP, 8), t.rowAt(0x1103).cfa());
        assertEquals(2, t.allFdes().size());
    }

    /** A 32-bit .debug_frame (CIE id 0xffffffff, version 3, absolute addresses) and a signal-frame CIE. */
    @Test
    void debugFrameAndSignalCie() throws Exception {
        Sec s = new Sec();
        byte[] cieBody = b(0xff, 0xff, 0xff, 0xff, 3, 0, 1, 0x78, 16, 0x0c, 0x07, 0x08, 0x90, 0x01);
        s.u32(cieBody.length);
        s.bytes(cieBody);
        s.u32(4 + 8 + 8 + 2);
        s.u32(0); // CIE at offset 0
        s.u64(0x5000);
        s.u64(0x80);
        s.bytes(b(0x41, 0x0d)); // (truncated operand after +1)
        CfiTable t = CfiTable.of(s.out.toByteArray(), 0, false);
        Fde f = t.find(0x507f);
        assertEquals(3, f.cie().version());
        assertEquals(cfa(X86Regs.RSP, 8), t.rowAt(0x5000).cfa());
        assertThrows(CannotUnwindException.class, () -> t.rowAt(0x5001));
        assertNull(t.find(0x5080));

        UnwindRow sig = CfaInterpreter.rowAt(cie(GCC_CIE, true), F, new byte[0], 0, F);
        assertTrue(sig.signalFrame());
        assertEquals(17, sig.registers().length);
    }
}
