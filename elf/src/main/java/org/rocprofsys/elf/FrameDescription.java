package org.rocprofsys.elf;

/**
 * One FDE of a call-frame section: the code range [begin, end) in link-time addresses and the
 * entry's offset in its section.
 *
 * @param entryState the CFA rule at {@code begin} is a callee's at its first instruction (CFA =
 *                   rsp + 8, return address at CFA - 8, nothing else saved): the range can be a
 *                   function entered by a call. False for GCC's {@code .cold} parts and other
 *                   ranges that continue a frame (their FDE restates the frame before the first
 *                   advance), PLT stubs, and {@code _start} (return address undefined).
 */
public record FrameDescription(long begin, long end, long offset, boolean entryState) {
    public long size() {
        return end - begin;
    }

    public boolean covers(long vaddr) {
        return Long.compareUnsigned(vaddr - begin, end - begin) < 0;
    }
}
