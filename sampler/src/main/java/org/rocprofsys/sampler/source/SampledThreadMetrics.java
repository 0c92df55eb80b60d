package org.rocprofsys.sampler.source;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.InterceptStage;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * Upstream's per-thread metric track of the samples (inventory §4.3, §5): {@code Thread CPU time
 * [<thread number>] (S)}, at each sample's interval midpoint the thread's CPU time over that
 * interval, in seconds. perf's CPU-clock samples stand for their period of CPU time; the agent's
 * timer samples carry the thread's CPU clock. The last stage of the samplers, so it sees every
 * sample the thread filters kept and the THREAD_START that numbers its thread. When both a CPU-time
 * and a wall-time sampler run, the CPU-time samples alone give the track (each interval once).
 */
final class SampledThreadMetrics implements InterceptStage {
    static final String CPU_TIME = "Thread CPU time";

    private final boolean cpuSamples;
    /** (pid, tid) -> thread number, from THREAD_START. */
    private final Map<Long, Integer> numbers = new HashMap<>();

    /** @param cpuSamples whether a CPU-time sampler runs (else the wall-time samples give the track) */
    SampledThreadMetrics(boolean cpuSamples) {
        this.cpuSamples = cpuSamples;
    }

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return e -> {
            downstream.accept(e);
            switch (e) {
                case ThreadStarted t -> numbers.put(ThreadTable.key(t.pid(), t.tid()), t.sequence());
                case StackSample s -> cpuTime(s, downstream);
                default -> {}
            }
        };
    }

    private void cpuTime(StackSample s, Consumer<TraceEvent> out) {
        StackSample.Kind wanted = cpuSamples ? StackSample.Kind.CPU : StackSample.Kind.WALL;
        if (s.kind() != wanted || s.frames().isEmpty()) {
            return;
        }
        // a thread not numbered (yet): the main thread is 0, another goes by its tid, as its sampled track
        int seq = numbers.getOrDefault(ThreadTable.key(s.pid(), s.tid()), s.tid() == s.pid() ? 0 : s.tid());
        CounterTrack track =
                new CounterTrack(CPU_TIME + " [" + seq + "] (S)", "sec", Category.THREAD_CPU_TIME, s.pid());
        out.accept(new CounterSample(s.timestampNs() - s.intervalNs() / 2, track, s.cpuNs() / 1e9));
    }
}
