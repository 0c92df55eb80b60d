package org.rocprofsys.core.event;

/**
 * One thing that happened in a profiled process. Every source (the agent's rings, and later the
 * sampler, process sampler and GPU backends) produces these; the pipeline narrows them to
 * {@link SinkEvent}s, which every output (Perfetto, timemory profiles) consumes; a ring's plain
 * regions travel as {@link RegionRun}s, which stand for the region events they hold.
 *
 * <p>Timestamps are nanoseconds of CLOCK_MONOTONIC. Events of one thread arrive in the order the
 * thread recorded them; events of different threads and processes may interleave in any order.
 */
public sealed interface TraceEvent permits SinkEvent, RegionRun, TraceControl, AgentStackSample {
    long timestampNs();

    int pid();
}
