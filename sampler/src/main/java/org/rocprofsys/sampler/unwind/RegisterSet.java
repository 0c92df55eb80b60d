package org.rocprofsys.sampler.unwind;

/** Values of the DWARF columns 0..16 with a known/unknown bit each. */
public final class RegisterSet {
    private final long[] values = new long[X86Regs.COLUMNS];
    private int valid;

    public RegisterSet() {}

    /** ip, sp, bp alone (the frame-pointer minimum). */
    public static RegisterSet of(long ip, long sp, long bp) {
        RegisterSet r = new RegisterSet();
        r.set(X86Regs.RIP, ip);
        r.set(X86Regs.RSP, sp);
        r.set(X86Regs.RBP, bp);
        return r;
    }

    /**
     * {@code values[c]} as column {@code c}, for as many columns as there are values (the agent's
     * STACK_SAMPLE records carry them in this order).
     */
    public static RegisterSet ofColumns(long[] values) {
        RegisterSet r = new RegisterSet();
        for (int col = 0; col < values.length; col++) {
            r.set(col, values[col]);
        }
        return r;
    }

    public boolean has(int column) {
        return column >= 0 && column < X86Regs.COLUMNS && (valid & (1 << column)) != 0;
    }

    public long get(int column) throws CannotUnwindException {
        if (!has(column)) {
            throw new CannotUnwindException("register " + X86Regs.name(column) + " is not known in this frame");
        }
        return values[column];
    }

    public void set(int column, long value) {
        if (column >= 0 && column < X86Regs.COLUMNS) {
            values[column] = value;
            valid |= 1 << column;
        }
    }

    public void clear(int column) {
        if (column >= 0 && column < X86Regs.COLUMNS) {
            valid &= ~(1 << column);
        }
    }

    /** The value whether or not it is known (0 when never set). */
    public long getUnchecked(int column) {
        return values[column];
    }

    public long ip() {
        return values[X86Regs.RIP];
    }

    public long sp() {
        return values[X86Regs.RSP];
    }

    public RegisterSet copy() {
        RegisterSet r = new RegisterSet();
        System.arraycopy(values, 0, r.values, 0, values.length);
        r.valid = valid;
        return r;
    }
}
