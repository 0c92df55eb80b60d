package org.rocprofsys.core.pipeline;

import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.ProcStat;

/** Whether a process (not necessarily our child) still runs: present in /proc and not a zombie. */
final class ProcessLiveness {
    private ProcessLiveness() {}

    static boolean isAlive(int pid) {
        return ProcFs.system()
                .read(pid, "stat")
                .map(ProcStat::state)
                .map(state -> state != 'Z' && state != 'X')
                .orElse(false);
    }
}
