package org.rocprofsys.core.pipeline;

import java.util.Arrays;

/**
 * One flag per open region of a thread, innermost last: whether a stage kept the region's begin,
 * so that it treats the end alike. An array stack: the stages ask it twice per region, and a deque
 * of boxed booleans cost more than their own work.
 */
final class RegionFlags {
    private boolean[] flags = new boolean[16];
    private int size;

    void push(boolean flag) {
        if (size == flags.length) {
            flags = Arrays.copyOf(flags, 2 * size);
        }
        flags[size++] = flag;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The innermost region's flag, taken off; the stack must not be empty. */
    boolean pop() {
        return flags[--size];
    }
}
