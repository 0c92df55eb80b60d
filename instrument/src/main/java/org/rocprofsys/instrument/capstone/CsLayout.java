package org.rocprofsys.instrument.capstone;

/**
 * Byte offsets of the Capstone structures this binding reads, per major version. Checked with gcc
 * {@code offsetof} against the Debian headers of libcapstone-dev 4.0.2 and 5.0.7: cs_insn grew in 5
 * ({@code bytes[24]}) and cs_detail's register lists grew ({@code regs_read[20]}, plus
 * {@code writeback}); cs_x86, cs_x86_op and cs_x86_encoding kept their layout. The CS_* enum values
 * used here (CS_ARCH_X86 3, CS_MODE_64 8, CS_OPT_DETAIL 2, CS_OPT_ON 3, groups 1..7, X86_REG_RIP 41,
 * X86_OP_IMM 2, X86_OP_MEM 3) are the same in both; Capstone 6 renumbers them, so it is refused.
 */
record CsLayout(
        int major,
        long insnSize,
        long mnemonicOff,
        long opStrOff,
        long detailOff,
        long groupsOff,
        long groupsCountOff,
        long x86Off) {
    // cs_insn, common
    static final long ID = 0;
    static final long ADDRESS = 8;
    static final long SIZE = 16;
    static final long BYTES = 18;
    static final int MNEMONIC_LEN = 32;
    static final int OP_STR_LEN = 160;
    // cs_x86, relative to the x86 union member
    static final long X86_OP_COUNT = 64;
    static final long X86_OPERANDS = 72;
    static final long X86_OP_SIZE = 48;
    static final long X86_ENCODING = 456;
    // cs_x86_op
    static final long OP_TYPE = 0;
    static final long OP_IMM = 8;
    static final long OP_MEM_BASE = 12;
    static final long OP_MEM_DISP = 24;
    // cs_x86_encoding
    static final long ENC_DISP_OFFSET = 1;
    static final long ENC_DISP_SIZE = 2;
    static final long ENC_IMM_OFFSET = 3;
    static final long ENC_IMM_SIZE = 4;

    static final int CS_ARCH_X86 = 3;
    static final int CS_MODE_64 = 8;
    static final int CS_OPT_DETAIL = 2;
    static final long CS_OPT_ON = 3;
    static final int X86_OP_IMM = 2;
    static final int X86_OP_MEM = 3;
    static final int X86_REG_RIP = 41;

    static final CsLayout V4 = new CsLayout(4, 240, 34, 66, 232, 67, 75, 80);
    static final CsLayout V5 = new CsLayout(5, 248, 42, 74, 240, 83, 91, 96);

    /** The layout for {@code cs_version()}'s major number, or null when unknown. */
    static CsLayout forMajor(int major) {
        return switch (major) {
            case 4 -> V4;
            case 5 -> V5;
            default -> null;
        };
    }
}
