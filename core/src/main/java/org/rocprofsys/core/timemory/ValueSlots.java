package org.rocprofsys.core.timemory;

import java.util.List;

/**
 * Where each selected component's values sit in a call-graph entry's arrays ({@link org.rocprofsys.core.calltree.Measure}):
 * one slot per component, except papi_array, which has one per CPU counter (timemory's
 * {@code std::array<long long, N>}). A utilisation's slot holds its CPU time; the wall time, the
 * other half of its pair, is the entry's {@link org.rocprofsys.core.calltree.Measure#wallNs}.
 */
final class ValueSlots {
    private final List<Component> components;
    private final int[] first;
    private final int[] count;
    private final int total;

    ValueSlots(TimemoryOptions options) {
        this.components = options.components();
        this.first = new int[components.size()];
        this.count = new int[components.size()];
        int next = 0;
        for (int i = 0; i < first.length; i++) {
            first[i] = next;
            count[i] = components.get(i) == Component.PAPI_ARRAY
                    ? options.counters().size()
                    : 1;
            next += count[i];
        }
        this.total = next;
    }

    /** Slots of every component together: the length of a {@link org.rocprofsys.core.calltree.Measure}'s arrays. */
    int total() {
        return total;
    }

    /** The first slot of the component at index {@code ci} of the options' components. */
    int first(int ci) {
        return first[ci];
    }

    /** How many slots the component at index {@code ci} has. */
    int count(int ci) {
        return count[ci];
    }

    Component component(int ci) {
        return components.get(ci);
    }

    int components() {
        return first.length;
    }
}
