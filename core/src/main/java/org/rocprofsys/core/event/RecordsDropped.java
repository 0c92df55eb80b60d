package org.rocprofsys.core.event;

/**
 * A thread's ring was full and the agent dropped records rather than block the application.
 *
 * @param count how many records were lost on that thread so far (cumulative)
 */
public record RecordsDropped(long timestampNs, int pid, int tid, long count) implements SinkEvent {}
