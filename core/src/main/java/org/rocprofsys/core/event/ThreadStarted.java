package org.rocprofsys.core.event;

/**
 * A thread started recording.
 *
 * @param sequence upstream's thread number: 0 for the main thread, then 1, 2, ... in creation
 *                 order within the process (tracks are named {@code Thread N})
 */
public record ThreadStarted(long timestampNs, int pid, int tid, int sequence) implements SinkEvent {}
