package org.rocprofsys.core.event;

/** An instant on a thread: a user-API progress point. */
public record Mark(long timestampNs, int pid, int tid, String name, Category category) implements SinkEvent {}
