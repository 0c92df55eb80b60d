package org.rocprofsys.sampler.unwind;

import java.util.Arrays;

/**
 * The rules in effect at one pc: the CFA and one {@link Rule} per DWARF register column
 * 0..{@link X86Regs#COLUMNS}-1 (null: no rule given, which callers treat as same-value for
 * callee-saved registers and as the CFA for the stack pointer).
 */
public record UnwindRow(long pc, CfaRule cfa, Rule[] registers, int returnColumn, boolean signalFrame) {
    public Rule rule(int column) {
        return column >= 0 && column < registers.length ? registers[column] : null;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("UnwindRow[pc=0x")
                .append(Long.toHexString(pc))
                .append(", cfa=")
                .append(cfa);
        for (int i = 0; i < registers.length; i++) {
            if (registers[i] != null) {
                sb.append(", ").append(X86Regs.name(i)).append('=').append(registers[i]);
            }
        }
        return sb.append(signalFrame ? ", signal" : "").append(']').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UnwindRow r
                && r.pc == pc
                && r.cfa.equals(cfa)
                && Arrays.equals(r.registers, registers)
                && r.returnColumn == returnColumn
                && r.signalFrame == signalFrame;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(pc) * 31 + Arrays.hashCode(registers);
    }
}
