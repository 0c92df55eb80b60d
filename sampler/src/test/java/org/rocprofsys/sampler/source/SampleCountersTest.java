package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;

class SampleCountersTest {
    private static final int PID = 40;

    private static AgentStackSample sample(long t, int tid, long... counters) {
        return new AgentStackSample(
                t, PID, tid, StackSample.Kind.CPU, 0, new long[] {1}, new long[0], new byte[0], counters);
    }

    @Test
    void eachSampleAfterATreadsFirstGivesTheChangeOnTheThreadsTrack() {
        SampleCounters c = new SampleCounters(List.of("perf::CPU-CLOCK", "perf::PAGE-FAULTS"));
        List<TraceEvent> out = new ArrayList<>();
        c.started(new ThreadStarted(1, PID, 41, 3), out::add);
        c.accept(sample(10, 41, 1_000, 5), out::add);
        c.accept(sample(20, 41, 4_000, RegionMetrics.ABSENT), out::add);
        c.accept(sample(30, 41, 9_000, 7), out::add);
        c.accept(sample(40, 42, 1, 1), out::add); // another thread's first sample
        CounterTrack clock =
                new CounterTrack("Thread perf::CPU-CLOCK [3] (S)", "", Category.THREAD_HARDWARE_COUNTER, PID);
        assertEquals(List.of(new CounterSample(20, clock, 3_000), new CounterSample(30, clock, 5_000)), out);
        // without counter names, or samples without values, nothing
        List<TraceEvent> none = new ArrayList<>();
        new SampleCounters(List.of()).accept(sample(10, 41, 1), none::add);
        c.accept(sample(50, 41), none::add);
        assertEquals(List.of(), none);
    }

    private static SampleCounters.Changes changes(long t, int tid, long... values) {
        return new SampleCounters.Changes(t, PID, tid, values);
    }

    private static CounterSample clock(long t, String thread, long v) {
        return new CounterSample(
                t,
                new CounterTrack(
                        "Thread perf::CPU-CLOCK [" + thread + "] (S)", "", Category.THREAD_HARDWARE_COUNTER, PID),
                v);
    }

    @Test
    void perfsChangesWaitForTheirThreadsNumber() {
        SampleCounters c = new SampleCounters(List.of("perf::CPU-CLOCK"));
        List<TraceEvent> out = new ArrayList<>();
        c.offer(changes(10, 41, 100), out::add);
        c.offer(changes(20, 41, 200), out::add);
        c.offer(changes(30, 42, 300), out::add);
        c.offer(changes(35, 43, 350), out::add);
        assertEquals(List.of(), out, "no number yet");
        c.started(new ThreadStarted(5, PID, 41, 1), out::add);
        assertEquals(List.of(clock(10, "1", 100), clock(20, "1", 200)), out);
        c.offer(changes(40, 41, RegionMetrics.ABSENT), out::add);
        c.offer(changes(50, 41, 500), out::add);
        assertEquals(clock(50, "1", 500), out.getLast());
        // the process ends: a thread never numbered goes on under its tid
        out.clear();
        c.ended(PID, out::add);
        assertEquals(2, out.size());
        assertTrue(out.containsAll(List.of(clock(30, "42", 300), clock(35, "43", 350))), out::toString);
        out.clear();
        c.offer(changes(60, 44, 600), out::add);
        c.flush(out::add);
        assertEquals(List.of(clock(60, "44", 600)), out);
    }
}
