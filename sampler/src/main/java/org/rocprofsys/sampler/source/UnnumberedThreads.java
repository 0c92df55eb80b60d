package org.rocprofsys.sampler.source;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * What perf delivers for threads whose number (the agent's THREAD_START) is not known yet,
 * kept by (pid, tid) until it is: perf's side-band and samples can come before the thread's ring
 * says its number. Bounded: beyond {@value #MAX_HELD} items in all, {@link #hold} refuses.
 */
final class UnnumberedThreads<T> {
    static final long MAX_HELD = 200_000;

    private final Map<Long, List<T>> held = new HashMap<>();
    private long count;

    /** Keeps {@code item} for its thread; false when the bound is reached (the caller drops it). */
    boolean hold(int pid, int tid, T item) {
        if (count >= MAX_HELD) {
            return false;
        }
        held.computeIfAbsent(ThreadTable.key(pid, tid), k -> new ArrayList<>()).add(item);
        count++;
        return true;
    }

    /** The items kept for one thread, no longer kept (empty when none). */
    List<T> release(int pid, int tid) {
        return take(ThreadTable.key(pid, tid));
    }

    /** The items kept for every thread of {@code pid}, no longer kept. */
    List<T> releaseProcess(int pid) {
        List<T> out = new ArrayList<>();
        for (long k : List.copyOf(held.keySet())) {
            if ((int) (k >>> 32) == pid) {
                out.addAll(take(k));
            }
        }
        return out;
    }

    /** Everything still kept, no longer kept. */
    List<T> releaseAll() {
        List<T> out = new ArrayList<>();
        for (long k : List.copyOf(held.keySet())) {
            out.addAll(take(k));
        }
        return out;
    }

    private List<T> take(long key) {
        List<T> items = held.remove(key);
        if (items == null) {
            return List.of();
        }
        count -= items.size();
        return items;
    }
}
