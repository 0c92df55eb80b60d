package org.rocprofsys.core.event;

/**
 * A thread stopped recording.
 *
 * @param abrupt true when the thread did not end itself (its process died or exec'd); regions still
 *               open on it are closed at this time by the pipeline ({@link RegionEnd#forced()})
 */
public record ThreadEnded(long timestampNs, int pid, int tid, boolean abrupt) implements SinkEvent {}
