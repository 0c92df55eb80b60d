package org.rocprofsys.core.event;

/**
 * A process image stopped recording.
 *
 * @param timestampNs when: the agent's exit time, or, when it died without one, the time the
 *                    collector saw it gone
 * @param pid         process id
 * @param how         how it ended
 * @param status      the exit code for {@link ProcessEnd#EXITED}, the signal number for
 *                    {@link ProcessEnd#KILLED_BY_SIGNAL}, 0 otherwise
 */
public record ProcessEnded(long timestampNs, int pid, ProcessEnd how, int status) implements SinkEvent {}
