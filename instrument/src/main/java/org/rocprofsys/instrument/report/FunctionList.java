package org.rocprofsys.instrument.report;

import java.util.List;
import java.util.Locale;
import org.rocprofsys.instrument.plan.Exclusion;
import org.rocprofsys.instrument.plan.FunctionInfo;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.PlannedFunction;

/**
 * The diagnostic lists of inventory §6.4: file stem, JSON/XML label and stdout tag. COVERAGE is
 * written in coverage mode only ({@code -M coverage}), where it lists the functions that record
 * coverage (the patched ones).
 */
public enum FunctionList {
    AVAILABLE,
    INSTRUMENTED,
    EXCLUDED,
    OVERLAPPING,
    COVERAGE;

    /** "available", ... (the constant's name in lower case): the file name stem and the {@code [available]} stdout tag. */
    public String stem() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** "available_module_functions", ...: the JSON/XML node under "rocprofsys". */
    public String label() {
        return stem() + "_module_functions";
    }

    /** The rows of this list in {@code plan}. */
    public List<FunctionInfo> rows(InstrumentPlan plan) {
        return switch (this) {
            case AVAILABLE -> plan.available();
            case INSTRUMENTED ->
                plan.instrumented().stream().map(PlannedFunction::function).toList();
            case EXCLUDED -> plan.excluded().stream().map(Exclusion::function).toList();
            case OVERLAPPING -> plan.overlapping();
            case COVERAGE ->
                plan.mode() == 2
                        ? plan.instrumented().stream()
                                .map(PlannedFunction::function)
                                .toList()
                        : List.of();
        };
    }

    /** Whether the rows have a reason (the excluded list's). */
    public boolean hasReasons() {
        return this == EXCLUDED;
    }

    /**
     * Why each row of {@link #rows} is in this list, in the same order: the excluded list's
     * reasons (upstream's words, see {@code plan.Exclusion}); empty for the other lists.
     */
    public List<String> reasons(InstrumentPlan plan) {
        return hasReasons() ? plan.excluded().stream().map(Exclusion::reason).toList() : List.of();
    }

    public static FunctionList of(String stem) {
        for (FunctionList l : values()) {
            if (l.stem().equals(stem)) return l;
        }
        throw new IllegalArgumentException(
                "unknown list '" + stem + "' (available, instrumented, excluded, overlapping, coverage)");
    }
}
