package org.rocprofsys.sampler.unwind;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Runs a CIE's initial instructions and then an FDE's instructions up to a pc, giving the
 * {@link UnwindRow} in effect there (DWARF 5 §6.4.2, with the GNU extensions gcc emits).
 */
public final class CfaInterpreter {
    private CfaInterpreter() {}

    private static final class State {
        CfaRule cfa = new CfaRule.RegisterOffset(X86Regs.RSP, 8);
        Rule[] regs = new Rule[X86Regs.COLUMNS];

        State copy() {
            State s = new State();
            s.cfa = cfa;
            s.regs = regs.clone();
            return s;
        }
    }

    /** The row in effect at link-time address {@code pc} inside {@code fde}. */
    public static UnwindRow rowAt(Fde fde, long pc) throws CannotUnwindException {
        return rowAt(fde.cie(), fde.pcBegin(), fde.instructions(), fde.instructionsAddr(), pc);
    }

    /**
     * The row at {@code pc} for a function starting at {@code pcBegin} whose FDE instructions are
     * {@code fdeInstructions} (at link-time address {@code fdeInstructionsAddr}, for DW_CFA_set_loc
     * with a pcrel encoding).
     */
    public static UnwindRow rowAt(Cie cie, long pcBegin, byte[] fdeInstructions, long fdeInstructionsAddr, long pc)
            throws CannotUnwindException {
        State state = new State();
        // The CIE's instructions have no location (advance_loc there would be odd; treat as unbounded).
        execute(
                cie,
                new DwarfCursor(ByteBuffer.wrap(cie.instructions()), cie.instructionsAddr(), 0),
                state,
                null,
                new long[] {pcBegin},
                Long.MAX_VALUE);
        State initial = state.copy();
        execute(
                cie,
                new DwarfCursor(ByteBuffer.wrap(fdeInstructions), fdeInstructionsAddr, 0),
                state,
                initial,
                new long[] {pcBegin},
                pc);
        return new UnwindRow(pc, state.cfa, state.regs, cie.returnColumn(), cie.signalFrame());
    }

    private static void execute(Cie cie, DwarfCursor c, State s, State initial, long[] loc, long pc)
            throws CannotUnwindException {
        Deque<State> stack = new ArrayDeque<>();
        long ca = cie.codeAlign();
        long da = cie.dataAlign();
        int end = c.limit();
        while (c.hasMore(end)) {
            int op = c.u8();
            int hi = op & 0xc0;
            int lo = op & 0x3f;
            if (hi == 0x40) { // DW_CFA_advance_loc
                if (advance(loc, lo * ca, pc)) {
                    return;
                }
                continue;
            }
            if (hi == 0x80) { // DW_CFA_offset
                set(s, lo, new Rule.Offset(c.uleb() * da));
                continue;
            }
            if (hi == 0xc0) { // DW_CFA_restore
                set(s, lo, restore(initial, lo));
                continue;
            }
            switch (op) {
                case 0x00 -> { // nop
                }
                case 0x01 -> { // set_loc
                    long target = c.pointer(cie.fdeEncoding());
                    if (Long.compareUnsigned(target, pc) > 0) {
                        return;
                    }
                    loc[0] = target;
                }
                case 0x02 -> {
                    if (advance(loc, c.u8() * ca, pc)) {
                        return;
                    }
                }
                case 0x03 -> {
                    if (advance(loc, c.u16() * ca, pc)) {
                        return;
                    }
                }
                case 0x04 -> {
                    if (advance(loc, c.u32() * ca, pc)) {
                        return;
                    }
                }
                case 0x05 -> set(s, (int) c.uleb(), new Rule.Offset(c.uleb() * da)); // offset_extended
                case 0x06 -> { // restore_extended
                    int r = (int) c.uleb();
                    set(s, r, restore(initial, r));
                }
                case 0x07 -> set(s, (int) c.uleb(), Rule.UNDEFINED);
                case 0x08 -> set(s, (int) c.uleb(), Rule.SAME_VALUE);
                case 0x09 -> set(s, (int) c.uleb(), new Rule.Register((int) c.uleb()));
                case 0x0a -> stack.push(s.copy()); // remember_state
                case 0x0b -> { // restore_state (the CFA rule is restored too, as libgcc and libunwind do)
                    if (stack.isEmpty()) {
                        throw new CannotUnwindException("DW_CFA_restore_state without remember_state");
                    }
                    State r = stack.pop();
                    s.cfa = r.cfa;
                    s.regs = r.regs;
                }
                case 0x0c -> s.cfa = new CfaRule.RegisterOffset((int) c.uleb(), c.uleb()); // def_cfa
                case 0x0d -> s.cfa = new CfaRule.RegisterOffset((int) c.uleb(), cfaOffset(s)); // def_cfa_register
                case 0x0e -> s.cfa = new CfaRule.RegisterOffset(cfaRegister(s), c.uleb()); // def_cfa_offset
                case 0x0f -> s.cfa = new CfaRule.Expression(c.bytes((int) c.uleb())); // def_cfa_expression
                case 0x10 -> { // expression
                    int r = (int) c.uleb();
                    set(s, r, new Rule.Expression(c.bytes((int) c.uleb())));
                }
                case 0x11 -> set(s, (int) c.uleb(), new Rule.Offset(c.sleb() * da)); // offset_extended_sf
                case 0x12 -> s.cfa = new CfaRule.RegisterOffset((int) c.uleb(), c.sleb() * da); // def_cfa_sf
                case 0x13 -> s.cfa = new CfaRule.RegisterOffset(cfaRegister(s), c.sleb() * da); // def_cfa_offset_sf
                case 0x14 -> set(s, (int) c.uleb(), new Rule.ValOffset(c.uleb() * da)); // val_offset
                case 0x15 -> set(s, (int) c.uleb(), new Rule.ValOffset(c.sleb() * da)); // val_offset_sf
                case 0x16 -> { // val_expression
                    int r = (int) c.uleb();
                    set(s, r, new Rule.ValExpression(c.bytes((int) c.uleb())));
                }
                case 0x2e -> c.uleb(); // GNU_args_size
                case 0x2f -> set(s, (int) c.uleb(), new Rule.Offset(-c.uleb() * da)); // GNU_negative_offset_extended
                default -> throw new CannotUnwindException("unknown DW_CFA opcode 0x" + Integer.toHexString(op));
            }
        }
    }

    /** Moves the location; true when it passed {@code pc} (the row for pc is complete). */
    private static boolean advance(long[] loc, long delta, long pc) {
        long next = loc[0] + delta;
        if (Long.compareUnsigned(next, pc) > 0) {
            return true;
        }
        loc[0] = next;
        return false;
    }

    private static Rule restore(State initial, int reg) throws CannotUnwindException {
        if (initial == null) {
            throw new CannotUnwindException("DW_CFA_restore in a CIE");
        }
        return reg < initial.regs.length ? initial.regs[reg] : null;
    }

    private static void set(State s, int reg, Rule rule) {
        if (reg >= 0 && reg < s.regs.length) {
            s.regs[reg] = rule;
        }
    }

    private static int cfaRegister(State s) throws CannotUnwindException {
        if (s.cfa instanceof CfaRule.RegisterOffset ro) {
            return ro.register();
        }
        throw new CannotUnwindException("DW_CFA_def_cfa_offset after a CFA expression");
    }

    private static long cfaOffset(State s) throws CannotUnwindException {
        if (s.cfa instanceof CfaRule.RegisterOffset ro) {
            return ro.offset();
        }
        throw new CannotUnwindException("DW_CFA_def_cfa_register after a CFA expression");
    }
}
