package org.rocprofsys.rocm.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.testkit.Make;
import org.rocprofsys.testkit.NativeCompiler;

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
        Path main = root.resolve("rocm-backend/src/main/c");
        Path test = root.resolve("rocm-backend/src/test/c");
        List<String> common =
                List.of("-std=c11", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE", "-I" + main, "-I" + test);
        Path sdk = dir.resolve("librocprofiler-sdk.so");
        NativeCompiler.c()
                .compile(
                        sdk,
                        concat(
                                common,
                                "-fPIC",
                                "-shared",
                                "-pthread",
                                "-o",
                                sdk.toString(),
                                test.resolve("replay_sdk.c").toString(),
                                "-ldl"));
        Path app = dir.resolve("replay_app");
        NativeCompiler.c()
                .compile(
                        app,
                        concat(
                                common,
                                "-pthread",
                                "-o",
                                app.toString(),
                                test.resolve("replay_app.c").toString(),
                                "-L" + dir,
                                "-lrocprofiler-sdk",
                                "-Wl,-rpath," + dir));
        built = new ReplayBuild(dir.resolve("librocprof-sys.so"), dir.resolve("librocprof-sys-rocm.so"), sdk, app, dir);
        return built;
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> l = new java.util.ArrayList<>(a);
        l.addAll(List.of(b));
        return l;
    }
}
