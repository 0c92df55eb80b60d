package org.rocprofsys.sampler.source;

import org.rocprofsys.core.event.StackSample;

/**
 * One timer of the agent (agent_timer.c).
 *
 * @param kind    CPU: thread CPU time (CLOCK_THREAD_CPUTIME_ID), WALL: wall clock
 * @param signal  the signal it raises
 * @param hz      samples per second of its clock
 * @param delayNs first sample after this much of its clock on each thread
 * @param threads the thread numbers it samples
 */
public record AgentTimer(StackSample.Kind kind, int signal, double hz, long delayNs, ThreadFilter threads) {
    public AgentTimer {
        if (!(hz > 0)) {
            throw new IllegalArgumentException("sampling frequency must be above 0, not " + hz);
        }
    }

    long periodNs() {
        return Math.max(1000, Math.round(1e9 / hz));
    }

    /** The agent's form (rocprofsys_wire.h): {@code kind:signal:periodNs:delayNs:threads}. */
    String agentSpec() {
        return (kind == StackSample.Kind.CPU ? "cputime" : "realtime") + ":" + signal + ":" + periodNs() + ":" + delayNs
                + ":" + threads.agentSpec();
    }
}
