package org.rocprofsys.instrument.plan;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything the planner decided for one module (an executable or a shared library).
 *
 * @param module        the ELF file
 * @param sharedObject  ET_DYN (PIE executables included); false for ET_EXEC
 * @param available     every function symbol considered (the "available" list)
 * @param instrumented  the functions to patch, in address order
 * @param excluded      the functions left out, each with its reason
 * @param overlapping   functions whose address ranges overlap another's
 * @param mode          0 trace, 1 sampling, 2 coverage ({@code -M})
 */
public record InstrumentPlan(
        Path module,
        boolean sharedObject,
        List<FunctionInfo> available,
        List<PlannedFunction> instrumented,
        List<Exclusion> excluded,
        List<FunctionInfo> overlapping,
        int mode) {
    public InstrumentPlan {
        available = List.copyOf(available);
        instrumented = List.copyOf(instrumented);
        excluded = List.copyOf(excluded);
        overlapping = List.copyOf(overlapping);
    }
}
