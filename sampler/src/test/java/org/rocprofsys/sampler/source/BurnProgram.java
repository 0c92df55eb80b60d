package org.rocprofsys.sampler.source;

import java.io.IOException;
import java.nio.file.Path;
import org.rocprofsys.testkit.NativeCompiler;

/**
 * The sampler's CPU-bound test program (src/test/c/burn.c: main and 2 threads each spin for the
 * given milliseconds of their own CPU time) behind a shell shim that waits on stdin before it
 * execs it, so events can be attached before the program's first instruction.
 */
final class BurnProgram {
    private BurnProgram() {}

    /** burn.c built as target/test-native/{@code name}. */
    static Path build(String name) throws IOException, InterruptedException {
        return NativeCompiler.c()
                .compile(
                        Path.of("src/test/c/burn.c").toAbsolutePath(),
                        Path.of("target/test-native", name).toAbsolutePath(),
                        "-O2",
                        "-fno-omit-frame-pointer",
                        "-pthread")
                .toRealPath();
    }

    /** The shim, started: writing a line to its stdin lets it exec {@code burn millis}. */
    static Process held(Path burn, int millis) throws IOException {
        return new ProcessBuilder(
                        "/bin/sh", "-c", "read _ && exec \"$0\" \"$@\"", burn.toString(), Integer.toString(millis))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }
}
