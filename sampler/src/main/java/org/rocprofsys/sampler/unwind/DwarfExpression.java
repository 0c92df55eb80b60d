package org.rocprofsys.sampler.unwind;

/**
 * A DWARF expression evaluator for CFI (DWARF 5 §2.5): literals, constants, bregN/bregx,
 * stack operations, deref, arithmetic, logic, comparisons and branches. Location operations
 * (DW_OP_regN, pieces), TLS and calls are not supported and end the unwind of that frame.
 */
public final class DwarfExpression {
    private DwarfExpression() {}

    /** Reads 8 bytes of the target's memory. */
    public interface Memory {
        long read8(long address) throws CannotUnwindException;
    }

    private static final int MAX_STACK = 64;
    private static final int MAX_STEPS = 10_000;

    /**
     * Evaluates {@code expr}, {@code initial} pushed first when not null (the CFA for register
     * rules), and returns the top of the stack.
     */
    public static long evaluate(byte[] expr, Long initial, RegisterSet regs, Memory mem) throws CannotUnwindException {
        long[] st = new long[MAX_STACK];
        int sp = 0;
        if (initial != null) {
            st[sp++] = initial;
        }
        DwarfCursor c = DwarfCursor.of(expr);
        int steps = 0;
        while (c.hasMore(expr.length)) {
            if (++steps > MAX_STEPS) {
                throw new CannotUnwindException("DWARF expression does not terminate");
            }
            int op = c.u8();
            if (sp >= MAX_STACK - 1) {
                throw new CannotUnwindException("DWARF expression stack overflow");
            }
            if (op >= 0x30 && op <= 0x4f) { // lit0..lit31
                st[sp++] = op - 0x30;
                continue;
            }
            if (op >= 0x70 && op <= 0x8f) { // breg0..breg31
                st[sp++] = regs.get(op - 0x70) + c.sleb();
                continue;
            }
            switch (op) {
                case 0x03 -> st[sp++] = c.u64(); // addr
                case 0x06 -> { // deref
                    need(sp, 1);
                    st[sp - 1] = mem.read8(st[sp - 1]);
                }
                case 0x08 -> st[sp++] = c.u8(); // const1u
                case 0x09 -> st[sp++] = (byte) c.u8(); // const1s
                case 0x0a -> st[sp++] = c.u16();
                case 0x0b -> st[sp++] = (short) c.u16();
                case 0x0c -> st[sp++] = c.u32();
                case 0x0d -> st[sp++] = (int) c.u32();
                case 0x0e, 0x0f -> st[sp++] = c.u64(); // const8u/s
                case 0x10 -> st[sp++] = c.uleb(); // constu
                case 0x11 -> st[sp++] = c.sleb(); // consts
                case 0x12 -> { // dup
                    need(sp, 1);
                    st[sp] = st[sp - 1];
                    sp++;
                }
                case 0x13 -> { // drop
                    need(sp, 1);
                    sp--;
                }
                case 0x14 -> { // over
                    need(sp, 2);
                    st[sp] = st[sp - 2];
                    sp++;
                }
                case 0x15 -> { // pick
                    int i = c.u8();
                    need(sp, i + 1);
                    st[sp] = st[sp - 1 - i];
                    sp++;
                }
                case 0x16 -> { // swap
                    need(sp, 2);
                    long t = st[sp - 1];
                    st[sp - 1] = st[sp - 2];
                    st[sp - 2] = t;
                }
                case 0x17 -> { // rot
                    need(sp, 3);
                    long t = st[sp - 1];
                    st[sp - 1] = st[sp - 2];
                    st[sp - 2] = st[sp - 3];
                    st[sp - 3] = t;
                }
                case 0x19 -> { // abs
                    need(sp, 1);
                    st[sp - 1] = Math.abs(st[sp - 1]);
                }
                case 0x1f -> { // neg
                    need(sp, 1);
                    st[sp - 1] = -st[sp - 1];
                }
                case 0x20 -> { // not
                    need(sp, 1);
                    st[sp - 1] = ~st[sp - 1];
                }
                case 0x23 -> { // plus_uconst
                    need(sp, 1);
                    st[sp - 1] += c.uleb();
                }
                case 0x1a,
                        0x1b,
                        0x1c,
                        0x1d,
                        0x1e,
                        0x21,
                        0x22,
                        0x24,
                        0x25,
                        0x26,
                        0x27,
                        0x29,
                        0x2a,
                        0x2b,
                        0x2c,
                        0x2d,
                        0x2e -> {
                    need(sp, 2);
                    long b = st[--sp];
                    long a = st[sp - 1];
                    st[sp - 1] = binary(op, a, b);
                }
                case 0x2f -> { // skip
                    int off = (short) c.u16();
                    c.pos(checkTarget(c.pos() + off, expr.length));
                }
                case 0x28 -> { // bra
                    int off = (short) c.u16();
                    need(sp, 1);
                    if (st[--sp] != 0) {
                        c.pos(checkTarget(c.pos() + off, expr.length));
                    }
                }
                case 0x92 -> st[sp++] = regs.get((int) c.uleb()) + c.sleb(); // bregx
                case 0x96 -> { // nop
                }
                default -> throw new CannotUnwindException("unsupported DW_OP 0x" + Integer.toHexString(op));
            }
        }
        if (sp == 0) {
            throw new CannotUnwindException("DWARF expression left an empty stack");
        }
        return st[sp - 1];
    }

    private static long binary(int op, long a, long b) throws CannotUnwindException {
        return switch (op) {
            case 0x1a -> a & b;
            case 0x1b -> {
                if (b == 0) {
                    throw new CannotUnwindException("DW_OP_div by zero");
                }
                yield a / b;
            }
            case 0x1c -> a - b;
            case 0x1d -> {
                if (b == 0) {
                    throw new CannotUnwindException("DW_OP_mod by zero");
                }
                yield Long.remainderUnsigned(a, b);
            }
            case 0x1e -> a * b;
            case 0x21 -> a | b;
            case 0x22 -> a + b;
            case 0x24 -> b >= 64 || b < 0 ? 0 : a << b;
            case 0x25 -> b >= 64 || b < 0 ? 0 : a >>> b;
            case 0x26 -> b >= 64 || b < 0 ? (a < 0 ? -1 : 0) : a >> b;
            case 0x27 -> a ^ b;
            case 0x29 -> a == b ? 1 : 0;
            case 0x2a -> a >= b ? 1 : 0; // comparisons are signed (DWARF 5 §2.5.1.4)
            case 0x2b -> a > b ? 1 : 0;
            case 0x2c -> a <= b ? 1 : 0;
            case 0x2d -> a < b ? 1 : 0;
            case 0x2e -> a != b ? 1 : 0;
            default -> throw new CannotUnwindException("unsupported DW_OP 0x" + Integer.toHexString(op));
        };
    }

    private static void need(int sp, int n) throws CannotUnwindException {
        if (sp < n) {
            throw new CannotUnwindException("DWARF expression stack underflow");
        }
    }

    private static int checkTarget(int target, int length) throws CannotUnwindException {
        if (target < 0 || target > length) {
            throw new CannotUnwindException("DWARF expression branch outside the expression");
        }
        return target;
    }
}
