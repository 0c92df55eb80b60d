package org.rocprofsys.sampler.source;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongToIntFunction;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.sampler.counters.PerfCounter;
import org.rocprofsys.sampler.perf.PerfEventAttr;
import org.rocprofsys.sampler.perf.PerfRecord;

/**
 * The CPU counters that ride in perf's samples: the run's counters as members of each CPU's
 * sampling group, and the per-sample changes made from the counts the samples carry.
 *
 * <p>The events are per CPU and inherited, so every thread has one copy of the group per CPU,
 * counting from 0 (from the thread's creation, or from exec for the target's first thread) while
 * the thread runs on that CPU, and a sample carries the counts of the copy that fired (PERF_SAMPLE_READ
 * with inherit, Linux 6.12+: the thread's own counts, not the sum over threads). A sample stands
 * for the leader's period on that copy, so its change is the count since the previous sample of
 * the same thread on the same CPU, or the whole count for the copy's first sample: summed over a
 * thread's samples the changes give its counts up to each CPU's last sample.
 *
 * <p>Used by the source's unwinding thread only.
 */
final class PerfSampleCounts {
    private final List<String> names;
    /** The slot (index in {@link #names}) of each group member, in the order they are opened. */
    private final int[] slotOfMember;

    private final List<PerfEventAttr> members;
    /** (tid, cpu) -> the member counts of that copy's previous sample. */
    private final Map<Long, long[]> previous = new HashMap<>();

    /**
     * @param names the run's counter names (ROCPROFSYS_PAPI_EVENTS)
     * @param slots per name (in order, possibly fewer), its event, or empty where refused
     */
    PerfSampleCounts(List<String> names, List<Optional<PerfCounter>> slots) {
        this.names = List.copyOf(names);
        List<PerfEventAttr> attrs = new ArrayList<>();
        List<Integer> slotList = new ArrayList<>();
        for (int i = 0; i < Math.min(names.size(), slots.size()); i++) {
            if (slots.get(i).isPresent()) {
                attrs.add(slots.get(i).get().attr());
                slotList.add(i);
            }
        }
        this.members = List.copyOf(attrs);
        this.slotOfMember = slotList.stream().mapToInt(Integer::intValue).toArray();
    }

    static PerfSampleCounts none() {
        return new PerfSampleCounts(List.of(), List.of());
    }

    List<String> names() {
        return names;
    }

    /** The counting events to put in each CPU's group, in slot order; empty when none is counted. */
    List<PerfEventAttr> members() {
        return members;
    }

    boolean isEmpty() {
        return members.isEmpty();
    }

    /**
     * The change of each counter (by slot, {@link RegionMetrics#ABSENT} for a refused one) that
     * {@code s} stands for, or null when it carries no counts of these members.
     *
     * @param memberOfId the member index of a count's id ({@code PerfEvents::member}), -1 for others
     */
    long[] changes(PerfRecord.Sample s, LongToIntFunction memberOfId) {
        PerfRecord.Counts read = s.read();
        if (members.isEmpty() || read.size() == 0) {
            return null;
        }
        long[] now = new long[members.size()];
        Arrays.fill(now, -1);
        boolean any = false;
        for (int i = 0; i < read.size(); i++) {
            int m = memberOfId.applyAsInt(read.ids()[i]);
            if (m >= 0 && m < now.length) {
                now[m] = read.values()[i];
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        long[] before = previous.put(key(s.tid(), s.cpu()), now);
        long[] change = new long[names.size()];
        Arrays.fill(change, RegionMetrics.ABSENT);
        for (int m = 0; m < now.length; m++) {
            if (now[m] < 0) {
                continue;
            }
            long base = before == null || before[m] < 0 || before[m] > now[m] ? 0 : before[m];
            change[slotOfMember[m]] = now[m] - base;
        }
        return change;
    }

    /**
     * A thread ended: its copies are gone, and a new thread with its tid starts from 0 again.
     * (A counter that went backwards is taken as such a new copy too, when the exit was not seen.)
     */
    void threadEnded(int tid) {
        previous.keySet().removeIf(k -> (int) (k >>> 32) == tid);
    }

    private static long key(int tid, int cpu) {
        return ((long) tid << 32) | (cpu & 0xffffffffL);
    }
}
