package org.rocprofsys.instrument.plan;

/**
 * A function that is not instrumented and why, in upstream's log wording
 * ({@code [function][Skipping] <reason> :: '<name>'}), e.g. "min-instructions",
 * "internal-constrained", "function-exclude-regex", "branch-target-in-patch".
 */
public record Exclusion(FunctionInfo function, String reason) {}
