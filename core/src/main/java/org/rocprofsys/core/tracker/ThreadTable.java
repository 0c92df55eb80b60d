package org.rocprofsys.core.tracker;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The per-thread state of one stage or writer, by (pid, tid): the one table that the pipeline's
 * normaliser (open regions and lifetimes), the trace's track registry (thread and sampled-stack
 * tracks), the call tree (each thread's tree), and the category filter keep, instead of a map,
 * a key function and a last-thread cache each.
 *
 * <p>Events of one thread come in runs (a ring's batch), so the last thread looked up is cached:
 * a lookup of the same thread again is one comparison, no hashing and no allocation. The table's
 * order (for {@link #forEach} and {@link #removeProcess}) is that of a {@link HashMap} keyed by
 * {@link #key}: every owner of state closed at one moment (regions still open when a process
 * ends, a run finishes) walks its threads in the same order.
 *
 * <p>Each owner has its own table on its own thread (the outputs run behind the normaliser, on
 * threads of their own): the balanced stream the normaliser hands on gives each the same
 * lifetimes. Not thread-safe.
 *
 * @param <T> what the owner keeps per thread
 */
public final class ThreadTable<T> {
    private final Map<Long, T> threads = new HashMap<>();
    private long lastKey;
    /** The entry of {@link #lastKey}; null when nothing is cached. */
    private T last;

    /** The table's key of a thread: pid in the high half, tid in the low. */
    public static long key(int pid, int tid) {
        return ((long) pid << 32) | (tid & 0xffffffffL);
    }

    public static int pid(long key) {
        return (int) (key >>> 32);
    }

    public static int tid(long key) {
        return (int) key;
    }

    /** The thread's entry, or null. */
    public T get(int pid, int tid) {
        long k = key(pid, tid);
        if (last != null && k == lastKey) {
            return last; // events come in runs of one thread
        }
        T t = threads.get(k);
        if (t != null) {
            lastKey = k;
            last = t;
        }
        return t;
    }

    /** The thread's entry, made by {@code make} (a constant: no allocation per call) when it has none. */
    public T get(int pid, int tid, Supplier<? extends T> make) {
        T t = get(pid, tid);
        if (t == null) {
            t = make.get();
            put(pid, tid, t);
        }
        return t;
    }

    /** Sets the thread's entry (a new thread, or a new one of that number). */
    public void put(int pid, int tid, T entry) {
        long k = key(pid, tid);
        threads.put(k, entry);
        lastKey = k;
        last = entry;
    }

    /** Removes the thread's entry and returns it, or null. */
    public T remove(int pid, int tid) {
        last = null;
        return threads.remove(key(pid, tid));
    }

    /** Removes every thread of {@code pid}, in the table's order, handing each to {@code removed} (key, entry). */
    public void removeProcess(int pid, BiConsumer<Long, ? super T> removed) {
        last = null;
        Iterator<Map.Entry<Long, T>> it = threads.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, T> e = it.next();
            if (pid(e.getKey()) == pid) {
                it.remove();
                removed.accept(e.getKey(), e.getValue());
            }
        }
    }

    /** Every thread's entry (key, entry), in the table's order. */
    public void forEach(BiConsumer<Long, ? super T> action) {
        threads.forEach(action);
    }

    public int size() {
        return threads.size();
    }

    public void clear() {
        threads.clear();
        last = null;
    }
}
