package org.rocprofsys.cuda.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA examples build with the toolkit's nvcc wherever it is installed (CI has it, without a
 * GPU): the programs the fixtures were recorded from must keep compiling.
 */
class CudaExamplesBuildTest {
    private static final List<String> PROGRAMS = List.of(
            "vector-add",
            "streams",
            "templated",
            "nvtx",
            "two-threads",
            "launch-loop",
            "crash-after-kernels",
            "cupti-subscriber",
            "compute-bound");

    @TempDir
    Path out;

    private static Optional<Path> nvcc() {
        for (String dir : new String[] {System.getenv("CUDA_HOME"), "/usr/local/cuda"}) {
            if (dir != null && Files.isExecutable(Path.of(dir, "bin/nvcc"))) {
                return Optional.of(Path.of(dir, "bin/nvcc"));
            }
        }
        return Optional.empty();
    }

    @Test
    void everyExampleCompiles() throws Exception {
        Optional<Path> nvcc = nvcc();
        assumeTrue(nvcc.isPresent(), "no nvcc under CUDA_HOME or /usr/local/cuda");
        Path examples = Path.of(System.getProperty("user.dir"))
                .resolve("../examples/cuda")
                .normalize();
        int jobs = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        Process p = new ProcessBuilder(
                        "make", "-s", "-j" + jobs, "-C", examples.toString(), "OUT=" + out, "NVCC=" + nvcc.get())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "nvcc timed out");
        assertEquals(0, p.exitValue(), log);
        for (String program : PROGRAMS) {
            assertTrue(Files.isExecutable(out.resolve(program)), program + " was not built:\n" + log);
        }
    }
}
