package org.rocprofsys.sampler.unwind;

/** How to compute the Canonical Frame Address: a register plus an offset, or an expression. */
public sealed interface CfaRule {
    record RegisterOffset(int register, long offset) implements CfaRule {}

    record Expression(byte[] expression) implements CfaRule {}
}
