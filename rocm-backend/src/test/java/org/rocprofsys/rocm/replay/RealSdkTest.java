package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Opt-in: the roctx acceptance check with the real rocprofiler-sdk on an AMD GPU instead of the
 * replay SDK. Runs when {@code ROCPROFSYS_TEST_REAL_ROCM=1}, {@code /dev/kfd} exists and
 * {@code $ROCM_PATH} (default /opt/rocm) has {@code bin/hipcc} and {@code lib/librocprofiler-sdk.so}:
 * <pre>ROCPROFSYS_TEST_REAL_ROCM=1 mvn -o -B -pl rocm-backend -am test -Dtest=RealSdkTest -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * It builds src/test/hip/roctx.cpp (upstream's roctx example's calls) with hipcc, runs it under
 * the agent with ROCP_TOOL_LIBRARIES naming our tool (the HIP runtime loads the real SDK, which
 * loads the tool), and checks upstream's labels, counts and depths and the kernels and flows.
 */
class RealSdkTest {
    @TempDir
    Path dir;

    @Test
    void roctxWithTheRealSdk() throws Exception {
        Path rocm = Path.of(System.getenv().getOrDefault("ROCM_PATH", "/opt/rocm"));
        assumeTrue("1".equals(System.getenv("ROCPROFSYS_TEST_REAL_ROCM")), "ROCPROFSYS_TEST_REAL_ROCM=1 not set");
        assumeTrue(Files.exists(Path.of("/dev/kfd")), "no /dev/kfd (no AMD GPU)");
        assumeTrue(Files.isExecutable(rocm.resolve("bin/hipcc")), "no " + rocm + "/bin/hipcc");
        assumeTrue(Files.exists(rocm.resolve("lib/librocprofiler-sdk.so")), "no librocprofiler-sdk.so");
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        Path exe = dir.resolve("roctx");
        ProcessResult c = Command.of(List.of(
                        rocm.resolve("bin/hipcc").toString(),
                        "-o",
                        exe.toString(),
                        root.resolve("rocm-backend/src/test/hip/roctx.cpp").toString(),
                        "-lrocprofiler-sdk-roctx"))
                .run();
        assertEquals(0, c.exitCode(), c.all());
        ReplayRun run = ReplayRun.of(
                List.of(exe.toString()),
                "roctx",
                Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_runtime_api,marker_api,kernel_dispatch"),
                dir);
        assertEquals(0, run.target().exitCode(), run.target().all());
        UpstreamValidation.roctxExample(run.trace());
        ReplaySessionsTest.flowsJoinCallsToDeviceWork(run.trace());
    }
}
