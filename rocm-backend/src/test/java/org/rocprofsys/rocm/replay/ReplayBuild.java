package org.rocprofsys.rocm.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.testkit.Make;
import org.rocprofsys.testkit.ReplaySdk;

/**
 * The native pieces of a replayed session, built once per test JVM from the tree: the agent
 * ({@code librocprof-sys.so}), the ROCm tool ({@code librocprof-sys-rocm.so}, from
 * src/main/c), the replay SDK ({@code librocprofiler-sdk.so}, src/test/c/replay_sdk.c) and the
 * scripted program that drives it ({@code replay_app}, linked against the replay SDK as a HIP
 * program is against the real one).
 */
record ReplayBuild(Path agent, Path tool, Path sdk, Path app, Path dir) {
    private static ReplayBuild built;

    static synchronized ReplayBuild get() throws IOException, InterruptedException {
        if (built != null) {
            return built;
        }
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        Path dir = root.resolve("rocm-backend/target/replay");
        Files.createDirectories(dir);
        Path agentSrc = root.resolve("agent/src/main/c");
        Make.build(agentSrc, "OUT=" + dir, "all");
        Make.build(root.resolve("rocm-backend/src/main/c"), "OUT=" + dir, "all");
        Path app = ReplaySdk.build(root, dir, List.of("-std=c11", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE"));
        built = new ReplayBuild(
                dir.resolve("librocprof-sys.so"),
                dir.resolve("librocprof-sys-rocm.so"),
                dir.resolve("librocprofiler-sdk.so"),
                app,
                dir);
        return built;
    }
}
