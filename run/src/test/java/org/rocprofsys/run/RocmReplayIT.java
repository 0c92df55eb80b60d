package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ReplaySdk;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * ROCm sessions replayed through {@code rocprof-sys-run} end to end: the launcher sets the
 * target's environment, the agent is preloaded, the replay rocprofiler-sdk
 * (rocm-backend/src/test/c, a {@code librocprofiler-sdk.so} the scripted program links against as
 * a HIP program links against the real one) finds the distribution's tool through
 * ROCP_TOOL_LIBRARIES in a real process, and the collector writes the outputs. Upstream's
 * expectations are checked on the decoded trace and the files.
 */
class RocmReplayIT extends DistributionTest {
    @TempDir
    static Path build;

    private static Path app;

    @BeforeAll
    static void replaySdk() throws Exception {
        app = ReplaySdk.build(REPO, build, List.of("-std=c11", "-Wall", "-D_GNU_SOURCE"));
    }

    private ProcessResult run(String name, List<String> settings, String... args) throws Exception {
        List<String> extra = new java.util.ArrayList<>(List.of("ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_USE_ROCM", "ON"));
        extra.addAll(settings);
        List<String> cmd = new java.util.ArrayList<>(List.of("--", app.toString()));
        cmd.addAll(List.of(args));
        return tool("rocprof-sys-run", environment(name, extra.toArray(String[]::new)), cmd.toArray(String[]::new));
    }

    private Path dir(String name) {
        return outputRoot().resolve(name);
    }

    private static Map<String, Long> count(DecodedTrace t, String category) {
        return t.slices.stream()
                .filter(s -> category.equals(s.category))
                .collect(Collectors.groupingBy(s -> s.name, TreeMap::new, Collectors.counting()));
    }

    private static double counterSum(DecodedTrace t, String name) {
        return t.counters().entrySet().stream()
                .filter(e -> e.getKey() != null && e.getKey().contains(name))
                .flatMap(e -> e.getValue().stream())
                .mapToDouble(Double::doubleValue)
                .sum();
    }

    /**
     * Upstream's transpose-rocprofiler (rocprof-sys-rocprofiler-tests.cmake): the counters'
     * {@code --counter-names} sums are > 0 and the four rocprof-device-0-METRIC.txt files exist;
     * and the kernels, copies and HIP calls of the transpose example are in the trace.
     */
    @Test
    void transposeRocprofiler() throws Exception {
        ProcessResult r = run(
                "transpose-rocprofiler",
                List.of(
                        "ROCPROFSYS_ROCM_DOMAINS",
                        "hip_api,kernel_dispatch,memory_copy",
                        "ROCPROFSYS_ROCM_EVENTS",
                        "GRBM_COUNT,SQ_WAVES,SQ_INSTS_VALU,TA_TA_BUSY:device=0"),
                "transpose",
                "10");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("tool=1"), "the replay SDK configured our tool: " + r);
        DecodedTrace t = DecodedTrace.read(dir("transpose-rocprofiler").resolve("perfetto-trace.proto"));
        for (String m : List.of("GRBM_COUNT", "SQ_WAVES", "SQ_INSTS_VALU", "TA_TA_BUSY")) {
            assertTrue(counterSum(t, m) > 0, m + ": " + t.counters().keySet());
            assertTrue(Files.isRegularFile(dir("transpose-rocprofiler").resolve("rocprof-device-0-" + m + ".txt")), m);
        }
        assertEquals(20 * 256 + 4 * 1024, counterSum(t, "GPU SQ_WAVES [0]"));
        assertEquals(20L, count(t, "rocm_hip_stream").get("transpose_a(int*, int*, int, int) [clone .kd]"));
        assertEquals(24L, count(t, "rocm_hip_api").get("hipLaunchKernel"));
        assertEquals(2L, count(t, "rocm_hip_stream").get("MEMORY_COPY_HOST_TO_DEVICE"));
        String waves = Files.readString(dir("transpose-rocprofiler").resolve("rocprof-device-0-SQ_WAVES.txt"));
        assertTrue(waves.contains("|0>>> transpose_a(int*, int*, int, int) [clone .kd]"), waves);
        assertTrue(Files.readString(dir("transpose-rocprofiler").resolve("kernel_stats.csv"))
                .contains("\"transpose_a(int*, int*, int, int) [clone .kd]\",20,"));
        assertTrue(Files.isRegularFile(dir("transpose-rocprofiler").resolve("counter_collection_stats.csv")));
    }

    /** An unknown counter: the run says which, and traces the rest. */
    @Test
    void unknownCounter() throws Exception {
        ProcessResult r = run(
                "unknown-counter",
                List.of("ROCPROFSYS_ROCM_DOMAINS", "hip_api,kernel_dispatch", "ROCPROFSYS_ROCM_EVENTS", "SQ_WAVEZ"),
                "transpose",
                "1");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("ROCPROFSYS_ROCM_EVENTS: unknown GPU counter 'SQ_WAVEZ'"), r::toString);
        DecodedTrace t = DecodedTrace.read(dir("unknown-counter").resolve("perfetto-trace.proto"));
        assertEquals(2L, count(t, "rocm_hip_stream").get("transpose_a(int*, int*, int, int) [clone .kd]"));
        assertFalse(Files.exists(dir("unknown-counter").resolve("rocprof-device-0-SQ_WAVEZ.txt")));
    }

    /** roctx through the launcher: upstream's labels (rocprof-sys-roctx-tests.cmake) on the trace. */
    @Test
    void roctx() throws Exception {
        ProcessResult r = run("roctx", List.of("ROCPROFSYS_ROCM_DOMAINS", "hip_runtime_api,marker_api"), "roctx");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace t = DecodedTrace.read(dir("roctx").resolve("perfetto-trace.proto"));
        Map<String, Long> marks = count(t, "rocm_marker_api");
        assertEquals(2L, marks.get("roctxRangePush_HIP_Kernel"), marks.toString());
        assertEquals(1L, marks.get("roctxMark_Finished_GPU"), marks.toString());
    }

    /**
     * Unified memory from the SDK's KFD records through the launcher: the migration slices and the
     * unified-memory report (issue 14's) fill from the ROCm path.
     */
    @Test
    void unifiedMemoryFromTheSdk() throws Exception {
        ProcessResult r = run(
                "um",
                List.of(
                        "ROCPROFSYS_ROCM_DOMAINS",
                        "hip_api,kernel_dispatch,kfd_page_migrate,kfd_page_fault",
                        "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING",
                        "ON"),
                "migrate");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace t = DecodedTrace.read(dir("um").resolve("perfetto-trace.proto"));
        assertEquals(
                Map.of("Device To Host", 1L, "Host To Device", 3L),
                count(t, "rocm_page_migration"),
                t.counters().keySet().toString());
        assertEquals(List.of(1.0, 2.0), t.counters().get("Unified Memory Page Faults [Device 0]"));
        try (var files = Files.list(dir("um"))) {
            Path report = files.filter(f -> f.getFileName().toString().startsWith("unified_memory")
                            && f.getFileName().toString().endsWith(".txt"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no unified_memory.txt: " + r));
            String text = Files.readString(report);
            assertTrue(text.contains("Host To Device"), text);
            assertTrue(
                    text.replaceAll(" +", " ").contains("3 1.6667MB 1.0000MB 2.0000MB 5.0000MB"),
                    "3 migrations, 5 MiB: " + text);
        }
    }
}
