package org.rocprofsys.instrument.select;

import java.util.List;
import java.util.Set;
import org.rocprofsys.instrument.plan.FunctionInfo;

/**
 * What selection needs to know about one function, gathered by the planner from the ELF file and
 * the decoded instructions.
 *
 * @param info              the function as the lists show it
 * @param decodable         the whole range decoded into valid instructions
 * @param calledNames       demangled names (without parameters) of the functions it calls directly,
 *                          PLT stubs resolved to the imported name
 * @param hasLoops          a branch inside the function jumps backwards (a loop)
 * @param dynamicCallsites  it has an indirect call
 * @param overlapping       its range overlaps another function's partially
 * @param basicBlocks       instruction text per basic block ("mnemonic op_str" joined by spaces)
 * @param sourceFile        the source file of its entry from the DWARF line table ("" when unknown);
 *                          upstream's module of a function in a binary with debug information is its
 *                          compilation unit, so module regexes ({@code -ME "\.c$"}) also match this
 */
public record FunctionFacts(
        FunctionInfo info,
        boolean decodable,
        Set<String> calledNames,
        boolean hasLoops,
        boolean dynamicCallsites,
        boolean overlapping,
        List<String> basicBlocks,
        String sourceFile) {
    public FunctionFacts {
        calledNames = Set.copyOf(calledNames);
        basicBlocks = List.copyOf(basicBlocks);
    }

    public FunctionFacts(
            FunctionInfo info,
            boolean decodable,
            Set<String> calledNames,
            boolean hasLoops,
            boolean dynamicCallsites,
            boolean overlapping,
            List<String> basicBlocks) {
        this(info, decodable, calledNames, hasLoops, dynamicCallsites, overlapping, basicBlocks, "");
    }
}
