package org.rocprofsys.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * rocm-backend's replay rocprofiler-sdk built from the tree: {@code librocprofiler-sdk.so}
 * (src/test/c/replay_sdk.c) and the scripted program that links against it as a HIP program does
 * against the real one ({@code replay_app}, src/test/c/replay_app.c).
 */
public final class ReplaySdk {
    private ReplaySdk() {}

    /**
     * Builds both into {@code dir}.
     *
     * @param repo  the repository's root
     * @param flags the compiler's language and warning flags (the include folders are added)
     * @return the scripted program
     */
    public static Path build(Path repo, Path dir, List<String> flags) throws IOException, InterruptedException {
        Path main = repo.resolve("rocm-backend/src/main/c");
        Path test = repo.resolve("rocm-backend/src/test/c");
        List<String> common = concat(flags, "-I" + main, "-I" + test);
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
        return app;
    }

    private static List<String> concat(List<String> a, String... b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(List.of(b));
        return l;
    }
}
