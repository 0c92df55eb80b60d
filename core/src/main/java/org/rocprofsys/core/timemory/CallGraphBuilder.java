package org.rocprofsys.core.timemory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;

/**
 * Builds timemory's call graphs from the event stream: one graph per (process, thread), each a
 * tree of call paths (or a flat list of names, or one entry per call with TIMELINE_PROFILE),
 * accumulating per entry the laps and, for each selected component, the sum and statistics of
 * the per-call values.
 *
 * <p>RegionBegin enters a child of the innermost open region (strict nesting per thread);
 * RegionEnd closes the innermost one at its timestamp, forced or not. The pipeline closes regions
 * left open when their thread ends, their process ends, or the run finishes with forced ends that
 * carry no readings: their cpu/memory change counts as 0.
 *
 * <p>Memory grows with the number of distinct call paths, never with the number of events
 * (except with TIMELINE_PROFILE, where every call is an entry, as upstream), plus a bounded
 * history of the main thread's recent stack changes (see below).
 *
 * <p><b>Thread placement.</b> timemory lets a worker thread "bookmark" the main thread's current
 * call-graph position when the worker records its first region (rocprof-sys sets
 * MAX_THREAD_BOOKMARKS=1), and merges the worker's graph below that position. So a thread started
 * while the main thread sits in {@code pthread_create} shows up nested under it. Events of
 * different threads arrive in any order here, so the builder finds the main thread's innermost
 * open region at the worker's first-region time either at once from a history of the main
 * thread's last 65536 stack changes, or later when the main thread's events pass that time.
 */
final class CallGraphBuilder {
    static final int HISTORY_CAPACITY = 1 << 16;

    private final TimemoryOptions options;
    private final Component[] comps;
    private final ValueSlots slots;
    /** Slots per entry ({@link ValueSlots#total()}). */
    private final int n;

    private final long[] units;
    /** The slot of papi_array's first counter, -1 when papi_array is not selected. */
    private final int counterSlot;
    /** Only wall_clock is measured (the default): a call's one value is its wall time. */
    private final boolean wallClockOnly;
    /** FLAT_PROFILE and TIMELINE_PROFILE, read once: every region asks. */
    private final boolean flat;

    private final boolean timeline;

    private final Map<Integer, ProcessState> processes = new LinkedHashMap<>();
    private final Map<Long, ThreadState> threadsByKey = new HashMap<>();
    private final long[] values;
    private final double[] display;
    private long nodes;
    private long endOrder;
    private long lastKey = Long.MIN_VALUE;
    private ThreadState lastThread;

    /**
     * Worker threads hang at the graph head instead of below the main thread's region of the
     * moment they started (sampled profiles: their times are per-thread virtual clocks).
     */
    private boolean threadsAtRoot;

    void threadsAtRoot() {
        threadsAtRoot = true;
    }

    CallGraphBuilder(TimemoryOptions options) {
        this.options = options;
        this.comps = options.components().toArray(Component[]::new);
        this.slots = new ValueSlots(options);
        this.n = slots.total();
        this.units = new long[comps.length];
        for (int i = 0; i < comps.length; i++) {
            units[i] = options.format(comps[i]).unit();
        }
        int papi = options.components().indexOf(Component.PAPI_ARRAY);
        this.counterSlot = papi < 0 ? -1 : slots.first(papi);
        this.wallClockOnly = comps.length == 1 && comps[0] == Component.WALL_CLOCK && n == 1;
        this.flat = options.profile().flat();
        this.timeline = options.profile().timeline();
        this.values = new long[n];
        this.display = new double[n];
    }

    /** Call-graph entries created so far, over all processes and threads. */
    long nodeCount() {
        return nodes;
    }

    List<ProcessState> processes() {
        return new ArrayList<>(processes.values());
    }

    void accept(SinkEvent event) {
        switch (event) {
            case RegionBegin b -> begin(b);
            case RegionEnd e -> end(e);
            case ThreadStarted s -> threadStarted(s);
            case ThreadEnded e -> threadEnded(e);
            case ProcessStarted s -> processStarted(s);
            case ProcessEnded e -> processEnded(e);
            default -> {}
        }
    }

    /** Ends the processes still running at {@code endNs} and settles every thread's placement. */
    void finish(long endNs) {
        for (ProcessState p : processes.values()) {
            if (!p.ended) {
                endProcess(p, endNs);
            }
            p.resolveAllPending(null);
        }
    }

