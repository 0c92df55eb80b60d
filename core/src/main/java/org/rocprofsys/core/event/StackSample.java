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
 */
public record StackSample(
        long timestampNs, int pid, int tid, List<StackFrame> frames, Kind kind, long intervalNs, long cpuNs)
        implements SinkEvent {
    /** The timer behind a sample: process CPU time (cpu-clock) or real time. */
    public enum Kind {
        CPU,
        WALL
    }

    public StackSample {
        frames = List.copyOf(frames);
    }

    /** A sample whose CPU time is its interval (CPU-clock samples). */
    public StackSample(long timestampNs, int pid, int tid, List<StackFrame> frames, Kind kind, long intervalNs) {
        this(timestampNs, pid, tid, frames, kind, intervalNs, intervalNs);
    }
}
