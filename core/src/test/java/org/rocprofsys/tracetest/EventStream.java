package org.rocprofsys.tracetest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;

/**
 * A fluent builder of event sequences for tests: times are nanoseconds after a base, events go to
 * the process chosen with {@link #in}. Shared with other modules through core's test-jar.
 *
 * <pre>
 * List&lt;TraceEvent&gt; events = EventStream.at(T0).in(42)
 *         .processStarted(0, "app").threadStarted(0, 42, 0)
 *         .begin(10, 42, "main").end(20, 42)
 *         .processEnded(30, ProcessEnd.EXITED, 0).events();
 * </pre>
 */
public final class EventStream {
    public static final long MS = 1_000_000L;

    private final long baseNs;
    private final List<TraceEvent> events = new ArrayList<>();
    private int pid;
    private Category category = Category.USER;

    private EventStream(long baseNs) {
        this.baseNs = baseNs;
    }

    /** Times of the following calls are nanoseconds after {@code baseNs}. */
    public static EventStream at(long baseNs) {
        return new EventStream(baseNs);
    }

    /** The process of the events that follow. */
    public EventStream in(int pid) {
        this.pid = pid;
        return this;
    }

    /** The category of the regions and marks that follow ({@link Category#USER} at first). */
    public EventStream category(Category category) {
        this.category = category;
        return this;
    }

    public EventStream processStarted(long t, String executable, String... args) {
        return processStarted(t, 1, executable, 0, 0, args);
    }

    public EventStream processStarted(
            long t, int ppid, String executable, int forkedFrom, int execGeneration, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(executable);
        argv.addAll(Arrays.asList(args));
        return add(new ProcessStarted(baseNs + t, pid, ppid, executable, argv, forkedFrom, execGeneration));
    }

    public EventStream processEnded(long t, ProcessEnd how, int status) {
        return add(new ProcessEnded(baseNs + t, pid, how, status));
    }

    public EventStream threadStarted(long t, int tid, int sequence) {
        return add(new ThreadStarted(baseNs + t, pid, tid, sequence));
    }

    public EventStream threadEnded(long t, int tid) {
        return add(new ThreadEnded(baseNs + t, pid, tid, false));
    }

    /** The thread did not end itself: its process died or exec'd. */
    public EventStream threadEndedAbruptly(long t, int tid) {
        return add(new ThreadEnded(baseNs + t, pid, tid, true));
    }

    public EventStream begin(long t, int tid, String name, Annotation... annotations) {
        return begin(t, tid, name, RegionMetrics.NONE, annotations);
    }

    public EventStream begin(long t, int tid, String name, RegionMetrics metrics, Annotation... annotations) {
        return add(new RegionBegin(baseNs + t, pid, tid, name, category, List.of(annotations), metrics));
    }

    public EventStream end(long t, int tid, Annotation... annotations) {
        return end(t, tid, RegionMetrics.NONE, annotations);
    }

    public EventStream end(long t, int tid, RegionMetrics metrics, Annotation... annotations) {
        return add(new RegionEnd(baseNs + t, pid, tid, category, List.of(annotations), metrics, false));
    }

    /** A complete region [t0, t1]. */
    public EventStream region(long t0, long t1, int tid, String name) {
        return begin(t0, tid, name).end(t1, tid);
    }

    public EventStream mark(long t, int tid, String name) {
        return add(new Mark(baseNs + t, pid, tid, name, category));
    }

    public EventStream fork(long t, int tid, int childPid) {
        return add(new Fork(baseNs + t, pid, tid, childPid));
    }

    public EventStream recordsDropped(long t, int tid, long count) {
        return add(new RecordsDropped(baseNs + t, pid, tid, count));
    }

    public EventStream counter(long t, CounterTrack track, double value) {
        return add(new CounterSample(baseNs + t, track, value));
    }

    /** A sampled stack, {@code frames} outermost first (symbols in module {@code app}). */
    public EventStream sample(long t, int tid, StackSample.Kind kind, long intervalNs, String... frames) {
        List<StackFrame> stack = new ArrayList<>();
        for (String f : frames) {
            stack.add(new StackFrame(f, "app", 0x1000 + stack.size(), null, 0));
        }
        return add(new StackSample(baseNs + t, pid, tid, stack, kind, intervalNs));
    }

    public EventStream traceControl(long t, int tid, boolean enable, boolean processWide) {
        return add(new TraceControl(baseNs + t, pid, tid, enable, processWide));
    }

    public EventStream add(TraceEvent event) {
        events.add(event);
        return this;
    }

    public List<TraceEvent> events() {
        return List.copyOf(events);
    }
}
