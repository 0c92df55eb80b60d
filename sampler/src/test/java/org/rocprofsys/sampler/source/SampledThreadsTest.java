package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;

/** One thread filter for perf's samples (CPU time) and the agent's (CPU or wall time). */
class SampledThreadsTest {
    private static final List<StackFrame> FRAMES = List.of(new StackFrame("main", "a.out", 1, null, 0));
    private final List<StackSample> out = new ArrayList<>();

    private static StackSample sample(long t, int pid, int tid, StackSample.Kind kind) {
        return new StackSample(t, pid, tid, FRAMES, kind, 5);
    }

    private List<Long> times() {
        return out.stream().map(StackSample::timestampNs).toList();
    }

    @Test
    void eachKindHasItsThreads() {
        // SAMPLING_CPUTIME_TIDS=0 (perf or the agent's CPU timer), SAMPLING_REALTIME_TIDS=1
        SampledThreads f = new SampledThreads(ThreadFilter.parse("C", "0"), ThreadFilter.parse("R", "1"));
        assertFalse(f.isAll());
        f.started(new ThreadStarted(1, 42, 42, 0), out::add);
        f.started(new ThreadStarted(2, 42, 43, 1), out::add);
        f.offer(sample(10, 42, 42, StackSample.Kind.CPU), out::add); // kept
        f.offer(sample(11, 42, 43, StackSample.Kind.CPU), out::add); // thread 1: not a CPU-time thread
        f.offer(sample(12, 42, 42, StackSample.Kind.WALL), out::add); // thread 0: not a wall-time thread
        f.offer(sample(13, 42, 43, StackSample.Kind.WALL), out::add); // kept
        assertEquals(List.of(10L, 13L), times());
    }

    @Test
    void samplesOfAThreadWithoutANumberWaitForIt() {
        SampledThreads f = new SampledThreads(ThreadFilter.parse("C", "1"), ThreadFilter.all());
        f.offer(sample(10, 42, 43, StackSample.Kind.CPU), out::add); // perf's sample before the thread's ring
        f.offer(sample(11, 42, 44, StackSample.Kind.CPU), out::add);
        f.offer(sample(12, 42, 45, StackSample.Kind.CPU), out::add); // never numbered
        f.offer(sample(13, 42, 45, StackSample.Kind.WALL), out::add); // every wall-time thread: no need to wait
        assertEquals(List.of(13L), times());
        f.started(new ThreadStarted(20, 42, 43, 1), out::add);
        f.started(new ThreadStarted(21, 42, 44, 2), out::add); // not selected: its waiting sample is dropped
        assertEquals(List.of(13L, 10L), times());
        f.ended(42);
        f.started(new ThreadStarted(30, 42, 45, 1), out::add); // too late: dropped at the process's end
        assertEquals(List.of(13L, 10L), times());
        // numbers outlive the process: a late perf sample of thread 1 still goes on
        f.offer(sample(31, 42, 43, StackSample.Kind.CPU), out::add);
        assertEquals(List.of(13L, 10L, 31L), times());
    }

    @Test
    void theEndOfOneProcessDropsOnlyItsWaitingSamples() {
        SampledThreads f = new SampledThreads(ThreadFilter.parse("C", "0"), ThreadFilter.all());
        f.offer(sample(10, 42, 42, StackSample.Kind.CPU), out::add);
        f.offer(sample(11, 7, 7, StackSample.Kind.CPU), out::add);
        f.ended(42);
        f.started(new ThreadStarted(20, 42, 42, 0), out::add);
        f.started(new ThreadStarted(21, 7, 7, 0), out::add);
        assertEquals(List.of(11L), times());
    }

    @Test
    void allThreadsPassEverythingAtOnce() {
        SampledThreads f = new SampledThreads(ThreadFilter.all(), ThreadFilter.all());
        assertTrue(f.isAll());
        f.offer(sample(10, 42, 43, StackSample.Kind.CPU), out::add);
        f.offer(sample(11, 42, 43, StackSample.Kind.WALL), out::add);
        assertEquals(List.of(10L, 11L), times());
    }
}
