package org.rocprofsys.core.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.rocprofsys.config.Install;
import org.rocprofsys.ffm.LibC;

/**
 * The profiled program, started through the launch helper ({@code rocprof-sys-launch}, C, in
 * libexec): the JVM posix_spawns the helper with the program's argv and environment as the bytes
 * the user gave ({@link NativeText}) and its own real working directory; the helper forks the
 * program and stays its parent, so the program starts from the helper's small mm and a fresh
 * signal struct (its peak RSS is its own, not the JVM's) with the state the user's shell passed
 * (the launcher script's {@value #STATE_VARIABLE}). The helper ends as the program does.
 */
final class TargetProcess {
    /** Set by libexec/launch: the shell's signal state, limits, nice and descriptors; never the target's. */
    static final String STATE_VARIABLE = "ROCPROFSYS_LAUNCH_STATE";

    private static final String PID_FILE = "launch.pid";
    private static final String EXEC_FILE = "launch.exec";
    private static final long START_TIMEOUT_NS = 10_000_000_000L;

    private final long helperPid;
    private final CompletableFuture<Integer> helperExit;
    private final Path reportDir;
    private final String program;
    private int pid = -1;

    private TargetProcess(long helperPid, Path reportDir, String program) {
        this.helperPid = helperPid;
        this.reportDir = reportDir;
        this.program = program;
        this.helperExit = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("rocprof-sys-launch-wait").start(() -> {
            int[] status = new int[1];
            LibC.Result r = LibC.waitpid(helperPid, 0, status);
            helperExit.complete(r.value() < 0 ? 127 : exitCode(status[0]));
        });
    }

    /** The helper, installed beside the launcher script. */
    static Path helper() {
        return Install.prefix().resolve("libexec/rocprofiler-systems/rocprof-sys-launch");
    }

    /**
     * Starts {@code argv} (its bytes; {@code program} names it in messages) with {@code envp};
     * {@code state} is the launcher script's {@value #STATE_VARIABLE} (null: none); {@code gate}: the
     * program stops itself before its exec until {@link ExecGate#release}. The helper reports into
     * {@code reportDir} (the session directory; null: it says an exec error itself).
     */
    static TargetProcess start(
            List<byte[]> argv, String program, List<byte[]> envp, String state, boolean gate, Path reportDir)
            throws SessionException {
        Path helper = helper();
        if (!Files.isExecutable(helper)) {
            throw new SessionException("the launch helper " + helper + " is missing; rebuild the distribution");
        }
        List<byte[]> args = new ArrayList<>();
        args.add(NativeText.encode(helper.toString()));
        if (reportDir != null) {
            args.add(ascii("--report"));
            args.add(NativeText.encode(reportDir.toString()));
        }
        if (gate) {
            args.add(ascii("--gate"));
        }
        if (state != null) {
            args.add(ascii("--state"));
            args.add(ascii(state));
        }
        args.add(ascii("--"));
        args.addAll(argv);
        LibC.Result r = LibC.posixSpawn(args.getFirst(), args, envp);
        if (r.value() < 0) {
            throw new SessionException("cannot start the launch helper " + helper + ": " + LibC.strerror(r.errno()));
        }
        return new TargetProcess(r.value(), reportDir, program);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The exit code a shell reports: the code, or 128+N for death by signal N. */
    private static int exitCode(int waitStatus) {
        int signal = waitStatus & 0x7f;
        return signal == 0 ? (waitStatus >> 8) & 0xff : 128 + signal;
    }

    /**
     * The program's pid, once it is forked (before its exec when gated); fails if the helper ended
     * first (it could not execute the program) or took too long.
     */
    int awaitPid() throws SessionException, InterruptedException {
        if (pid > 0) {
            return pid;
        }
        long deadline = System.nanoTime() + START_TIMEOUT_NS;
        while (true) {
            // the helper's end is read before its report: a fast program may have been forked,
            // run and ended (and the helper with it) between the two reads
            boolean helperEnded = helperExit.isDone();
            Optional<String> text = report(PID_FILE);
            if (text.isPresent()) {
                pid = Integer.parseInt(text.get().strip());
                return pid;
            }
            if (helperEnded) {
                throw startFailure();
            }
            if (System.nanoTime() > deadline) {
                LibC.kill(helperPid, 9);
                throw new SessionException("the launch helper did not start '" + program + "' within 10 s");
            }
            Thread.sleep(0, 200_000);
        }
    }

    /** Waits until the program's exec has succeeded; fails as a shell would if it could not execute it. */
    void awaitExec() throws SessionException, InterruptedException {
        while (true) {
            boolean helperEnded = helperExit.isDone(); // before the report, as in awaitPid
            Optional<String> text = report(EXEC_FILE);
            if (text.isPresent()) {
                int errno = Integer.parseInt(text.get().strip());
                if (errno == 0) {
                    return;
                }
                helperExit.join();
                throw CannotExecute.of(program, errno);
            }
            if (helperEnded) {
                throw startFailure();
            }
            Thread.sleep(0, 200_000);
        }
    }

    private SessionException startFailure() {
        Optional<String> exec = report(EXEC_FILE);
        if (exec.isPresent() && !exec.get().strip().equals("0")) {
            return CannotExecute.of(program, Integer.parseInt(exec.get().strip()));
        }
        return new SessionException(
                "the launch helper ended before '" + program + "' started (exit " + helperExit.join() + ")");
    }

    private Optional<String> report(String name) {
        if (reportDir == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(reportDir.resolve(name)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    boolean isAlive() {
        return !helperExit.isDone();
    }

    /** The program's end as a shell reports it (the helper ends as the program did). */
    int waitFor() throws InterruptedException {
        try {
            return helperExit.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Kills the program (a gated one that has not run yet); the helper then ends. */
    void destroy() {
        if (pid > 0) {
            LibC.kill(pid, 9);
        } else {
            LibC.kill(helperPid, 9);
        }
    }

    int pid() {
        return pid;
    }
}