    // ---------------------------------------------------------------------------------------

    private void processStarted(ProcessStarted s) {
        ProcessState p = processes.get(s.pid());
        if (p != null && (p.ended || s.execGeneration() > p.execGeneration)) {
            // A new image of the same pid (exec): its regions join the old image's graphs (upstream
            // keeps only the last image, whose profile would then lack what ran before the exec).
            // The main thread starts again; the old image's other threads have ended.
            p.ended = false;
            p.execGeneration = s.execGeneration();
            ThreadState main = threadsByKey.get(((long) s.pid() << 32) | (s.pid() & 0xffffffffL));
            if (main != null) {
                main.ended = false;
                main.closed = false;
                main.size = 0;
                p.main = main;
            }
            p.resolveAllPending(null);
        }
        if (p == null) {
            p = new ProcessState(s.pid());
            p.execGeneration = s.execGeneration();
            processes.put(s.pid(), p);
        }
    }

    private void processEnded(ProcessEnded e) {
        ProcessState p = processes.get(e.pid());
        if (p != null && !p.ended) {
            endProcess(p, e.timestampNs());
        }
    }

    private void endProcess(ProcessState p, long ts) {
        if (p.main != null && !p.main.closed) {
            endMain(p, p.main, ts);
        }
        p.resolveAllPending(null);
        p.ended = true;
    }

    private void threadStarted(ThreadStarted s) {
        ThreadState t = thread(s.pid(), s.tid());
        t.sequence = s.sequence();
        ProcessState p = t.process;
        if (s.sequence() == 0) {
            p.main = t;
        } else if (p.main == t) {
            p.main = null;
        }
    }

    private void threadEnded(ThreadEnded e) {
        ThreadState t = thread(e.pid(), e.tid());
        if (t.ended) {
            return;
        }
        t.ended = true;
        t.endedNormally = !e.abrupt();
        t.endNs = e.timestampNs();
        t.endOrder = endOrder++;
        ProcessState p = t.process;
        if (p.main == t) {
            endMain(p, t, e.timestampNs());
        }
    }

    /** A run of plain regions: the same as its events one by one, read from its arrays. */
    void acceptRegions(RegionRun run) {
        ThreadState t = thread(run.pid(), run.tid());
        boolean calls = wallClockOnly && !flat && !timeline;
        for (int i = 0, n = run.size(); i < n; i++) {
            if (run.isBegin(i)) {
                if (calls && i + 1 < n && !run.isBegin(i + 1)) {
                    call(t, run.time(i), run.time(i + 1), run.name(i));
                    i++;
                } else {
                    begin(t, run.time(i), run.name(i), RegionMetrics.NONE);
                }
            } else {
                end(t, run.time(i), RegionMetrics.NONE);
            }
        }
    }

    /**
     * A region whose end comes next (a leaf call: most of an instrumented run's records), as
     * {@link #begin} and then {@link #end} would take it in a tree profile of wall_clock alone, but
     * without the thread's stack: its entry is never pushed unless a waiting worker's first region
     * falls inside it and must find it open.
     */
    private void call(ThreadState t, long beginNs, long endNs, String name) {
        ProcessState p = t.process;
        boolean main = p.main == t;
        beginning(t, beginNs);
        ProfileNode node = child(t.current(), name);
        if (main) {
            p.history.add(beginNs, node);
            if (!p.pending.isEmpty()) {
                t.push(node, beginNs, RegionMetrics.NONE);
                p.mainAdvance(t, endNs);
                t.pop();
            }
        }
        long wallNs = endNs - beginNs;
        recordWall(node, wallNs);
        long last = Math.max(beginNs, endNs);
        if (t.lastTs < last) {
            t.lastTs = last;
        }
        if (main) {
            p.history.add(endNs, t.open());
        }
    }

    private void begin(RegionBegin b) {
        begin(thread(b.pid(), b.tid()), b.timestampNs(), b.name(), b.metrics());
    }

    private void begin(ThreadState t, long ts, String name, RegionMetrics metrics) {
        ProcessState p = t.process;
        boolean main = p.main == t;
        beginning(t, ts);
        ProfileNode parent = flat ? t.head : t.current();
        ProfileNode node;
        if (timeline) {
            node = parent.newChild(name, t.timelineCounter++, n);
            nodes++;
        } else {
            node = child(parent, name);
        }
        RegionMetrics m = metrics == null ? RegionMetrics.NONE : metrics;
        t.push(node, ts, m);
        if (t.lastTs < ts) {
            t.lastTs = ts;
        }
        if (main && !flat) {
            p.history.add(ts, node);
        }
    }

