package org.rocprofsys.sampler.unwind;

/**
 * A Frame Description Entry: the code range [pcBegin, pcBegin + pcRange) in link-time addresses,
 * its CIE, and its instructions.
 */
public record Fde(long offset, Cie cie, long pcBegin, long pcRange, byte[] instructions, long instructionsAddr) {
    public long pcEnd() {
        return pcBegin + pcRange;
    }

    public boolean covers(long pc) {
        return Long.compareUnsigned(pc - pcBegin, pcRange) < 0;
    }
}
