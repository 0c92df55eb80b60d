package org.rocprofsys.instrument.plan;

import java.util.List;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.SectionHeader;
import org.rocprofsys.instrument.capstone.Capstone;
import org.rocprofsys.instrument.capstone.Insn;

/**
 * Direct branch targets of executable code that no function symbol covers: local functions of a
 * stripped file, GCC's cold partitions without symbols, hand-written stubs. Any of them may jump
 * into a function's first bytes, which the entry patch would overwrite.
 *
 * <p>Gaps may hold padding or data; decoding restarts one byte after an invalid sequence, at most
 * {@link #MAX_RESYNCS} times per gap, so a data blob costs little and yields few false targets (a
 * false target only makes the planner more careful).
 */
final class GapScanner {
    static final int MAX_RESYNCS = 4096;

    private GapScanner() {}

    static long[] branchTargets(ElfFile elf, Capstone cs, List<FunctionSymbol> functions) {
        Addresses out = new Addresses();
        for (SectionHeader s : elf.sections()) {
            if (!s.executable() || !s.allocated() || s.type() != ElfConstants.SHT_PROGBITS || s.size() == 0) continue;
            if (elf.vaddrToOffset(s.addr()) < 0) continue;
            long cursor = s.addr();
            long end = s.addr() + s.size();
            for (FunctionSymbol f : functions) { // sorted by address
                if (f.end() <= cursor || f.size() == 0) continue;
                if (f.address() >= end) break;
                if (f.address() > cursor) scan(elf, cs, cursor, f.address(), out);
                cursor = Math.max(cursor, f.end());
            }
            if (cursor < end) scan(elf, cs, cursor, end, out);
        }
        return out.toArray();
    }

    /**
     * Whether the bytes could hold a relative branch: an opcode byte of jmp/call/jcc/loop/jrcxz/xbegin
     * (EB E8 E9 70-7F E0-E3 C7, or 0F 80-8F). NOP padding (90, CC, 0F 1F ..., 66 2E 0F 1F 84 ...)
     * has none.
     */
    private static boolean mayBranch(ElfFile elf, long from, long to) {
        byte[] b;
        try {
            b = elf.bytesAt(from, (int) (to - from));
        } catch (IllegalArgumentException notInFile) {
            return false;
        }
        for (int i = 0; i < b.length; i++) {
            int v = b[i] & 0xff;
            if (v == 0xEB
                    || v == 0xE8
                    || v == 0xE9
                    || v == 0xC7
                    || (v >= 0x70 && v <= 0x7F)
                    || (v >= 0xE0 && v <= 0xE3)) {
                return true;
            }
            if (v == 0x0F && i + 1 < b.length && (b[i + 1] & 0xF0) == 0x80) return true;
        }
        return false;
    }

    private static void scan(ElfFile elf, Capstone cs, long from, long to, Addresses out) {
        if (to - from <= 64 && !mayBranch(elf, from, to)) return; // alignment padding between functions
        long at = from;
        for (int resyncs = 0; at < to && resyncs < MAX_RESYNCS; resyncs++) {
            List<Insn> insns;
            try {
                insns = cs.disassemble(elf.segmentAt(at, to - at), at);
            } catch (IllegalArgumentException notInFile) {
                return;
            }
            for (Insn i : insns) {
                if (i.branch() != null) out.add(i.branch().target());
            }
            at = (insns.isEmpty() ? at : insns.getLast().end()) + 1;
        }
    }
}
