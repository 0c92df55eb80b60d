package org.rocprofsys.instrument.plan;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.instrument.capstone.Insn;

/**
 * Decides whether a function's entry can take the 5-byte {@code jmp rel32} and, if so, re-encodes
 * the instructions it replaces so they run from the instrumentation area.
 *
 * <p>Rules (each refusal names its reason):
 * <ul>
 * <li>{@code too-short-for-patch}: the function is shorter than 5 bytes (the jump would overwrite the
 *     next function) or its decoded instructions cover less than 5 bytes;</li>
 * <li>{@code branch-target-in-patch}: a direct jump or call anywhere in the module (every function's
 *     decoded code) targets a byte strictly inside (entry, entry + patch length); such a jump would
 *     land in the middle of the new jump;</li>
 * <li>{@code symbol-in-patch}: another function starts strictly inside that range;</li>
 * <li>{@code unrelocatable-instruction}: among the replaced instructions is a {@code loop*},
 *     {@code jrcxz/jecxz}, {@code xbegin} (rel8/rel32 forms with no 32-bit equivalent that keeps
 *     their meaning), or a branch with an operand-size prefix;</li>
 * <li>{@code return-in-patch} / {@code indirect-jump-in-patch}: a {@code ret} or indirect jump is
 *     among the replaced instructions but is not the function's last instruction: the code after it
 *     is reached only through branches we may not see (jump tables, landing pads) and could target
 *     the replaced bytes;</li>
 * <li>{@code displacement-out-of-range}: a RIP-relative operand or branch target would not be
 *     reachable with 32 bits from an area placed anywhere within {@link #AREA_WINDOW} after the
 *     module's highest segment end.</li>
 * </ul>
 * Re-encoding: RIP-relative operands keep their instruction bytes with the displacement zeroed and a
 * fix-up (addend = minus the bytes from the field to the end of the instruction); {@code jmp
 * rel8/rel32} becomes E9 rel32; {@code jcc rel8/rel32} becomes 0F 8x rel32; a {@code call} becomes
 * "push the original return address; jmp" (see {@link #encodeCall}). Prefixes (bnd, notrack,
 * segment hints) are kept. Everything else is copied as is.
 */
final class PrologueRelocator {
    static final int JUMP_SIZE = 5;
    /** The area is placed within this distance after the module's highest segment end. */
    static final long AREA_WINDOW = 1L << 30;

    /** A patch plan, or the reason there is none. */
    record Result(int patchLength, byte[] code, List<CodeFixup> fixups, String refusal) {
        static Result refused(String reason) {
            return new Result(0, null, List.of(), reason);
        }
    }

    private final Addresses branchTargets;
    private final Addresses functionStarts;
    private final long highestEnd;

    PrologueRelocator(Addresses branchTargets, Addresses functionStarts, long highestLoadEnd) {
        this.branchTargets = branchTargets;
        this.functionStarts = functionStarts;
        this.highestEnd = highestLoadEnd;
    }

    Result plan(long entry, long size, List<Insn> prologue) {
        if (size < JUMP_SIZE) return Result.refused("too-short-for-patch");
        List<Insn> replaced = new ArrayList<>();
        int covered = 0;
        for (Insn i : prologue) {
            if (covered >= JUMP_SIZE) break;
            replaced.add(i);
            covered += i.size();
        }
        if (covered < JUMP_SIZE || covered > size) return Result.refused("too-short-for-patch");
        long patchEnd = entry + covered;
        if (branchTargets.anyBetween(entry, patchEnd)) return Result.refused("branch-target-in-patch");
        if (functionStarts.anyBetween(entry, patchEnd)) return Result.refused("symbol-in-patch");

        ByteArrayOutputStream code = new ByteArrayOutputStream();
        List<CodeFixup> fixups = new ArrayList<>();
        for (Insn i : replaced) {
            boolean last = i.end() == entry + size;
            String m = i.mnemonic();
            if (m.startsWith("loop")
                    || m.equals("jrcxz")
                    || m.equals("jecxz")
                    || m.equals("jcxz")
                    || m.equals("xbegin")) {
                return Result.refused("unrelocatable-instruction");
            }
            if (i.isReturn() && !last) return Result.refused("return-in-patch");
            if (i.isIndirectJump() && !last) return Result.refused("indirect-jump-in-patch");
            int at = code.size();
            if (i.isCall()) {
                // a call covering byte 4 of the entry is always the last replaced instruction
                if (i != replaced.getLast()) return Result.refused("unrelocatable-instruction");
                String refusal = encodeCall(i, patchEnd, code, fixups);
                if (refusal != null) return Result.refused(refusal);
                continue;
            }
            if (i.branch() != null) {
                if (i.branch().immSize() == 0) return Result.refused("unrelocatable-instruction");
                String refusal = encodeBranch(i, code);
                if (refusal != null) return Result.refused(refusal);
                if (!reachable(i.branch().target())) return Result.refused("displacement-out-of-range");
                fixups.add(new CodeFixup(code.size() - 4, -4, i.branch().target()));
            } else if (i.rip() != null) {
                if (i.rip().dispSize() != 4) return Result.refused("unrelocatable-instruction");
                if (!reachable(i.rip().target())) {
                    return Result.refused("displacement-out-of-range");
                }
                byte[] b = i.bytes().clone();
                for (int k = 0; k < 4; k++) b[i.rip().dispOffset() + k] = 0;
                code.writeBytes(b);
                fixups.add(new CodeFixup(
                        at + i.rip().dispOffset(),
                        -(i.size() - i.rip().dispOffset()),
                        i.rip().target()));
            } else {
                code.writeBytes(i.bytes());
            }
        }
        if (!reachable(patchEnd)) return Result.refused("displacement-out-of-range");
        return new Result(covered, code.toByteArray(), fixups, null);
    }

