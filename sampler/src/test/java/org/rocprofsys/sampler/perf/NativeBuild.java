package org.rocprofsys.sampler.perf;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Compiles a test program of src/test/c/ with the system C compiler into target/test-native/. */
final class NativeBuild {
    private NativeBuild() {}

    static Path compile(String source, String... flags) throws IOException, InterruptedException {
        Path src = Path.of("src/test/c", source).toAbsolutePath();
        Path outDir = Path.of("target/test-native").toAbsolutePath();
        Files.createDirectories(outDir);
        Path exe = outDir.resolve(source.replaceFirst("\\.c$", ""));
        String cc = System.getenv().getOrDefault("CC", "gcc");
        List<String> cmd = new ArrayList<>(List.of(cc));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", exe.toString(), src.toString()));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no C compiler (" + cc + ") to build the test program: " + e.getMessage());
            throw e;
        }
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("compiling " + src + " failed: " + String.join(" ", cmd) + "\n" + log);
        }
        return exe.toRealPath();
    }
}
