package org.rocprofsys.sampler.unwind;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * DWARF CFI unwinding of sampled x86-64 user stacks: from the sampled registers and the stack copy
 * (which starts at the sampled sp), frame by frame through .eh_frame / .debug_frame of the mapped files, with a
 * frame-pointer step where no FDE covers a pc. Thread-safe; parsed files are shared through the
 * {@link ModuleCache}.
 */
public final class Unwinder {
    public static final int DEFAULT_MAX_DEPTH = 256;
    /** Callee-saved registers of the SysV ABI: with no rule they keep their value in the caller. */
    private static final int CALLEE_SAVED = (1 << X86Regs.RBX)
            | (1 << X86Regs.RBP)
            | (1 << X86Regs.R12)
            | (1 << X86Regs.R13)
            | (1 << X86Regs.R14)
            | (1 << X86Regs.R15);

    private final ModuleCache modules;
    private final int maxDepth;

    public Unwinder() {
        this(new ModuleCache(), DEFAULT_MAX_DEPTH);
    }

    public Unwinder(ModuleCache modules, int maxDepth) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("max depth " + maxDepth);
        }
        this.modules = modules;
        this.maxDepth = maxDepth;
    }

    public ModuleCache modules() {
        return modules;
    }

    /**
     * Unwinds from {@code regs} (at least ip and sp; more makes CFI rules that use them work), with
     * {@code stack} the user stack copied from {@code sp} upwards. Whoever took the sample (perf's
     * PERF_SAMPLE_REGS_USER + STACK_USER, the agent's signal handler) turns its registers into DWARF
     * columns first ({@link X86Regs#fromPerf}, {@link RegisterSet#ofColumns}).
     */
    public UnwindResult unwind(RegisterSet regs, byte[] stack, long sp, AddressSpace maps) {
        Memory mem = new Memory(stack, sp);
        List<Long> pcs = new ArrayList<>();
        RegisterSet cur = regs.copy();
        if (!cur.has(X86Regs.RIP) || !cur.has(X86Regs.RSP)) {
            return new UnwindResult(pcs, UnwindResult.Stop.NO_UNWIND_INFO, 0, 0, "no ip or sp sampled");
        }
        pcs.add(cur.ip());
        int cfi = 0;
        int fp = 0;
        boolean exactPc = true; // the leaf, and a frame interrupted by a signal, are at an exact pc
        while (true) {
            if (pcs.size() >= maxDepth) {
                return new UnwindResult(pcs, UnwindResult.Stop.DEPTH_LIMIT, cfi, fp, null);
            }
            long pc = cur.ip();
            long lookup = exactPc ? pc : pc - 1;
            UnwindRow row = null;
            try {
                row = rowFor(lookup, maps);
            } catch (CannotUnwindException e) {
                return new UnwindResult(pcs, UnwindResult.Stop.BAD_CFI, cfi, fp, hex(pc) + ": " + e.getMessage());
            }
            RegisterSet next;
            if (row != null) {
                Rule ra = row.rule(row.returnColumn());
                if (ra == null || ra instanceof Rule.Undefined) {
                    return new UnwindResult(pcs, UnwindResult.Stop.OUTERMOST, cfi, fp, null);
                }
                try {
                    next = step(row, cur, mem);
                } catch (CannotUnwindException e) {
                    UnwindResult.Stop why = e.getMessage().startsWith(Memory.OUTSIDE)
                            ? UnwindResult.Stop.STACK_END
                            : UnwindResult.Stop.BAD_CFI;
                    return new UnwindResult(pcs, why, cfi, fp, hex(pc) + ": " + e.getMessage());
                }
                cfi++;
                exactPc = row.signalFrame();
            } else {
                if (!cur.has(X86Regs.RBP)) {
                    return new UnwindResult(pcs, UnwindResult.Stop.NO_UNWIND_INFO, cfi, fp, hex(pc));
                }
                long bp = cur.getUnchecked(X86Regs.RBP);
                if (Long.compareUnsigned(bp, cur.sp()) < 0 || !mem.contains(bp, 16)) {
                    return new UnwindResult(
                            pcs,
                            mem.contains(bp, 0) || Long.compareUnsigned(bp, cur.sp()) < 0
                                    ? UnwindResult.Stop.NO_UNWIND_INFO
                                    : UnwindResult.Stop.STACK_END,
                            cfi,
                            fp,
                            hex(pc) + ": no CFI and the frame pointer is not in the stack copy");
                }
                next = new RegisterSet();
                try {
                    next.set(X86Regs.RBP, mem.read8(bp));
                    next.set(X86Regs.RIP, mem.read8(bp + 8));
                } catch (CannotUnwindException e) {
                    return new UnwindResult(pcs, UnwindResult.Stop.STACK_END, cfi, fp, e.getMessage());
                }
                next.set(X86Regs.RSP, bp + 16);
                fp++;
                exactPc = false;
            }
            if (!next.has(X86Regs.RIP) || next.ip() == 0) {
                return new UnwindResult(pcs, UnwindResult.Stop.OUTERMOST, cfi, fp, null);
            }
            if (!next.has(X86Regs.RSP) || (Long.compareUnsigned(next.sp(), cur.sp()) <= 0 && !exactPc)) {
                return new UnwindResult(pcs, UnwindResult.Stop.NOT_MONOTONIC, cfi, fp, hex(pc));
            }
            pcs.add(next.ip());
            cur = next;
        }
    }

    /** The CFI row for runtime address {@code pc}, or null when no mapped file has an FDE for it. */
    public UnwindRow rowFor(long pc, AddressSpace maps) throws CannotUnwindException {
        AddressSpace.Mapping m = maps.find(pc);
        if (m == null) {
            return null;
        }
        ModuleCache.Module mod = modules.get(m.path());
        if (mod == null) {
            return null;
        }
        return mod.cfi().rowAt(pc - mod.loadBias(m));
    }

    /** Applies one row: the caller's registers. */
    static RegisterSet step(UnwindRow row, RegisterSet cur, DwarfExpression.Memory mem) throws CannotUnwindException {
        long cfa = switch (row.cfa()) {
            case CfaRule.RegisterOffset ro -> cur.get(ro.register()) + ro.offset();
            case CfaRule.Expression ex -> DwarfExpression.evaluate(ex.expression(), null, cur, mem);
        };
        RegisterSet next = new RegisterSet();
        for (int col = 0; col < X86Regs.COLUMNS; col++) {
            Rule rule = row.rule(col);
            boolean essential = col == row.returnColumn();
            try {
                switch (rule) {
                    case null -> {
                        if (col == X86Regs.RSP) {
                            next.set(col, cfa);
                        } else if ((CALLEE_SAVED & (1 << col)) != 0 && cur.has(col)) {
                            next.set(col, cur.get(col));
                        }
                    }
                    case Rule.Undefined u -> {}
                    case Rule.SameValue s -> {
                        if (cur.has(col)) {
                            next.set(col, cur.get(col));
                        }
                    }
                    case Rule.Offset o -> next.set(col, mem.read8(cfa + o.offset()));
                    case Rule.ValOffset o -> next.set(col, cfa + o.offset());
                    case Rule.Register r -> next.set(col, cur.get(r.register()));
                    case Rule.Expression e ->
                        next.set(col, mem.read8(DwarfExpression.evaluate(e.expression(), cfa, cur, mem)));
                    case Rule.ValExpression e -> next.set(col, DwarfExpression.evaluate(e.expression(), cfa, cur, mem));
                }
            } catch (CannotUnwindException e) {
                if (essential) {
                    throw e;
                }
                // a register that cannot be recovered is unknown in the caller
            }
        }
        if (row.returnColumn() != X86Regs.RIP && next.has(row.returnColumn())) {
            next.set(X86Regs.RIP, next.getUnchecked(row.returnColumn()));
        }
        return next;
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /** The copied stack: [base, base + length). */
    static final class Memory implements DwarfExpression.Memory {
        static final String OUTSIDE = "outside the copied stack";
        private final ByteBuffer bytes;
        private final long base;

        Memory(byte[] stack, long base) {
            this.bytes = ByteBuffer.wrap(stack).order(ByteOrder.LITTLE_ENDIAN);
            this.base = base;
        }

        boolean contains(long addr, int len) {
            long off = addr - base;
            return off >= 0 && off + len <= bytes.limit() && Long.compareUnsigned(addr, base) >= 0;
        }

        @Override
        public long read8(long addr) throws CannotUnwindException {
            if (!contains(addr, 8)) {
                throw new CannotUnwindException(OUTSIDE + ": 0x" + Long.toHexString(addr));
            }
            return bytes.getLong((int) (addr - base));
        }
    }
}
