package org.rocprofsys.sampler;

/** Binary search over sorted start addresses, compared unsigned (symbols, perf maps, FDE index). */
public final class AddressSearch {
    private AddressSearch() {}

    /**
     * The index of the last of {@code starts} (sorted ascending, unsigned) at or below
     * {@code address}; -1 when every start lies above it.
     */
    public static int floor(long[] starts, long address) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
