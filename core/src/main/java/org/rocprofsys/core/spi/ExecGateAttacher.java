package org.rocprofsys.core.spi;

/**
 * A part that attaches to the launched process while it is held just before it execs the command
 * (the launch then goes through a shim that waits); what it attaches here (e.g. perf events with
 * enable_on_exec) is live from the command's first instruction. Its {@link EventSource#start}, if
 * it is one, follows once the process runs.
 */
public interface ExecGateAttacher extends SessionPart {
    void attachBeforeExec(int pid);
}
