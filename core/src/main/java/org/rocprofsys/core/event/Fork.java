package org.rocprofsys.core.event;

/** A thread of {@code pid} forked {@code childPid}. */
public record Fork(long timestampNs, int pid, int tid, int childPid) implements SinkEvent {}
