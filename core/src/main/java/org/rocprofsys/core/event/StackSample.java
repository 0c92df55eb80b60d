package org.rocprofsys.core.event;

import java.util.List;

/**
 * One sampled call stack of a thread (call-stack sampling, inventory §5).
 *
 * @param frames     outermost first (main, or the thread's start routine) down to the sampled leaf,
 *                   because every consumer builds a main -> leaf hierarchy
 * @param kind       which timer took the sample
 * @param intervalNs the time the sample stands for: each frame of the stack gets it
 */
public record StackSample(long timestampNs, int pid, int tid, List<StackFrame> frames, Kind kind, long intervalNs)
        implements TraceEvent {
    /** The timer behind a sample: process CPU time (cpu-clock) or real time. */
    public enum Kind {
        CPU, WALL
    }

    public StackSample {
        frames = List.copyOf(frames);
    }
}
