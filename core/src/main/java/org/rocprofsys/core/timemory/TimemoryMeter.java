package org.rocprofsys.core.timemory;

import java.util.BitSet;
import org.rocprofsys.core.calltree.CallMeter;
import org.rocprofsys.core.event.RegionMetrics;

/** The timemory components as a {@link CallMeter}: one slot per component, one per counter of papi_array. */
final class TimemoryMeter implements CallMeter {
    private final Component[] comps;
    private final ValueSlots slots;
    private final long[] units;
    /** The slot of papi_array's first counter, -1 when papi_array is not selected. */
    private final int counterSlot;

    private final long wallClockUnit;

    TimemoryMeter(TimemoryOptions options) {
        this.comps = options.components().toArray(Component[]::new);
        this.slots = new ValueSlots(options);
        this.units = new long[comps.length];
        for (int i = 0; i < comps.length; i++) {
            units[i] = options.format(comps[i]).unit();
        }
        int papi = options.components().indexOf(Component.PAPI_ARRAY);
        this.counterSlot = papi < 0 ? -1 : slots.first(papi);
        boolean wallClockOnly = comps.length == 1 && comps[0] == Component.WALL_CLOCK && slots.total() == 1;
        this.wallClockUnit = wallClockOnly ? units[0] : 0;
    }

    @Override
    public int slots() {
        return slots.total();
    }

    @Override
    public long wallClockUnit() {
        return wallClockUnit;
    }

    @Override
    public void measure(
            long wallNs, RegionMetrics begin, RegionMetrics end, long[] values, double[] display, BitSet countersRead) {
        for (int i = 0; i < comps.length; i++) {
            int slot = slots.first(i);
            if (slot == counterSlot) {
                int counters = slots.count(i);
                for (int c = 0; c < counters; c++) {
                    long v = Component.counterDelta(c, begin, end);
                    values[slot + c] = v;
                    display[slot + c] = v;
                    if (end.counters().get(c) != RegionMetrics.ABSENT) {
                        countersRead.set(c);
                    }
                }
                continue;
            }
            long v = comps[i].perCall(wallNs, begin, end);
            values[slot] = v;
            display[slot] = comps[i].utilisation() ? Component.percent(v, wallNs) : (double) v / (double) units[i];
        }
    }
}
