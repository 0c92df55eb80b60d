package org.rocprofsys.instrument.select;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.instrument.plan.FunctionInfo;

/**
 * Decides, per function, whether it is instrumented: upstream's {@code should_instrument}
 * (inventory §6.2), evaluated in the same order and logging the same reason words.
 *
 * <p>Patchability (can a 5-byte jump be written at the entry) is not decided here but by the
 * planner afterwards; it plays the part of upstream's "instrumentable entry point" checks.
 */
public final class FunctionSelector {
    private final SelectionOptions options;

    public FunctionSelector(SelectionOptions options) {
        this.options = options;
    }

    public SelectionOptions options() {
        return options;
    }

    public Decision decide(FunctionFacts facts) {
        FunctionInfo f = facts.info();
        List<SelectionMessage> log = new ArrayList<>();
        String name = f.name();
        String module = f.module();

        // 1. hard constraints
        if (!facts.decodable()) {
            return skip(log, 3, "Skipping", "function", "no-instrumentable-entry-point", name);
        }
        HardConstraints.Hit hit = HardConstraints.internal(module, name, options);
        if (hit == null) hit = HardConstraints.module(module);
        // upstream's module rules are written for compilation units (".S" sources, glibc's s_*.c)
        String moduleSubject = module;
        if (hit == null && !facts.sourceFile().isEmpty()) {
            hit = HardConstraints.module(facts.sourceFile());
            moduleSubject = facts.sourceFile();
        }
        if (hit == null) hit = HardConstraints.routine(name, options.mainFunction());
        // a C++ cold partition demangles to "f(int) [clone .cold]": its name alone is f's
        if (hit == null && !f.signature().equals(name)) hit = HardConstraints.coldPartition(f.signature());
        if (hit != null) {
            return skip(
                    log,
                    hit.level(),
                    hit.action(),
                    hit.type(),
                    hit.reason(),
                    hit.type().equals("module") ? moduleSubject : name);
        }

        // 2. too small to matter (before user selection)
        if (f.instructions() < 2) return skip(log, 2, "Skipping", "function", "less-than-2-instructions", name);

        // 3. user excludes
        String excludedModule = matchingModule(options.moduleExclude(), facts);
        if (excludedModule != null) {
            return skip(log, 2, "Skipping", "module", "module-exclude-regex", excludedModule);
        }
        if (HardConstraints.any(options.functionExclude(), name)) {
            return skip(log, 2, "Skipping", "function", "function-exclude-regex", name);
        }
        if (HardConstraints.any(options.functionExclude(), f.signature())) {
            return skip(log, 2, "Skipping", "function", "function-exclude-regex", f.signature());
        }

        // 4. overlapping
        if (!options.allowOverlapping() && facts.overlapping()) {
            return skip(log, 2, "Skipping", "function", "overlapping", name);
        }

        // 5. dynamic call sites force inclusion (before the size constraints)
        if (!options.coverage() && options.dynamicCallsites() && facts.dynamicCallsites()) {
            return force(log, "function", "dynamic-callsites", name);
        }

        // 6. restrict, else include
        if (!options.moduleRestrict().isEmpty() || !options.functionRestrict().isEmpty()) {
            return restrict(facts, log);
        }
        Decision included = include(facts, log);
        if (included != null) return included;

        // 7. linkage and visibility (not for coverage)
        if (!options.coverage()) {
            if (!f.linkage().equals("unknown") && !options.linkage().contains(f.linkage())) {
                return skip(log, 3, "Skipping", "function", "linkage-constraint", name);
            }
            if (!f.visibility().equals("unknown") && !options.visibility().contains(f.visibility())) {
                return skip(log, 3, "Skipping", "function", "visibility-constraint", name);
            }
        }

        // 8. size and instruction constraints; functions with loops use the loop minimums
        if (facts.hasLoops()) {
            if (f.size() < options.minAddressRangeLoop()) {
                return skip(log, 2, "Skipping", "function", "min-address-range-loop", name);
            }
            if (f.instructions() < options.minInstructionsLoop()) {
                return skip(log, 2, "Skipping", "function", "min-instructions-loop", name);
            }
        } else {
            if (f.size() < options.minAddressRange()) {
                return skip(log, 2, "Skipping", "function", "min-address-range", name);
            }
            if (f.instructions() < options.minInstructions()) {
                return skip(log, 2, "Skipping", "function", "min-instructions", name);
            }
        }
        for (String block : facts.basicBlocks()) {
            if (!block.isEmpty() && HardConstraints.any(options.instructionExclude(), block)) {
                return skip(log, 2, "Skipping", "function", "instruction-exclude-regex", name);
            }
        }
        return new Decision(true, "no-constraint", log);
    }

    private Decision restrict(FunctionFacts facts, List<SelectionMessage> log) {
        FunctionInfo f = facts.info();
        if (!options.moduleRestrict().isEmpty()) {
            String restricted = matchingModule(options.moduleRestrict(), facts);
            if (restricted != null) {
                return force(log, "module", "module-restrict-regex", restricted);
            }
            return skip(log, 3, "Skipping", "module", "module-restrict-regex", f.module());
        }
        if (HardConstraints.any(options.functionRestrict(), f.name())) {
            return force(log, "function", "function-restrict-regex", f.name());
        }
        if (HardConstraints.any(options.functionRestrict(), f.signature())) {
            return force(log, "function", "function-restrict-regex", f.signature());
        }
        return skip(log, 3, "Skipping", "function", "function-restrict-regex", f.name());
    }

    /** The forcing includes; null when none applies. */
    private Decision include(FunctionFacts facts, List<SelectionMessage> log) {
        FunctionInfo f = facts.info();
        String includedModule = matchingModule(options.moduleInclude(), facts);
        if (includedModule != null) {
            return force(log, "module", "module-include-regex", includedModule);
        }
        if (HardConstraints.any(options.functionInclude(), f.name())) {
            return force(log, "function", "function-include-regex", f.name());
        }
        if (HardConstraints.any(options.functionInclude(), f.signature())) {
            return force(log, "function", "function-include-regex", f.signature());
        }
        if (!options.callerInclude().isEmpty()) {
            for (String callee : facts.calledNames()) {
                if (HardConstraints.any(options.callerInclude(), callee)) {
                    return force(log, "function", "caller-include-regex", f.name());
                }
            }
        }
        return null;
    }

    /** The module path, else the source file, that one of {@code patterns} matches; null for none. */
    private static String matchingModule(List<java.util.regex.Pattern> patterns, FunctionFacts facts) {
        if (HardConstraints.any(patterns, facts.info().module()))
            return facts.info().module();
        if (!facts.sourceFile().isEmpty() && HardConstraints.any(patterns, facts.sourceFile()))
            return facts.sourceFile();
        return null;
    }

    private static Decision skip(
            List<SelectionMessage> log, int level, String action, String type, String reason, String subject) {
        log.add(new SelectionMessage(level, action, type, reason, subject));
        return new Decision(false, reason, log);
    }

    private static Decision force(List<SelectionMessage> log, String type, String reason, String subject) {
        log.add(new SelectionMessage(2, "Forcing", type, reason, subject));
        return new Decision(true, reason, log);
    }
}
