package org.rocprofsys.sampler.perf;

import java.io.IOException;
import java.nio.file.Path;
import org.rocprofsys.testkit.NativeCompiler;

/** The sampler's test programs: a source of src/test/c/ built into target/test-native/. */
final class NativeBuild {
    private NativeBuild() {}

    static Path compile(String source, String... flags) throws IOException, InterruptedException {
        Path src = Path.of("src/test/c", source).toAbsolutePath();
        Path exe = Path.of("target/test-native").toAbsolutePath().resolve(source.replaceFirst("\\.c$", ""));
        return NativeCompiler.c().compile(src, exe, flags).toRealPath();
    }
}
