package org.rocprofsys.core.event;

import java.util.List;

/**
 * One sampled call stack of a thread (call-stack sampling, inventory §5).
 *
 * @param frames     outermost first (main, or the thread's start routine) down to the sampled leaf,
 *                   because every consumer builds a main -> leaf hierarchy
 * @param kind       which timer took the sample
 * @param intervalNs the time the sample stands for: each frame of the stack gets it
 * @param cpuNs      the thread CPU time the sample stands for (sampling_cpu_clock): the interval
 *                   itself for CPU-clock samples of perf, the thread's CPU time since its previous
 *                   sample for the agent's timer samples (near 0 for a sleeping thread)
 * @param event      for an {@link Kind#OVERFLOW} sample, the event as upstream names its samples
 *                   ({@code perf::HW_CACHE_REFERENCES}: the setting without {@code PERF_COUNT_});
 *                   empty for the timers' samples
 */
public record StackSample(
        long timestampNs,
        int pid,
        int tid,
        List<StackFrame> frames,
        Kind kind,
        long intervalNs,
        long cpuNs,
        String event)
        implements SinkEvent {
    /**
     * The timer behind a sample: process CPU time (cpu-clock), real time, or the overflow of a
     * perf event (SAMPLING_OVERFLOW, on tracks of its own as upstream draws them).
     */
    public enum Kind {
        CPU,
        WALL,
        OVERFLOW
    }

    public StackSample {
        frames = List.copyOf(frames);
        event = event == null ? "" : event;
    }

    /** A timer's sample. */
    public StackSample(
            long timestampNs, int pid, int tid, List<StackFrame> frames, Kind kind, long intervalNs, long cpuNs) {
        this(timestampNs, pid, tid, frames, kind, intervalNs, cpuNs, "");
    }

    /** A sample of the overflows of {@code event}, standing for {@code intervalNs}. */
    public static StackSample overflow(
            long timestampNs, int pid, int tid, List<StackFrame> frames, String event, long intervalNs) {
        return new StackSample(timestampNs, pid, tid, frames, Kind.OVERFLOW, intervalNs, intervalNs, event);
    }

    /** A sample whose CPU time is its interval (CPU-clock samples). */
    public StackSample(long timestampNs, int pid, int tid, List<StackFrame> frames, Kind kind, long intervalNs) {
        this(timestampNs, pid, tid, frames, kind, intervalNs, intervalNs);
    }
}
