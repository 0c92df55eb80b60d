package org.rocprofsys.cuda.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.Make;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * The CUDA examples build with the toolkit's nvcc wherever it is installed (CI has it, without a
 * GPU): the programs the fixtures were recorded from must keep compiling.
 */
class CudaExamplesBuildTest {
    private static final List<String> PROGRAMS = FixtureExpectations.recordedExamplesAnd("compute-bound");

    @TempDir
    Path out;

    @Test
    void everyExampleCompiles() throws Exception {
        NativeCompiler nvcc = NativeCompiler.cuda();
        Path examples = Path.of(System.getProperty("user.dir"))
                .resolve("../examples/cuda")
                .normalize();
        int jobs = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        ProcessResult make = Make.run(examples, "-j" + jobs, "OUT=" + out, "NVCC=" + nvcc.program());
        String log = make.all();
        assertEquals(0, make.exitCode(), log);
        for (String program : PROGRAMS) {
            assertTrue(Files.isExecutable(out.resolve(program)), program + " was not built:\n" + log);
        }
    }
}
