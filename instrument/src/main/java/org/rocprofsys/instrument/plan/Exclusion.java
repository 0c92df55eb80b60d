package org.rocprofsys.instrument.plan;

/**
 * A function that is not instrumented and why, in upstream's log wording
 * ({@code [function][Skipping] <reason> :: '<name>'}).
 *
 * <p>Selection reasons are upstream's ({@code min-instructions}, {@code function-exclude-regex},
 * {@code internal library}, {@code critical}, ...; see {@code select.FunctionSelector}) plus
 * {@code main-function}, {@code cold-partition}, {@code return-hook-unsafe},
 * {@code linkage-constraint} and {@code visibility-constraint}. Patching reasons come after
 * selection: {@code too-short-for-patch}, {@code branch-target-in-patch}, {@code symbol-in-patch},
 * {@code unrelocatable-instruction}, {@code return-in-patch}, {@code indirect-jump-in-patch},
 * {@code displacement-out-of-range}, {@code jump-to-entry}, {@code fallthrough-into-entry},
 * {@code ifunc-resolver}, and {@code sampling-mode} (nothing is patched with {@code -M sampling}).
 */
public record Exclusion(FunctionInfo function, String reason) {}
