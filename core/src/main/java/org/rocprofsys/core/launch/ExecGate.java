package org.rocprofsys.core.launch;

import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.ProcStat;
import org.rocprofsys.ffm.LibC;

/**
 * The exec gate: the launch helper's child stops itself (SIGSTOP) before it execs the command, so
 * that sources which must be attached before the target's first instruction (perf events with
 * enable_on_exec) can attach to the stopped pid, which is already the target's; {@link #release}
 * lets it exec. Nothing runs in that process before the exec but the helper's own code.
 */
final class ExecGate {
    private static final long STOP_TIMEOUT_NS = 10_000_000_000L;

    private ExecGate() {}

    /** Waits until the target has stopped itself; fails if it ended or took too long. */
    static void awaitStopped(TargetProcess target) throws SessionException, InterruptedException {
        int pid = target.awaitPid();
        long deadline = System.nanoTime() + STOP_TIMEOUT_NS;
        while (System.nanoTime() < deadline) {
            if (!target.isAlive()) {
                throw new SessionException(
                        "the launch helper ended before the command started (exit " + target.waitFor() + ")");
            }
            // unreadable: raced with the process ending, isAlive() decides on the next round
            char state = ProcFs.system().read(pid, "stat").map(ProcStat::state).orElse('?');
            if (state == 'T' || state == 't') {
                return;
            }
            Thread.sleep(0, 200_000);
        }
        target.destroy();
        throw new SessionException("the command did not stop at the exec gate within 10 s");
    }

    /** Lets the target exec the command. */
    static void release(TargetProcess target) throws SessionException {
        int rc;
        try {
            rc = LibC.kill(target.pid(), LibC.SIGCONT);
        } catch (RuntimeException e) {
            throw new SessionException("cannot resume the command at the exec gate: " + e);
        }
        if (rc != 0) {
            throw new SessionException("cannot resume the command at the exec gate (pid " + target.pid() + ")");
        }
    }
}
