package org.rocprofsys.core.calltree;

import java.util.Arrays;
import org.rocprofsys.core.event.RegionMetrics;

/** One thread of a {@link CallTree}: its tree (below {@link #head()}) and its open regions. */
public final class ThreadCalls {
    final ProcessCalls process;
    final int tid;
    int sequence = -1;
    final CallNode head;
    /** The open regions, innermost last: entry, begin time and begin readings. */
    CallNode[] nodes = new CallNode[16];

    long[] begin = new long[16];
    RegionMetrics[] readings = new RegionMetrics[16];
    int size;
    long timelineCounter = 1;
    boolean begun;
    long firstBeginNs;
    /** The main-thread entry this worker's graph hangs below; null for the graph head. */
    CallNode bookmark;

    long lastTs = Long.MIN_VALUE;
    boolean ended;
    boolean endedNormally;
    long endNs;
    long endOrder;
    boolean closed;

    ThreadCalls(ProcessCalls process, int tid, int components) {
        this.process = process;
        this.tid = tid;
        this.head = new CallNode(null, null, 0, 0, components);
    }

    public int tid() {
        return tid;
    }

    /** The thread's number from its ThreadStarted (0 for the main thread); -1 when none was seen. */
    public int sequence() {
        return sequence;
    }

    /** The head of the thread's tree: its children are the outermost regions. */
    public CallNode head() {
        return head;
    }

    /**
     * The main thread's entry this worker's tree hangs below (timemory's bookmark); null for the
     * head of the main thread's tree.
     */
    public CallNode bookmark() {
        return bookmark;
    }

    /** The innermost open entry, or the graph head. */
    CallNode current() {
        return size == 0 ? head : nodes[size - 1];
    }

    /** The innermost open entry, or null when nothing is open (the graph head). */
    CallNode open() {
        return size == 0 ? null : nodes[size - 1];
    }

    void push(CallNode node, long ts, RegionMetrics m) {
        if (size == nodes.length) {
            int cap = size * 2;
            nodes = Arrays.copyOf(nodes, cap);
            begin = Arrays.copyOf(begin, cap);
            readings = Arrays.copyOf(readings, cap);
        }
        nodes[size] = node;
        begin[size] = ts;
        readings[size] = m;
        size++;
    }

    /** Closes the innermost open entry (the caller has read what it needs of it). */
    void pop() {
        size--;
        nodes[size] = null;
        readings[size] = null;
    }
}
