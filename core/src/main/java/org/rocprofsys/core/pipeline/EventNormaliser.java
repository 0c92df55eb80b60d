package org.rocprofsys.core.pipeline;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The last stage before the outputs: turns the stream into {@link SinkEvent}s whose regions are
 * balanced, so that no output has to track thread and process lifetimes itself.
 *
 * <ul>
 * <li>A region still open when its thread ends, when its process ends, when its thread number
 * starts again, or when the run finishes ({@link #finish}) is closed there by a
 * {@link RegionEnd#forced() forced} end (no annotations, no readings), innermost first.</li>
 * <li>A thread ends once: the collector ends every thread of an image that died or exec'd, and
 * a thread that had ended itself is not ended again.</li>
 * <li>An end without an open region is dropped.</li>
 * <li>Pipeline-only events ({@link TraceControl}, {@link AgentStackSample}) stop here.</li>
 * </ul>
 *
 * <p>This is where lifetimes and open regions are known: the outputs see a balanced stream and
 * keep no lifetimes of their own. Threads are kept in a {@link ThreadTable}, the table every
 * output keeps its per-thread state in, so the regions of several threads closed at one moment
 * are closed in the table's order (a thread is known from its first event that belongs on its
 * track).
 */
public final class EventNormaliser implements Consumer<TraceEvent> {
    private final Consumer<? super SinkEvent> downstream;
    /** Where runs of regions go on whole; the events' consumer, element by element, when it takes no runs. */
    private final Consumer<RegionRun> runs;
    /** Open regions per thread (their categories, innermost last). */
    private final ThreadTable<OpenRegions> threads = new ThreadTable<>();
    /** Threads that ended, by {@link ThreadTable#key}: a thread ends once. */
    private final Set<Long> ended = new HashSet<>();

    /** Hands on events only: a {@link RegionRun} goes on as the events it stands for. */
    public EventNormaliser(Consumer<? super SinkEvent> downstream) {
        this(downstream, run -> run.forEachEvent(downstream));
    }

    /** Hands on events, and runs of regions whole to {@code runs} (in the same order). */
    public EventNormaliser(Consumer<? super SinkEvent> downstream, Consumer<RegionRun> runs) {
        this.downstream = downstream;
        this.runs = runs;
    }

    @Override
    public void accept(TraceEvent event) {
        switch (event) {
            case TraceControl c -> {
                // applied by the collection filter
            }
            case AgentStackSample a -> {
                // raw: a background source's intercept stage turns it into a StackSample
            }
            case ProcessStarted p -> downstream.accept(p);
            case ProcessEnded p -> processEnded(p);
            case ThreadStarted t -> threadStarted(t);
            case ThreadEnded t -> threadEnded(t);
            case RegionBegin b -> {
                open(b.pid(), b.tid()).push(b.category());
                downstream.accept(b);
            }
            case RegionEnd e -> {
                OpenRegions open = open(e.pid(), e.tid());
                if (!open.isEmpty()) {
                    open.pop();
                    downstream.accept(e);
                }
            }
            case RegionRun r -> regions(r);
            case Mark m -> {
                open(m.pid(), m.tid());
                downstream.accept(m);
            }
            case Fork f -> {
                open(f.pid(), f.tid());
                downstream.accept(f);
            }
            case RecordsDropped r -> {
                open(r.pid(), r.tid());
                downstream.accept(r);
            }
            case CounterSample c -> downstream.accept(c);
            case StackSample s -> downstream.accept(s);
            case GpuActivity g -> downstream.accept(g);
        }
    }

    /** A run: the same rules as for its events one by one (an end with nothing open is dropped). */
    private void regions(RegionRun r) {
        OpenRegions open = open(r.pid(), r.tid());
        int kept = 0;
        for (int i = 0, n = r.size(); i < n; i++) {
            if (r.isBegin(i)) {
                open.push(r.category(i));
            } else if (open.isEmpty()) {
                continue;
            } else {
                open.pop();
            }
            r.keep(i, kept++);
        }
        r.truncate(kept);
        if (kept > 0) {
            runs.accept(r);
        }
    }

    /** Closes every region still open, at {@code endNs}; called once, after the last event. */
    public void finish(long endNs) {
        threads.forEach((key, open) -> close(key, open, endNs));
        threads.clear();
    }

    private void processEnded(ProcessEnded p) {
        threads.removeProcess(p.pid(), (key, open) -> close(key, open, p.timestampNs()));
        // a later image of the pid (exec) has threads of its own
        ended.removeIf(k -> ThreadTable.pid(k) == p.pid());
        downstream.accept(p);
    }

    private void threadStarted(ThreadStarted t) {
        ended.remove(ThreadTable.key(t.pid(), t.tid()));
        OpenRegions old = threads.remove(t.pid(), t.tid());
        if (old != null) {
            close(ThreadTable.key(t.pid(), t.tid()), old, t.timestampNs());
        }
        threads.put(t.pid(), t.tid(), new OpenRegions());
        downstream.accept(t);
    }

    private void threadEnded(ThreadEnded t) {
        if (!ended.add(ThreadTable.key(t.pid(), t.tid()))) {
            return;
        }
        OpenRegions open = threads.remove(t.pid(), t.tid());
        if (open != null) {
            close(ThreadTable.key(t.pid(), t.tid()), open, t.timestampNs());
        }
        downstream.accept(t);
    }

    private void close(long key, OpenRegions open, long timestampNs) {
        int pid = ThreadTable.pid(key);
        int tid = ThreadTable.tid(key);
        while (!open.isEmpty()) {
            downstream.accept(new RegionEnd(timestampNs, pid, tid, open.pop(), List.of(), RegionMetrics.NONE, true));
        }
    }

    private OpenRegions open(int pid, int tid) {
        return threads.get(pid, tid, OpenRegions::new);
    }

    /** A thread's open regions, their categories innermost last: an array stack, no deque. */
    private static final class OpenRegions {
        private Category[] categories = new Category[16];
        private int size;

        void push(Category c) {
            if (size == categories.length) {
                categories = Arrays.copyOf(categories, 2 * size);
            }
            categories[size++] = c;
        }

        Category pop() {
            Category c = categories[--size];
            categories[size] = null;
            return c;
        }

        boolean isEmpty() {
            return size == 0;
        }
    }
}
