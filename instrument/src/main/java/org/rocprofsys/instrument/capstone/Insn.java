package org.rocprofsys.instrument.capstone;

import java.util.Set;

/**
 * One decoded x86-64 instruction with what relocating it needs.
 *
 * @param address  where it lies (the address given to the decoder)
 * @param id       Capstone's instruction id; differs between Capstone 4 and 5, so rules use the mnemonic
 * @param groups   Capstone's generic groups
 * @param rip      the RIP-relative memory operand, or null
 * @param branch   the relative branch/call target, or null (for jmp/jcc/call/loop/jrcxz/xbegin rel)
 */
public record Insn(
        long address,
        int size,
        int id,
        String mnemonic,
        String opStr,
        byte[] bytes,
        Set<Group> groups,
        RipOperand rip,
        RelativeBranch branch) {

    /**
     * A RIP-relative memory operand.
     *
     * @param dispOffset where the 32-bit displacement starts inside the instruction
     * @param dispSize   its size in bytes (4 in 64-bit code)
     * @param target     the absolute address it refers to (next instruction + displacement)
     */
    public record RipOperand(int dispOffset, int dispSize, long target) {}

    /**
     * The relative immediate of a branch or call.
     *
     * @param immOffset where the displacement starts inside the instruction
     * @param immSize   1 (rel8) or 4 (rel32)
     * @param target    the absolute target
     */
    public record RelativeBranch(int immOffset, int immSize, long target) {}

    public long end() {
        return address + size;
    }

    public boolean in(Group g) {
        return groups.contains(g);
    }

    public boolean isCall() {
        return groups.contains(Group.CALL);
    }

    public boolean isReturn() {
        return groups.contains(Group.RET) || groups.contains(Group.IRET);
    }

    /** A jump (conditional or not) whose target comes from a register or memory. */
    public boolean isIndirectJump() {
        return groups.contains(Group.JUMP) && branch == null;
    }

    /** {@code mnemonic op_str}, the text Capstone prints. */
    public String text() {
        return opStr.isEmpty() ? mnemonic : mnemonic + " " + opStr;
    }

    @Override
    public String toString() {
        return String.format("0x%x: %s", address, text());
    }
}
