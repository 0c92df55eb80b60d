package org.rocprofsys.core.event;

/**
 * The events an output sees: the stream after the pipeline's normaliser, which has applied the
 * program's trace control, resolved the agent's raw stack samples and closed every region that
 * its thread, its process or the run left open ({@link RegionEnd#forced()}). Pipeline-only
 * events ({@link TraceControl}, {@link AgentStackSample}) are not part of it.
 */
public sealed interface SinkEvent extends TraceEvent
        permits ProcessStarted,
                ProcessEnded,
                ThreadStarted,
                ThreadEnded,
                RegionBegin,
                RegionEnd,
                Mark,
                Fork,
                RecordsDropped,
                CounterSample,
                StackSample,
                GpuActivity {}
