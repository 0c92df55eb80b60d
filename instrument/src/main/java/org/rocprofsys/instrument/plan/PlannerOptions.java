package org.rocprofsys.instrument.plan;

import org.rocprofsys.instrument.select.SelectionOptions;

/**
 * Options of one planning run.
 *
 * @param selection    the symbol-selection options
 * @param label        which pieces the region labels carry ({@code --label})
 * @param mode         0 trace, 1 sampling (nothing is patched: upstream only wraps main), 2 coverage
 * @param allFunctions {@code --all-functions}: the available list also shows functions that cannot
 *                     be decoded (size 0, or bytes that are not code)
 */
public record PlannerOptions(SelectionOptions selection, LabelFormat label, int mode, boolean allFunctions) {
    public PlannerOptions {
        if (mode < 0 || mode > 2)
            throw new IllegalArgumentException("mode " + mode + " (0 trace, 1 sampling, 2 coverage)");
    }

    public PlannerOptions withSelection(SelectionOptions s) {
        return new PlannerOptions(s, label, mode, allFunctions);
    }

    public static PlannerOptions of(SelectionOptions selection) {
        return new PlannerOptions(selection, LabelFormat.NAME_ONLY, selection.coverage() ? 2 : 0, false);
    }
}
