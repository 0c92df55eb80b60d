package org.rocprofsys.core.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command run without the profiler ({@code --launcher}'s outer launcher, ROCPROFSYS_ENABLED=off),
 * started as the profiled one is: the user's bytes, the shell's inherited state, a shell's
 * 126/127 when it cannot be executed.
 */
public final class UnprofiledRun {
    private UnprofiledRun() {}

    /** Runs {@code command} to its end; returns its exit code (128+N for death by signal N). */
    public static int run(List<String> command, Map<String, String> env, Path workingDirectory)
            throws SessionException, InterruptedException {
        String program = command.getFirst();
        NativeText text = NativeText.ofThisProcess();
        List<byte[]> argv = text.command(command);
        Optional<SessionException> cannot =
                CannotExecute.check(program, env, workingDirectory, NativeText.representable(program, argv.getFirst()));
        if (cannot.isPresent()) {
            throw cannot.get();
        }
        Map<String, String> targetEnv = new java.util.HashMap<>(env);
        String state = targetEnv.remove(TargetProcess.STATE_VARIABLE);
        return TargetProcess.start(argv, program, text.environment(targetEnv), state, false, null)
                .waitFor();
    }
}
