package org.rocprofsys.sampler.perf;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A program started behind a shell that waits for a line on stdin before it execs the program, so
 * that events opened on the shim with enable_on_exec see the program's whole run.
 */
public final class ExecShim {
    private ExecShim() {}

    /** {@code exe args...}, waiting for {@link #releaseAndDrain}. */
    public static Process start(Path exe, String... args) throws IOException {
        List<String> command =
                new ArrayList<>(List.of("/bin/sh", "-c", "read _ && exec \"$0\" \"$@\"", exe.toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    /** Lets the shim exec, then drains {@code events} into {@code records} until the program ends. */
    public static void releaseAndDrain(Process shim, PerfEvents events, List<PerfRecord> records, int awaitMs)
            throws IOException {
        try (OutputStream release = shim.getOutputStream()) {
            release.write('\n');
        }
        while (shim.isAlive()) {
            events.await(awaitMs);
            events.drain(records::add);
        }
        events.drain(records::add);
    }
}
