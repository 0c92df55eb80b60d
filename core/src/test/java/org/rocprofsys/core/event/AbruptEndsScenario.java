package org.rocprofsys.core.event;

import static org.rocprofsys.tracetest.EventStream.MS;

import java.util.List;
import java.util.Map;
import org.rocprofsys.tracetest.EventStream;

/**
 * One run's events that touch every lifetime rule: a worker that dies with regions open, a fork
 * child killed with a region open and sampled after its end, an end without a begin, a thread
 * number reused, and the main region still open when the run finishes.
 */
public final class AbruptEndsScenario {
    public static final long T0 = 123_456_789_012_345L;
    public static final long REALTIME_OFFSET = 1_700_000_000_000_000_000L - T0;
    public static final int PID = 4242;
    public static final int WORKER = 4243;
    public static final int SECOND_WORKER = 4244;
    public static final int CHILD = 4300;
    public static final long END = 100 * MS;

    private AbruptEndsScenario() {}

    public static List<TraceEvent> events() {
        CounterTrack rss = new CounterTrack("CPU Memory Usage (S)", "MB", Category.PROCESS_SAMPLING, PID);
        CounterTrack freq = new CounterTrack("CPU Frequency [0] (S)", "MHz", Category.CPU_FREQ, 0);
        EventStream s = EventStream.at(T0)
                .in(PID)
                .processStarted(0, "/usr/bin/app", "--size", "8")
                .threadStarted(0, PID, 0)
                .begin(1 * MS, PID, "app", new Annotation("size", new AnnotationValue.Signed(8)))
                .begin(10 * MS, PID, "compute", RegionMetrics.NONE)
                .mark(11 * MS, PID, "progress")
                .counter(12 * MS, rss, 10.5)
                .counter(12 * MS, freq, 2400)
                .threadStarted(13 * MS, WORKER, 1)
                .begin(14 * MS, WORKER, "start_thread")
                .begin(15 * MS, WORKER, "work")
                .sample(16 * MS, PID, StackSample.Kind.WALL, MS, "main", "compute", "kernel")
                .fork(20 * MS, PID, CHILD)
                .in(CHILD)
                .processStarted(21 * MS, PID, "/usr/bin/app", PID, 0)
                .threadStarted(21 * MS, CHILD, 0)
                .begin(22 * MS, CHILD, "child_work")
                .in(PID)
                .recordsDropped(25 * MS, WORKER, 7)
                .threadEndedAbruptly(30 * MS, WORKER)
                .threadStarted(31 * MS, SECOND_WORKER, 2)
                .end(32 * MS, SECOND_WORKER)
                .begin(33 * MS, SECOND_WORKER, "second")
                .end(34 * MS, SECOND_WORKER)
                .begin(35 * MS, SECOND_WORKER, "left_open")
                .in(CHILD)
                .sample(39 * MS, CHILD, StackSample.Kind.WALL, MS, "main", "child_work")
                .processEnded(40 * MS, ProcessEnd.KILLED_BY_SIGNAL, 9)
                .sample(41 * MS, CHILD, StackSample.Kind.WALL, MS, "main", "late")
                .in(PID)
                .sample(42 * MS, PID, StackSample.Kind.WALL, MS, "main", "compute")
                .counter(50 * MS, rss, 12.25)
                .end(70 * MS, PID);
        return s.events();
    }

    public static RunSummary summary() {
        return new RunSummary(T0 + END, REALTIME_OFFSET, PID, "app", Map.of());
    }
}
