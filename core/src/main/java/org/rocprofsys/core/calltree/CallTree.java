package org.rocprofsys.core.calltree;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The call tree: regions aggregated per process, thread and call path from the event stream. One
 * tree per (process, thread), each a tree of call paths (or a flat list of names, or one entry per
 * call in a timeline), accumulating per entry the laps and, for each slot of its
 * {@link CallMeter}, the sum and statistics of the per-call values. The timemory profiles read it
 * ({@code core.timemory}); any profile-style output (a summary, a flame graph) can: feed it the
 * {@link SinkEvent}s and {@link RegionRun}s an output sees, {@link #finish} it, and read
 * {@link #processes()}.
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
public final class CallTree {
    /** Stack changes of a main thread kept to place its workers (see above). */
    public static final int HISTORY_CAPACITY = 1 << 16;

    private final CallMeter meter;
    /** Slots per entry ({@link CallMeter#slots()}). */
    private final int n;

    /** The display unit of wall time when it is the only value ({@link CallMeter#wallClockUnit}). */
    private final long wallUnit;
    /** Only wall time is measured (timemory's default): a call's one value is its wall time. */
    private final boolean wallClockOnly;
    /** A flat profile and a timeline, read once: every region asks. */
    private final boolean flat;

    private final boolean timeline;

    private final Map<Integer, ProcessCalls> processes = new LinkedHashMap<>();
    private final ThreadTable<ThreadCalls> threadsByKey = new ThreadTable<>();
    private final long[] values;
    private final double[] display;
    private long nodes;
    private long endOrder;

    /**
     * Worker threads hang at the graph head instead of below the main thread's region of the
     * moment they started (sampled profiles: their times are per-thread virtual clocks).
     */
    private boolean threadsAtRoot;

    /** Places every worker thread's tree at its head (call before the first event). */
    public void threadsAtRoot() {
        threadsAtRoot = true;
    }

    /**
     * @param meter    what each entry measures
     * @param flat     every region an entry of the thread's head, by name (timemory's FLAT_PROFILE)
     * @param timeline one entry per call, not per path (timemory's TIMELINE_PROFILE)
     */
    public CallTree(CallMeter meter, boolean flat, boolean timeline) {
        this.meter = Objects.requireNonNull(meter, "meter");
        this.n = meter.slots();
        this.wallUnit = meter.wallClockUnit();
        this.wallClockOnly = wallUnit > 0 && n == 1;
        this.flat = flat;
        this.timeline = timeline;
        this.values = new long[n];
        this.display = new double[n];
    }

    /** A tree of call paths measuring wall time in ns. */
    public static CallTree wallClock() {
        return new CallTree(CallMeter.wallClock(1), false, false);
    }

    /** Entries created so far, over all processes and threads. */
    public long nodeCount() {
        return nodes;
    }

    /** The process images seen, in the order of their first event. */
    public List<ProcessCalls> processes() {
        return new ArrayList<>(processes.values());
    }

    /** Takes a region, thread or process event; others are ignored. */
    public void accept(SinkEvent event) {
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
    public void finish(long endNs) {
        for (ProcessCalls p : processes.values()) {
            if (!p.ended) {
                endProcess(p, endNs);
            }
            p.resolveAllPending(null);
        }
    }

    // ---------------------------------------------------------------------------------------

    private void processStarted(ProcessStarted s) {
        ProcessCalls p = processes.get(s.pid());
        if (p != null && (p.ended || s.execGeneration() > p.execGeneration)) {
            // A new image of the same pid (exec): its regions join the old image's graphs (upstream
            // keeps only the last image, whose profile would then lack what ran before the exec).
            // The main thread starts again; the old image's other threads have ended.
            p.ended = false;
            p.execGeneration = s.execGeneration();
            ThreadCalls main = threadsByKey.get(s.pid(), s.pid());
            if (main != null) {
                main.ended = false;
                main.closed = false;
                main.size = 0;
                p.main = main;
            }
            p.resolveAllPending(null);
        }
        if (p == null) {
            p = new ProcessCalls(s.pid());
            p.execGeneration = s.execGeneration();
            processes.put(s.pid(), p);
        }
    }

    private void processEnded(ProcessEnded e) {
        ProcessCalls p = processes.get(e.pid());
        if (p != null && !p.ended) {
            endProcess(p, e.timestampNs());
        }
    }

    private void endProcess(ProcessCalls p, long ts) {
        if (p.main != null && !p.main.closed) {
            endMain(p, p.main, ts);
        }
        p.resolveAllPending(null);
        p.ended = true;
    }

    private void threadStarted(ThreadStarted s) {
        ThreadCalls t = thread(s.pid(), s.tid());
        t.sequence = s.sequence();
        ProcessCalls p = t.process;
        if (s.sequence() == 0) {
            p.main = t;
        } else if (p.main == t) {
            p.main = null;
        }
    }

    private void threadEnded(ThreadEnded e) {
        ThreadCalls t = thread(e.pid(), e.tid());
        if (t.ended) {
            return;
        }
        t.ended = true;
        t.endedNormally = !e.abrupt();
        t.endNs = e.timestampNs();
        t.endOrder = endOrder++;
        ProcessCalls p = t.process;
        if (p.main == t) {
            endMain(p, t, e.timestampNs());
        }
    }

    /** A run of plain regions: the same as its events one by one, read from its arrays. */
    public void acceptRegions(RegionRun run) {
        ThreadCalls t = thread(run.pid(), run.tid());
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
    private void call(ThreadCalls t, long beginNs, long endNs, String name) {
        ProcessCalls p = t.process;
        boolean main = p.main == t;
        beginning(t, beginNs);
        CallNode node = child(t.current(), name);
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

    private void begin(ThreadCalls t, long ts, String name, RegionMetrics metrics) {
        ProcessCalls p = t.process;
        boolean main = p.main == t;
        beginning(t, ts);
        CallNode parent = flat ? t.head : t.current();
        CallNode node;
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
    private void beginning(ThreadCalls t, long ts) {
        ProcessCalls p = t.process;
        if (p.main == t) {
            p.mainAdvance(t, ts);
        } else if (!t.begun) {
            firstBegin(p, t, ts);
        }
        t.begun = true;
    }

    /** The entry {@code name} below {@code parent} in a tree or flat profile, made when new. */
    private CallNode child(CallNode parent, String name) {
        CallNode node = parent.find(name);
        if (node == null) {
            node = parent.add(name, n);
            nodes++;
        }
        return node;
    }

    private void end(RegionEnd e) {
        end(thread(e.pid(), e.tid()), e.timestampNs(), e.metrics());
    }

    private void end(ThreadCalls t, long ts, RegionMetrics metrics) {
        ProcessCalls p = t.process;
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
    private void firstBegin(ProcessCalls p, ThreadCalls t, long ts) {
        t.firstBeginNs = ts;
        if (flat || threadsAtRoot) {
            return; // flat inserts never move the main thread's current position off the graph head
        }
        ThreadCalls main = p.main;
        if (main != null && (main.lastTs > ts || main.closed)) {
            t.bookmark = main.lastTs > ts ? p.history.lookup(ts) : null;
        } else {
            p.pending.add(t);
        }
    }

    private void endMain(ProcessCalls p, ThreadCalls main, long ts) {
        p.mainAdvance(main, ts);
        p.resolveAllPending(null);
        main.closed = true;
        if (main.lastTs < ts) {
            main.lastTs = ts;
        }
    }

    /** Adds a call of {@code wallNs} to {@code node} when wall_clock is the only component. */
    private void recordWall(CallNode node, long wallNs) {
        node.measure().recordOne(wallNs, (double) wallNs / (double) wallUnit, wallNs);
    }

    /** Pops the thread's innermost region and adds the call to its entry. */
    private void record(ThreadCalls t, long ts, RegionMetrics end) {
        int k = t.size - 1;
        CallNode node = t.nodes[k];
        RegionMetrics begin = t.readings[k];
        long wallNs = ts - t.begin[k];
        t.pop();
        if (wallClockOnly) {
            // what the loop below makes of wall_clock alone, without its arrays
            recordWall(node, wallNs);
            return;
        }
        meter.measure(wallNs, begin, end, values, display, t.process.countersRead);
        node.measure().record(values, display, wallNs);
    }

    private ThreadCalls thread(int pid, int tid) {
        ThreadCalls t = threadsByKey.get(pid, tid); // events come in runs of one thread: cached
        if (t == null) {
            ProcessCalls p = processes.computeIfAbsent(pid, ProcessCalls::new);
            t = new ThreadCalls(p, tid, n);
            p.threads.put(tid, t);
            if (p.main == null && tid == pid) {
                p.main = t;
            }
            threadsByKey.put(pid, tid, t);
        }
        return t;
    }
}
