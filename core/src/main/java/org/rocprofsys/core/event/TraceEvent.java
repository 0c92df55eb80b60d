package org.rocprofsys.core.event;

/**
 * One thing that happened in a profiled process. Every source (the agent's rings, and later the
 * sampler, process sampler and GPU backends) produces these; every sink (Perfetto, timemory
 * profiles, metadata) consumes only these.
 *
 * <p>Timestamps are nanoseconds of CLOCK_MONOTONIC. Events of one thread arrive in the order the
 * thread recorded them; events of different threads and processes may interleave in any order.
 */
public sealed interface TraceEvent
        permits ProcessStarted, ProcessEnded, ThreadStarted, ThreadEnded, RegionBegin, RegionEnd, Mark, Fork,
        RecordsDropped, TraceControl, CounterSample, StackSample, AgentStackSample {
    long timestampNs();

    int pid();
}
