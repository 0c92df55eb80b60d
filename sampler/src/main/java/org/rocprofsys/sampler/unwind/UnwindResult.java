package org.rocprofsys.sampler.unwind;

import java.util.List;

/**
 * An unwound stack: {@code pcs} leaf first (the sampled ip, then return addresses), why the walk
 * ended, and how many frames came from CFI and from the frame-pointer fallback.
 */
public record UnwindResult(List<Long> pcs, Stop stop, int cfiFrames, int framePointerFrames, String detail) {
    public enum Stop {
        /** The return address is undefined (or 0): the outermost frame, a complete stack. */
        OUTERMOST,
        /** A saved value or the CFA lies outside the copied user stack. */
        STACK_END,
        /** No CFI covers the pc and the frame pointer leads nowhere. */
        NO_UNWIND_INFO,
        /** The CFI at the pc is malformed or uses what is not supported. */
        BAD_CFI,
        /** The stack pointer did not grow: the walk would loop. */
        NOT_MONOTONIC,
        /** The depth cap was reached. */
        DEPTH_LIMIT
    }

    public int depth() {
        return pcs.size();
    }
}
