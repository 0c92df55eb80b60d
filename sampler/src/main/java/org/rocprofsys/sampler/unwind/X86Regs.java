package org.rocprofsys.sampler.unwind;

/**
 * x86-64 register numbering: DWARF columns (System V psABI table 3.36) and the conversion from
 * perf's PERF_SAMPLE_REGS_USER layout (arch/x86/include/uapi/asm/perf_regs.h).
 */
public final class X86Regs {
    private X86Regs() {}

    public static final int RAX = 0;
    public static final int RDX = 1;
    public static final int RCX = 2;
    public static final int RBX = 3;
    public static final int RSI = 4;
    public static final int RDI = 5;
    public static final int RBP = 6;
    public static final int RSP = 7;
    public static final int R8 = 8;
    public static final int R12 = 12;
    public static final int R13 = 13;
    public static final int R14 = 14;
    public static final int R15 = 15;
    /** The return-address column. */
    public static final int RIP = 16;
    /** Columns tracked: 0..16 (rules for vector registers are parsed and dropped). */
    public static final int COLUMNS = 17;

    private static final String[] NAMES = {
        "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
        "rip"
    };

    /** perf_regs index -> DWARF column (-1: not a DWARF register here). */
    private static final int[] PERF_TO_DWARF = new int[24];

    static {
        java.util.Arrays.fill(PERF_TO_DWARF, -1);
        PERF_TO_DWARF[0] = RAX;
        PERF_TO_DWARF[1] = RBX;
        PERF_TO_DWARF[2] = RCX;
        PERF_TO_DWARF[3] = RDX;
        PERF_TO_DWARF[4] = RSI;
        PERF_TO_DWARF[5] = RDI;
        PERF_TO_DWARF[6] = RBP;
        PERF_TO_DWARF[7] = RSP;
        PERF_TO_DWARF[8] = RIP;
        for (int i = 0; i < 8; i++) {
            PERF_TO_DWARF[16 + i] = R8 + i;
        }
    }

    public static String name(int column) {
        return column >= 0 && column < NAMES.length ? NAMES[column] : "r" + column;
    }

    /**
     * The sampled registers as a {@link RegisterSet}: {@code perfRegs} holds the registers of
     * {@code mask} in ascending bit order, as PerfRecord.Sample#userRegs does.
     */
    public static RegisterSet fromPerf(long mask, long[] perfRegs) {
        RegisterSet r = new RegisterSet();
        int i = 0;
        for (int bit = 0; bit < 64 && i < perfRegs.length; bit++) {
            if ((mask & (1L << bit)) == 0) {
                continue;
            }
            long v = perfRegs[i++];
            int col = bit < PERF_TO_DWARF.length ? PERF_TO_DWARF[bit] : -1;
            if (col >= 0) {
                r.set(col, v);
            }
        }
        return r;
    }
}
