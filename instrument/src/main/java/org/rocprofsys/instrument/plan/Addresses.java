package org.rocprofsys.instrument.plan;

import java.util.Arrays;

/**
 * A sorted set of addresses in a plain {@code long[]}: a module has millions of branch targets,
 * which boxed in a TreeSet cost more time and memory than decoding them.
 */
final class Addresses {
    private long[] values = new long[16];
    private int size;
    private boolean sorted = true;

    void add(long v) {
        if (size == values.length) values = Arrays.copyOf(values, size * 2);
        if (size > 0 && values[size - 1] >= v) sorted = false;
        values[size++] = v;
    }

    void addAll(long[] vs) {
        if (size + vs.length > values.length) values = Arrays.copyOf(values, Math.max(size * 2, size + vs.length));
        for (long v : vs) add(v);
    }

    /** Sorted, without duplicates. */
    long[] toArray() {
        seal();
        return Arrays.copyOf(values, size);
    }

    private void seal() {
        if (sorted) return;
        Arrays.sort(values, 0, size);
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (n == 0 || values[n - 1] != values[i]) values[n++] = values[i];
        }
        size = n;
        sorted = true;
    }

    /** Whether some address lies strictly between {@code low} and {@code high}. */
    boolean anyBetween(long low, long high) {
        seal();
        int i = Arrays.binarySearch(values, 0, size, low);
        int next = i >= 0 ? i + 1 : -i - 1;
        return next < size && values[next] < high;
    }
}
