package org.rocprofsys.instrument.area;

/**
 * Constants and machine code of the instrumentation area format (docs/instrumentation.md,
 * "Area format" and "Trampoline per function"). Offsets are relative to the area start.
 */
public final class AreaFormat {
    private AreaFormat() {}

    /** "RSYSINS1" read as a little-endian u64. */
    public static final long MAGIC = 0x31534e4953595352L;

    /** 2: each trampoline gives the hook a landing ({@link #TRAMP_HEAD_SIZE}); the agent still applies 1. */
    public static final int VERSION = 2;
    /** Areas of earlier builds: trampoline heads without the landing; still read (and applied by the agent). */
    public static final int VERSION_NO_LANDING = 1;
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
    /** The agent's exit trampoline, which each trampoline's landing jumps to. */
    public static final int D_EXIT_FN = 16;

    /** Trampolines and the stub start at multiples of this; gaps are filled with int3. */
    public static final int CODE_ALIGN = 16;

    public static final byte INT3 = (byte) 0xCC;

    /**
     * {@code push imm32} (68 imm32: the function id), {@code call rel32} to the stub (E8 rel32),
     * then the landing: {@code call +6} (E8 06000000) pushes the address after it, L, which is where
     * the hook points the function's return (the stub passes L = its return address + 5); at L
     * {@code jmp [rip + exit_fn]} (FF 25 rel32) to the agent's exit trampoline; after it
     * {@code lea rsp, [rsp + 8]} (48 8D 64 24 08) drops L from the stack again: 26 bytes. The call
     * leaves L in the CPU's return predictor, so the function's {@code ret} to L, and the exit
     * trampoline's {@code ret} to the real return address below it, are predicted right.
     * No register is touched: with GCC's interprocedural register allocation (-fipa-ra, on at -O2)
     * a caller may keep values in call-clobbered registers (r11 included) across a call to a
     * callee it knows leaves them alone.
     */
    public static final int TRAMP_HEAD_SIZE = 26;
    /** Where the call to the stub ends in a trampoline: its rel32 counts from here; a version 1 head ends here too. */
    public static final int TRAMP_STUB_CALL_END = 10;
    /** Offset of the landing's {@code jmp [rip + exit_fn]} in a trampoline. */
    public static final int TRAMP_LANDING = 15;

    /** The trampoline head at {@code t}, for function {@code fid}, its stub at {@code stubOff}. */
    public static byte[] trampolineHead(int t, int fid, int stubOff, int dataOff) {
        byte[] h = new byte[TRAMP_HEAD_SIZE];
        h[0] = 0x68; // push imm32
        putInt(h, 1, fid);
        h[5] = (byte) 0xE8; // call stub
        putInt(h, 6, stubOff - (t + TRAMP_STUB_CALL_END));
        h[10] = (byte) 0xE8; // call L + 6 (the lea): pushes L
        putInt(h, 11, 6);
        h[15] = (byte) 0xFF; // L: jmp [rip + exit_fn]
        h[16] = 0x25;
        putInt(h, 17, dataOff + D_EXIT_FN - (t + TRAMP_LANDING + 6));
        h[21] = 0x48; // lea rsp, [rsp + 8]
        h[22] = (byte) 0x8D;
        h[23] = 0x64;
        h[24] = 0x24;
        h[25] = 0x08;
        return h;
    }
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
        0x1B, // jz 1f (+27)
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
        0x48,
        (byte) 0x8B,
        0x4C,
        0x24,
        0x48, // mov rcx, [rsp + 72]         (the trampoline's return address...)
        0x48,
        (byte) 0x83,
        (byte) 0xC1,
        0x05, // add rcx, 5                  (...past its call +6: the landing)
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

    /** Where the stub's landing bytes ({@code mov rcx, [rsp + 72]; add rcx, 5}) lie; a version 1 stub lacks them. */
    private static final int STUB_LANDING_OFF = 41;

    private static final int STUB_LANDING_SIZE = 9;

    /** The stub of a version {@code version} area; version 1 passes no landing. */
    public static byte[] entryStub(int stubOff, int dataOff, int version) {
        byte[] stub = entryStub(stubOff, dataOff);
        if (version != VERSION_NO_LANDING) {
            return stub;
        }
        byte[] v1 = new byte[STUB_SIZE - STUB_LANDING_SIZE];
        System.arraycopy(stub, 0, v1, 0, STUB_LANDING_OFF);
        System.arraycopy(
                stub,
                STUB_LANDING_OFF + STUB_LANDING_SIZE,
                v1,
                STUB_LANDING_OFF,
                STUB_SIZE - STUB_LANDING_OFF - STUB_LANDING_SIZE);
        v1[24] = (byte) (stub[24] - STUB_LANDING_SIZE); // jz over the call: 9 bytes shorter
        return v1;
    }

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
