package org.rocprofsys.core.event;

import java.util.List;

/**
 * A process image started recording: the launched target, a forked child, or the new image after exec.
 *
 * @param timestampNs  when the agent initialised in it
 * @param pid          process id
 * @param ppid         parent process id
 * @param executable   path of the executable
 * @param commandLine  its argv
 * @param forkedFrom   for a fork child, the parent pid; 0 otherwise
 * @param execGeneration 0 for the first image of this pid, 1 after the first exec, ...
 */
public record ProcessStarted(
        long timestampNs,
        int pid,
        int ppid,
        String executable,
        List<String> commandLine,
        int forkedFrom,
        int execGeneration)
        implements SinkEvent {}