    /** Before a region begun on {@code t} at {@code ts} opens: the main thread's waiting workers, a worker's first region. */
    private void beginning(ThreadState t, long ts) {
        ProcessState p = t.process;
        if (p.main == t) {
            p.mainAdvance(t, ts);
        } else if (!t.begun) {
            firstBegin(p, t, ts);
        }
        t.begun = true;
    }

    /** The entry {@code name} below {@code parent} in a tree or flat profile, made when new. */
    private ProfileNode child(ProfileNode parent, String name) {
        ProfileNode node = parent.find(name);
        if (node == null) {
            node = parent.add(name, n);
            nodes++;
        }
        return node;
    }

    private void end(RegionEnd e) {
        end(thread(e.pid(), e.tid()), e.timestampNs(), e.metrics());
    }

    private void end(ThreadState t, long ts, RegionMetrics metrics) {
        ProcessState p = t.process;
        boolean main = p.main == t;
        if (main) {
            p.mainAdvance(t, ts);
        }
        if (t.size == 0) {
            return;
        }
        RegionMetrics m = metrics == null ? RegionMetrics.NONE : metrics;
        record(t, ts, m);
        if (t.lastTs < ts) {
            t.lastTs = ts;
        }
        if (main && !flat) {
            p.history.add(ts, t.open());
        }
    }

    /** A worker's first region: resolve its bookmark now if the main thread is past that time. */
    private void firstBegin(ProcessState p, ThreadState t, long ts) {
        t.firstBeginNs = ts;
        if (flat || threadsAtRoot) {
            return; // flat inserts never move the main thread's current position off the graph head
        }
        ThreadState main = p.main;
        if (main != null && (main.lastTs > ts || main.closed)) {
            t.bookmark = main.lastTs > ts ? p.history.lookup(ts) : null;
        } else {
            p.pending.add(t);
        }
    }

    private void endMain(ProcessState p, ThreadState main, long ts) {
        p.mainAdvance(main, ts);
        p.resolveAllPending(null);
        main.closed = true;
        if (main.lastTs < ts) {
            main.lastTs = ts;
        }
    }

    /** Adds a call of {@code wallNs} to {@code node} when wall_clock is the only component. */
    private void recordWall(ProfileNode node, long wallNs) {
        node.measure.recordOne(wallNs, (double) wallNs / (double) units[0], wallNs);
    }

    /** Pops the thread's innermost region and adds the call to its entry. */
    private void record(ThreadState t, long ts, RegionMetrics end) {
        int k = t.size - 1;
        ProfileNode node = t.nodes[k];
        RegionMetrics begin = t.readings[k];
        long wallNs = ts - t.begin[k];
        t.pop();
        if (wallClockOnly) {
            // what the loop below makes of wall_clock alone, without its arrays
            recordWall(node, wallNs);
            return;
        }
        for (int i = 0; i < comps.length; i++) {
            int slot = slots.first(i);
            if (slot == counterSlot) {
                int counters = slots.count(i);
                for (int c = 0; c < counters; c++) {
                    long v = Component.counterDelta(c, begin, end);
                    values[slot + c] = v;
                    display[slot + c] = v;
                    if (end.counters().get(c) != RegionMetrics.ABSENT) {
                        t.process.countersRead.set(c);
                    }
                }
                continue;
            }
            long v = comps[i].perCall(wallNs, begin, end);
            values[slot] = v;
            display[slot] = comps[i].utilisation() ? Component.percent(v, wallNs) : (double) v / (double) units[i];
        }
        node.measure.record(values, display, wallNs);
    }

    private ThreadState thread(int pid, int tid) {
        long key = ((long) pid << 32) | (tid & 0xffffffffL);
        if (key == lastKey && lastThread != null) {
            return lastThread;
        }
        ThreadState t = threadsByKey.get(key);
        if (t == null) {
            ProcessState p = processes.computeIfAbsent(pid, ProcessState::new);
            t = new ThreadState(p, tid, n);
            p.threads.put(tid, t);
            if (p.main == null && tid == pid) {
                p.main = t;
            }
            threadsByKey.put(key, t);
        }
        lastKey = key;
        lastThread = t;
        return t;
    }

