package org.rocprofsys.core.calltree;

/**
 * The main thread's last stack changes (time, innermost open entry after the change; null
 * meaning nothing open), at most {@link CallTree#HISTORY_CAPACITY}, oldest dropped first.
 */
final class History {
    // lengths are powers of two (64 doubling to CallTree.HISTORY_CAPACITY): indices wrap with a mask,
    // not a division, on every main-thread region
    private long[] times = new long[64];
    private CallNode[] nodes = new CallNode[64];
    private int start;
    private int size;

    void add(long t, CallNode node) {
        if (size == times.length) {
            if (times.length < CallTree.HISTORY_CAPACITY) {
                grow();
            } else {
                start = (start + 1) & (times.length - 1);
                size--;
            }
        }
        int i = (start + size) & (times.length - 1);
        times[i] = t;
        nodes[i] = node;
        size++;
    }

    private void grow() {
        int cap = Math.min(times.length * 2, CallTree.HISTORY_CAPACITY);
        long[] nt = new long[cap];
        CallNode[] nn = new CallNode[cap];
        for (int k = 0; k < size; k++) {
            int i = (start + k) & (times.length - 1);
            nt[k] = times[i];
            nn[k] = nodes[i];
        }
        times = nt;
        nodes = nn;
        start = 0;
    }

    /**
     * The innermost open entry just after the last change at or before {@code t}; null (the
     * graph head) when there is none (nothing was open yet, or the change fell out of the
     * history).
     */
    CallNode lookup(long t) {
        int lo = 0;
        int hi = size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (times[(start + mid) & (times.length - 1)] <= t) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? null : nodes[(start + found) & (times.length - 1)];
    }

    int size() {
        return size;
    }
}