    /** Whether a rel32 field anywhere in the area can reach {@code target}. */
    private boolean reachable(long target) {
        long farthestArea = highestEnd + AREA_WINDOW;
        return farthestArea - target < Integer.MAX_VALUE - 4096 && target - highestEnd < Integer.MAX_VALUE - 4096;
    }

    /**
     * A call among the replaced instructions is always the last one (it is 5 bytes or more and
     * starts before byte 5), so it returns to {@code f + patch length}, which is still original
     * code. It is re-encoded to push that original address and jump: {@code lea r11, [rip + ret];
     * push r11; jmp target}. r11 is not always free (GCC's -fipa-ra lets a caller keep values in it
     * across calls to functions known not to touch it), so the area builder replaces the lea/push
     * pair with a sequence that changes no register ({@code AreaBuilder.PUSH_RETURN}); this form is
     * what the plan records carry. The callee then sees a return address
     * in the module, with unwind information, so C++ exceptions and backtraces pass through it.
     * Direct calls and {@code call [rip + x]} are handled; other indirect calls are refused.
     */
    private String encodeCall(Insn i, long returnTo, ByteArrayOutputStream code, List<CodeFixup> fixups) {
        if (!reachable(returnTo)) return "displacement-out-of-range";
        int lea = code.size();
        code.writeBytes(new byte[] {0x4C, (byte) 0x8D, 0x1D, 0, 0, 0, 0, 0x41, 0x53});
        fixups.add(new CodeFixup(lea + 3, -4, returnTo));
        if (i.branch() != null) {
            if (i.branch().immSize() != 4 || !reachable(i.branch().target())) {
                return i.branch().immSize() != 4 ? "unrelocatable-instruction" : "displacement-out-of-range";
            }
            code.write(0xE9);
            code.writeBytes(new byte[4]);
            fixups.add(new CodeFixup(code.size() - 4, -4, i.branch().target()));
            return null;
        }
        byte[] b = i.bytes();
        int p = countPrefixes(b);
        boolean ripMemory = i.rip() != null
                && i.rip().dispSize() == 4
                && p + 6 == b.length
                && (b[p] & 0xff) == 0xFF
                && (b[p + 1] & 0xff) == 0x15;
        if (!ripMemory) return "unrelocatable-instruction";
        if (!reachable(i.rip().target())) return "displacement-out-of-range";
        code.write(b, 0, p); // notrack/bnd prefixes stay
        code.write(0xFF);
        code.write(0x25); // jmp [rip + disp32]
        code.writeBytes(new byte[4]);
        fixups.add(new CodeFixup(code.size() - 4, -4, i.rip().target()));
        return null;
    }

    /** Writes the rel32 form of a relative jmp/jcc/call with a zero displacement; a reason when it cannot. */
    private static String encodeBranch(Insn i, ByteArrayOutputStream out) {
        byte[] b = i.bytes();
        int p = 0;
        while (p < b.length && isLegacyPrefix(b[p])) {
            if (b[p] == 0x66) return "unrelocatable-instruction";
            p++;
        }
        if (p < b.length && (b[p] & 0xF0) == 0x40) p++; // REX: no meaning for these branches; dropped
        if (p >= b.length) return "unrelocatable-instruction";
        int op = Byte.toUnsignedInt(b[p]);
        out.write(b, 0, countPrefixes(b));
        if (op == 0xE8) {
            out.write(0xE8);
        } else if (op == 0xE9 || op == 0xEB) {
            out.write(0xE9);
        } else if (op >= 0x70 && op <= 0x7F) {
            out.write(0x0F);
            out.write(0x80 | (op & 0x0F));
        } else if (op == 0x0F && p + 1 < b.length && (b[p + 1] & 0xF0) == 0x80) {
            out.write(0x0F);
            out.write(b[p + 1]);
        } else {
            return "unrelocatable-instruction";
        }
        out.writeBytes(new byte[4]);
        return null;
    }

    private static int countPrefixes(byte[] b) {
        int p = 0;
        while (p < b.length && isLegacyPrefix(b[p])) p++;
        return p;
    }

    private static boolean isLegacyPrefix(byte b) {
        int v = Byte.toUnsignedInt(b);
        return v == 0xF2 || v == 0xF3 || v == 0x2E || v == 0x3E || v == 0x26 || v == 0x36 || v == 0x64 || v == 0x65
                || v == 0x66 || v == 0x67;
    }
}
