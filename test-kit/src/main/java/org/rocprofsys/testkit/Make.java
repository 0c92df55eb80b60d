package org.rocprofsys.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Builds with a project Makefile (the agent's C sources, examples/): {@code make -s -C dir args}. */
public final class Make {
    private static final Duration TIMEOUT = Duration.ofSeconds(600);

    private Make() {}

    /**
     * Runs make in {@code dir} with {@code args} (targets and VAR=value) and returns its output.
     *
     * @throws IOException with make's output when the build fails
     */
    public static String build(Path dir, String... args) throws IOException, InterruptedException {
        ProcessResult r = run(dir, args);
        if (r.exitCode() != 0) {
            throw new IOException(
                    "make -C " + dir + " " + String.join(" ", args) + " failed (" + r.exitCode() + "):\n" + r.all());
        }
        return r.all();
    }

    /** Runs make in {@code dir} with {@code args}, for a test that checks the outcome itself. */
    public static ProcessResult run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("make", "-s", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        return Command.of(cmd).timeout(TIMEOUT).run();
    }
}
