package org.rocprofsys.core.calltree;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/** One process image of a {@link CallTree}: its threads' trees and the bookkeeping that places workers. */
public final class ProcessCalls {
    final int pid;
    int execGeneration;
    /** The main thread's stack changes kept to place workers: at most {@link CallTree#HISTORY_CAPACITY}. */
    public int historySize() {
        return history.size();
    }

    /** Bit k: some region end of this process carried a reading of CPU counter k. */
    final BitSet countersRead = new BitSet();

    final Map<Integer, ThreadCalls> threads = new LinkedHashMap<>();
    ThreadCalls main;
    boolean ended;
    final History history = new History();
    final PriorityQueue<ThreadCalls> pending =
            new PriorityQueue<>(Comparator.comparingLong((ThreadCalls t) -> t.firstBeginNs));

    ProcessCalls(int pid) {
        this.pid = pid;
    }

    public int pid() {
        return pid;
    }

    /** The threads seen, in the order of their first event. */
    public Collection<ThreadCalls> threads() {
        return Collections.unmodifiableCollection(threads.values());
    }

    /** The main thread (number 0, or the thread whose tid is the pid); null when none was seen. */
    public ThreadCalls main() {
        return main;
    }

    /** Bit k: some region end of this process carried a reading of CPU counter k. */
    public BitSet countersRead() {
        return (BitSet) countersRead.clone();
    }

    /** Before the main thread handles an event at {@code ts}: workers that began earlier. */
    void mainAdvance(ThreadCalls mainThread, long ts) {
        while (!pending.isEmpty() && pending.peek().firstBeginNs < ts) {
            ThreadCalls w = pending.poll();
            w.bookmark = mainThread.open();
        }
    }

    void resolveAllPending(CallNode node) {
        while (!pending.isEmpty()) {
            ThreadCalls w = pending.poll();
            w.bookmark = node;
        }
    }

    /** Thread numbers as upstream shows them: ThreadStarted's sequence, else the next free ones. */
    public Map<ThreadCalls, Integer> sequences() {
        Map<ThreadCalls, Integer> out = new HashMap<>();
        int next = 0;
        for (ThreadCalls t : threads.values()) {
            if (t.sequence >= 0) {
                next = Math.max(next, t.sequence + 1);
            }
        }
        if (main != null && main.sequence < 0) {
            next = Math.max(next, 1);
        }
        for (ThreadCalls t : threads.values()) {
            if (t.sequence >= 0) {
                out.put(t, t.sequence);
            } else if (t == main) {
                out.put(t, 0);
            } else {
                out.put(t, next++);
            }
        }
        return out;
    }

    /**
     * Worker threads with data, in the order timemory merges them into the main graph: the
     * ones that ended on their own by end time (their storage merges when the thread exits),
     * then the others (merged at finalization) by descending thread number, as the
     * rocprof-sys documentation sample shows.
     */
    public List<ThreadCalls> workersInMergeOrder(Map<ThreadCalls, Integer> seq) {
        List<ThreadCalls> out = new ArrayList<>();
        for (ThreadCalls t : threads.values()) {
            if (t != main && !t.head.children().isEmpty()) {
                out.add(t);
            }
        }
        out.sort((a, b) -> {
            if (a.endedNormally != b.endedNormally) {
                return a.endedNormally ? -1 : 1;
            }
            if (a.endedNormally) {
                int c = Long.compare(a.endNs, b.endNs);
                return c != 0 ? c : Long.compare(a.endOrder, b.endOrder);
            }
            return Integer.compare(seq.get(b), seq.get(a));
        });
        return out;
    }
}
