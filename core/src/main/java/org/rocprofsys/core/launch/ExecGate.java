package org.rocprofsys.core.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.ProcStat;
import org.rocprofsys.ffm.LibC;

/**
 * Launches the target through a tiny shell shim that stops itself before it execs the command,
 * so that sources which must be attached before the target's first instruction (perf events with
 * enable_on_exec) can attach to the stopped pid; {@link #release} lets it exec. The agent is
 * preloaded only into the exec'd command (the shim carries LD_PRELOAD aside), so the shim leaves
 * no ring file of its own.
 */
final class ExecGate {
    private static final String HELD_PRELOAD = "ROCPROFSYS_GATE_LD_PRELOAD";
    private static final String SHIM = "kill -STOP $$; if [ -n \"${" + HELD_PRELOAD + "+x}\" ]; then LD_PRELOAD=$"
            + HELD_PRELOAD + "; export LD_PRELOAD; unset " + HELD_PRELOAD + "; fi; exec \"$0\" \"$@\"";
    private static final long STOP_TIMEOUT_NS = 10_000_000_000L;

    private ExecGate() {}

    /** {@code /bin/sh -c <shim> command...}. */
    static List<String> command(List<String> command) {
        List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", SHIM));
        out.addAll(command);
        return out;
    }

    /** The environment with LD_PRELOAD held aside until the exec. */
    static Map<String, String> environment(Map<String, String> env) {
        Map<String, String> out = new HashMap<>(env);
        String preload = out.remove("LD_PRELOAD");
        if (preload != null) {
            out.put(HELD_PRELOAD, preload);
        }
        return out;
    }

    /**
     * The error the shell would otherwise report after the gate (exit 127): a command that is not
     * found or not executable, checked up front so it reads as before.
     */
    static void checkExecutable(String program, Map<String, String> env, Path cwd) throws SessionException {
        if (ProgramPath.find(program, env, cwd).isPresent()) {
            return;
        }
        boolean exists = ProgramPath.candidates(program, env, cwd).stream().anyMatch(Files::exists);
        throw new SessionException("cannot execute '" + program + "': error="
                + (exists ? "13, Permission denied" : "2, No such file or directory"));
    }

    /** Waits until the shim has stopped itself; fails if it ended or took too long. */
    static void awaitStopped(Process p) throws SessionException, InterruptedException {
        long deadline = System.nanoTime() + STOP_TIMEOUT_NS;
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new SessionException(
                        "the launch shim ended before the command started (exit " + p.exitValue() + ")");
            }
            // unreadable: raced with the process ending, isAlive() decides on the next round
            char state =
                    ProcFs.system().read(p.pid(), "stat").map(ProcStat::state).orElse('?');
            if (state == 'T' || state == 't') {
                return;
            }
            Thread.sleep(0, 200_000);
        }
        p.destroyForcibly();
        throw new SessionException("the launch shim did not stop within 10 s");
    }

    /** Lets the shim exec the command. */
    static void release(Process p) throws SessionException {
        int rc;
        try {
            rc = LibC.kill(p.pid(), LibC.SIGCONT);
        } catch (RuntimeException e) {
            throw new SessionException("cannot resume the launch shim: " + e);
        }
        if (rc != 0) {
            throw new SessionException("cannot resume the launch shim (pid " + p.pid() + ")");
        }
    }
}
