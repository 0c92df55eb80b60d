package org.rocprofsys.instrument.area;

/**
 * Constants and machine code of the instrumentation area format (docs/instrumentation.md,
 * "Area format" and "Trampoline per function"). Offsets are relative to the area start.
 */
public final class AreaFormat {
    private AreaFormat() {}

    /** "RSYSINS1" read as a little-endian u64. */
    public static final long MAGIC = 0x31534e4953595352L;

    public static final int VERSION = 1;
    /** Header flag: relocations and entry patches already applied (rewrite mode). */
    public static final int FLAG_APPLIED = 1;

    public static final int PAGE = 4096;

    public static final int HEADER_SIZE = 72;
    public static final int FUNC_SIZE = 24;
    public static final int RELOC_SIZE = 16;
    /** Size of struct rsys_instr_data (enter_fn, ctx) at data_off; the rest of the page is zero. */
    public static final int DATA_SIZE = 16;

    // header field offsets
    public static final int H_MAGIC = 0;
    public static final int H_VERSION = 8;
    public static final int H_FLAGS = 12;
    public static final int H_NFUNCS = 16;
    public static final int H_NRELOCS = 20;
    public static final int H_FUNCS_OFF = 24;
    public static final int H_RELOCS_OFF = 28;
    public static final int H_STRTAB_OFF = 32;
    public static final int H_STRTAB_SIZE = 36;
    public static final int H_ENV_OFF = 40;
    public static final int H_MODE = 44;
    public static final int H_RX_SIZE = 48;
    public static final int H_DATA_OFF = 52;
    public static final int H_AREA_SIZE = 56;
    public static final int H_RESERVED = 60;
    public static final int H_AREA_VADDR = 64;

    // struct rsys_instr_func field offsets
    public static final int F_FUNC_VADDR = 0;
    public static final int F_TRAMP_OFF = 8;
    public static final int F_NAME_OFF = 12;
    public static final int F_PATCH_LEN = 16;

    // struct rsys_instr_reloc field offsets
    public static final int R_AREA_OFF = 0;
    public static final int R_ADDEND = 4;
    public static final int R_TARGET_VADDR = 8;

    // struct rsys_instr_data field offsets (relative to data_off)
    public static final int D_ENTER_FN = 0;
    public static final int D_CTX = 8;

    /** Trampolines and the stub start at multiples of this; gaps are filled with int3. */
    public static final int CODE_ALIGN = 16;

    public static final byte INT3 = (byte) 0xCC;

    /**
     * {@code push imm32} (68 imm32: the function id) then {@code call rel32} (E8 rel32): 10 bytes.
     * No register is touched: with GCC's interprocedural register allocation (-fipa-ra, on at -O2)
     * a caller may keep values in call-clobbered registers (r11 included) across a call to a
     * callee it knows leaves them alone.
     */
    public static final int TRAMP_HEAD_SIZE = 10;
    /** {@code jmp rel32} back to the function: 5 bytes. */
    public static final int TRAMP_TAIL_SIZE = 5;

    /** Offset of the rel32 of {@code mov rax, [rip + enter_fn]} inside the stub. */
    public static final int STUB_ENTER_FN_DISP = 16;
    /** Offset of the rel32 of {@code mov rsi, [rip + ctx]} inside the stub. */
    public static final int STUB_CTX_DISP = 32;

    private static final byte[] STUB_TEMPLATE = {
        0x50, // push rax
        0x57, // push rdi
        0x56, // push rsi
        0x52, // push rdx
        0x51, // push rcx
        0x41,
        0x50, // push r8
        0x41,
        0x51, // push r9
        0x41,
        0x52, // push r10
        0x41,
        0x53, // push r11
        0x48,
        (byte) 0x8B,
        0x05,
        0,
        0,
        0,
        0, // mov rax, [rip + enter_fn]   (disp at 16)
        0x48,
        (byte) 0x85,
        (byte) 0xC0, // test rax, rax
        0x74,
        0x12, // jz 1f (+18)
        (byte) 0x8B,
        0x7C,
        0x24,
        0x50, // mov edi, [rsp + 80]         (the pushed fid)
        0x48,
        (byte) 0x8B,
        0x35,
        0,
        0,
        0,
        0, // mov rsi, [rip + ctx]        (disp at 32)
        0x48,
        (byte) 0x8D,
        0x54,
        0x24,
        0x58, // lea rdx, [rsp + 88]         (f's return-address slot)
        (byte) 0xFF,
        (byte) 0xD0, // call rax
        0x41,
        0x5B, // 1: pop r11
        0x41,
        0x5A, // pop r10
        0x41,
        0x59, // pop r9
        0x41,
        0x58, // pop r8
        0x59, // pop rcx
        0x5A, // pop rdx
        0x5E, // pop rsi
        0x5F, // pop rdi
        0x58, // pop rax
        (byte) 0xC2,
        0x08,
        0x00, // ret 8 (drops the fid)
    };

    /** Length of {@code area_entry_stub} in bytes. */
    public static final int STUB_SIZE = STUB_TEMPLATE.length;

    /**
     * The common entry stub placed at {@code stubOff}, its RIP-relative loads pointing at the
     * data page at {@code dataOff}.
     */
    public static byte[] entryStub(int stubOff, int dataOff) {
        byte[] stub = STUB_TEMPLATE.clone();
        putInt(stub, STUB_ENTER_FN_DISP, dataOff + D_ENTER_FN - (stubOff + STUB_ENTER_FN_DISP + 4));
        putInt(stub, STUB_CTX_DISP, dataOff + D_CTX - (stubOff + STUB_CTX_DISP + 4));
        return stub;
    }

    static int alignUp(int value, int alignment) {
        long aligned = ((long) value + alignment - 1) / alignment * alignment;
        if (aligned > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("instrumentation area larger than 2 GiB");
        }
        return (int) aligned;
    }

    static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) v);
        putInt(b, off + 4, (int) (v >>> 32));
    }

    static int getInt(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    static long getLong(byte[] b, int off) {
        return (getInt(b, off) & 0xFFFFFFFFL) | (long) getInt(b, off + 4) << 32;
    }
}
