package org.rocprofsys.sampler.unwind;

/** How to recover a register of the caller (DWARF 5 §6.4.1 register rules). */
public sealed interface Rule {
    /** The register cannot be recovered (on the return-address column: the outermost frame). */
    record Undefined() implements Rule {}

    /** The caller's value is the callee's value. */
    record SameValue() implements Rule {}

    /** Saved at address CFA + offset. */
    record Offset(long offset) implements Rule {}

    /** The value is CFA + offset. */
    record ValOffset(long offset) implements Rule {}

    /** The value is in another register of the callee. */
    record Register(int register) implements Rule {}

    /** Saved at the address the expression computes (the CFA pushed first). */
    record Expression(byte[] expression) implements Rule {}

    /** The value is what the expression computes (the CFA pushed first). */
    record ValExpression(byte[] expression) implements Rule {}

    Rule UNDEFINED = new Undefined();
    Rule SAME_VALUE = new SameValue();
}
