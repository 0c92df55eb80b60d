package org.rocprofsys.instrument.plan;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.instrument.capstone.Group;
import org.rocprofsys.instrument.capstone.Insn;

/**
 * What one pass over a function's decoded instructions yields: the counts and flags selection
 * needs, the direct branch targets (for the whole-module branch-target check), and the first
 * instructions (the only ones patching needs, so big modules are not kept in memory).
 *
 * @param decodable   the whole range decoded
 * @param instructions number of instructions decoded
 * @param prologue    the first instructions (up to {@link #PROLOGUE_INSNS})
 * @param callTargets targets of direct calls, sorted
 * @param branchTargets targets of direct jumps and calls, sorted
 * @param basicBlocks instruction text per basic block; empty unless asked for (it is big)
 * @param jumpsToEntry a jump inside the function goes back to its entry (a loop made of tail recursion)
 * @param fallsThrough its last instruction does not transfer control (hand-written assembly that runs
 *                     on into the next function)
 */
record FunctionScan(
        boolean decodable,
        int instructions,
        List<Insn> prologue,
        long[] callTargets,
        long[] branchTargets,
        boolean jumpsToEntry,
        boolean hasLoops,
        boolean dynamicCallsites,
        List<String> basicBlocks,
        boolean fallsThrough) {
    static final int PROLOGUE_INSNS = 8;

    static FunctionScan of(long start, long size, List<Insn> insns, boolean withBlocks) {
        boolean complete = size > 0 && !insns.isEmpty() && insns.getLast().end() == start + size;
        Addresses calls = new Addresses();
        Addresses branches = new Addresses();
        boolean loops = false;
        boolean dynamic = false;
        boolean toEntry = false;
        for (Insn i : insns) {
            if (i.branch() != null) {
                long t = i.branch().target();
                branches.add(t);
                if (i.isCall()) calls.add(t);
                else if (t >= start && t <= i.address()) loops = true;
                if (!i.isCall() && t == start) toEntry = true;
            } else if (i.isCall()) {
                dynamic = true;
            }
        }
        long[] branchArray = branches.toArray();
        return new FunctionScan(
                complete,
                insns.size(),
                List.copyOf(insns.subList(0, Math.min(PROLOGUE_INSNS, insns.size()))),
                calls.toArray(),
                branchArray,
                toEntry,
                loops,
                dynamic,
                withBlocks ? basicBlocks(start, size, insns, branchArray) : List.of(),
                complete && !endsControlFlow(insns.getLast()));
    }

    /** ret, jmp, call (to a function that does not return, at a function's end), ud2, hlt, int3. */
    private static boolean endsControlFlow(Insn last) {
        String m = last.mnemonic();
        return last.isReturn()
                || last.isCall()
                || m.endsWith("jmp")
                || m.startsWith("ud")
                || m.equals("hlt")
                || m.equals("int3");
    }

    /**
     * Instruction text per basic block: a block starts at the entry, at each branch target inside
     * the function and after each jump, call or return (Dyninst also ends blocks at calls).
     */
    private static List<String> basicBlocks(long start, long size, List<Insn> insns, long[] targets) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (Insn i : insns) {
            if (cur.length() > 0
                    && java.util.Arrays.binarySearch(targets, i.address()) >= 0
                    && i.address() >= start
                    && i.address() < start + size) {
                out.add(cur.toString());
                cur.setLength(0);
            }
            if (cur.length() > 0) cur.append(' ');
            cur.append(i.text());
            if (i.in(Group.JUMP) || i.isCall() || i.isReturn()) {
                out.add(cur.toString());
                cur.setLength(0);
            }
        }
        if (cur.length() > 0) out.add(cur.toString());
        return out;
    }
}