    // ---------------------------------------------------------------------------------------

    /** One process image: its threads' graphs and the bookmark bookkeeping. */
    static final class ProcessState {
        final int pid;
        int execGeneration;
        /** Bit k: some region end of this process carried a reading of CPU counter k. */
        final java.util.BitSet countersRead = new java.util.BitSet();

        final Map<Integer, ThreadState> threads = new LinkedHashMap<>();
        ThreadState main;
        boolean ended;
        final History history = new History();
        final PriorityQueue<ThreadState> pending =
                new PriorityQueue<>(Comparator.comparingLong((ThreadState t) -> t.firstBeginNs));

        ProcessState(int pid) {
            this.pid = pid;
        }

        /** Before the main thread handles an event at {@code ts}: workers that began earlier. */
        void mainAdvance(ThreadState mainThread, long ts) {
            while (!pending.isEmpty() && pending.peek().firstBeginNs < ts) {
                ThreadState w = pending.poll();
                w.bookmark = mainThread.open();
            }
        }

        void resolveAllPending(ProfileNode node) {
            while (!pending.isEmpty()) {
                ThreadState w = pending.poll();
                w.bookmark = node;
            }
        }

        /** Thread numbers as upstream shows them: ThreadStarted's sequence, else the next free ones. */
        Map<ThreadState, Integer> sequences() {
            Map<ThreadState, Integer> out = new HashMap<>();
            int next = 0;
            for (ThreadState t : threads.values()) {
                if (t.sequence >= 0) {
                    next = Math.max(next, t.sequence + 1);
                }
            }
            if (main != null && main.sequence < 0) {
                next = Math.max(next, 1);
            }
            for (ThreadState t : threads.values()) {
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
        List<ThreadState> workersInMergeOrder(Map<ThreadState, Integer> seq) {
            List<ThreadState> out = new ArrayList<>();
            for (ThreadState t : threads.values()) {
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

    /** One thread's graph and stack. */
    static final class ThreadState {
        final ProcessState process;
        final int tid;
        int sequence = -1;
        final ProfileNode head;
        /** The open regions, innermost last: entry, begin time and begin readings. */
        ProfileNode[] nodes = new ProfileNode[16];

        long[] begin = new long[16];
        RegionMetrics[] readings = new RegionMetrics[16];
        int size;
        long timelineCounter = 1;
        boolean begun;
        long firstBeginNs;
        /** The main-thread entry this worker's graph hangs below; null for the graph head. */
        ProfileNode bookmark;

        long lastTs = Long.MIN_VALUE;
        boolean ended;
        boolean endedNormally;
        long endNs;
        long endOrder;
        boolean closed;

        ThreadState(ProcessState process, int tid, int components) {
            this.process = process;
            this.tid = tid;
            this.head = new ProfileNode(null, null, 0, 0, components);
        }

        /** The innermost open entry, or the graph head. */
        ProfileNode current() {
            return size == 0 ? head : nodes[size - 1];
        }

        /** The innermost open entry, or null when nothing is open (the graph head). */
        ProfileNode open() {
            return size == 0 ? null : nodes[size - 1];
        }

        void push(ProfileNode node, long ts, RegionMetrics m) {
            if (size == nodes.length) {
                int cap = size * 2;
                nodes = java.util.Arrays.copyOf(nodes, cap);
                begin = java.util.Arrays.copyOf(begin, cap);
                readings = java.util.Arrays.copyOf(readings, cap);
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

    /**
     * The main thread's last stack changes (time, innermost open entry after the change; null
     * meaning nothing open), at most {@link #HISTORY_CAPACITY}, oldest dropped first.
     */
    static final class History {
        // lengths are powers of two (64 doubling to HISTORY_CAPACITY): indices wrap with a mask,
        // not a division, on every main-thread region
        private long[] times = new long[64];
        private ProfileNode[] nodes = new ProfileNode[64];
        private int start;
        private int size;

        void add(long t, ProfileNode node) {
            if (size == times.length) {
                if (times.length < HISTORY_CAPACITY) {
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
            int cap = Math.min(times.length * 2, HISTORY_CAPACITY);
            long[] nt = new long[cap];
            ProfileNode[] nn = new ProfileNode[cap];
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
        ProfileNode lookup(long t) {
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
}
