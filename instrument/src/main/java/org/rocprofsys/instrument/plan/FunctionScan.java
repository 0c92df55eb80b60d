package org.rocprofsys.instrument.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
 * @param callTargets targets of direct calls
 * @param branchTargets targets of direct jumps and calls
 * @param jumpsToEntry a jump inside the function goes back to its entry (a loop made of tail recursion)
 */
record FunctionScan(boolean decodable, int instructions, List<Insn> prologue, Set<Long> callTargets,
        Set<Long> branchTargets, boolean jumpsToEntry, boolean hasLoops, boolean dynamicCallsites, List<String> basicBlocks) {
    static final int PROLOGUE_INSNS = 8;

    static FunctionScan of(long start, long size, List<Insn> insns) {
        boolean complete = size > 0 && !insns.isEmpty() && insns.getLast().end() == start + size;
        Set<Long> calls = new TreeSet<>();
        Set<Long> branches = new TreeSet<>();
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
        return new FunctionScan(complete, insns.size(), List.copyOf(insns.subList(0, Math.min(PROLOGUE_INSNS, insns.size()))),
                calls, branches, toEntry, loops, dynamic, basicBlocks(start, size, insns, branches));
    }

    /**
     * Instruction text per basic block: a block starts at the entry, at each branch target inside
     * the function and after each jump, call or return (Dyninst also ends blocks at calls).
     */
    private static List<String> basicBlocks(long start, long size, List<Insn> insns, Set<Long> targets) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (Insn i : insns) {
            if (cur.length() > 0 && targets.contains(i.address()) && i.address() >= start && i.address() < start + size) {
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
