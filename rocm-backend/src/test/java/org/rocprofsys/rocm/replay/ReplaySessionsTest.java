package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.DecodedTrace.Slice;

/**
 * Replayed rocprofiler-sdk sessions (src/test/c: the replay SDK and upstream's example programs as
 * scripts) through the real tool, agent, collector and outputs, checked with upstream's own
 * expectations (rocprofiler-systems tests/*.cmake, validated as validate-perfetto-proto.py does).
 */
class ReplaySessionsTest {
    @TempDir
    Path dir;

    private static Map<String, Long> count(DecodedTrace t, String category) {
        return t.slices.stream()
                .filter(s -> category.equals(s.category))
                .collect(Collectors.groupingBy(s -> s.name, TreeMap::new, Collectors.counting()));
    }

    private static Set<String> trackNames(DecodedTrace t, String prefix) {
        return t.tracks.values().stream()
                .map(tr -> tr.descriptor().getName())
                .filter(n -> n.startsWith(prefix))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** rocprof-sys-roctx-tests.cmake: validate roctx-api-sampling (-m rocm_marker_api). */
    @Test
    void roctxExampleGivesUpstreamsLabelsCountsAndDepths() throws Exception {
        ReplayRun run = ReplayRun.of(
                "roctx", Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_runtime_api,marker_api,kernel_dispatch"), dir);
        assertEquals(0, run.target().exitCode(), run.target().all());
        UpstreamValidation.roctxExample(run.trace());
        // the HIP calls inside the ranges, and one kernel per gpu_workload()
        Map<String, Long> hip = count(run.trace(), "rocm_hip_api");
        assertEquals(2L, hip.get("hipLaunchKernel"));
        assertEquals(2L, hip.get("hipMalloc"));
        Map<String, Long> kernels = count(run.trace(), "rocm_kernel_dispatch");
        assertEquals(Map.of("hipKernelLaunch(int*) [clone .kd]", 2L), kernels, "demangled as __cxa_demangle does");
        assertEquals(Set.of("GPU Kernel Dispatch [0] Queue 1"), trackNames(run.trace(), "GPU Kernel Dispatch"));
        flowsJoinCallsToDeviceWork(run.trace());
    }

    /**
     * examples/transpose by HIP stream (rocprof-sys-rocm-hip-stream.cmake, ROCM_GROUP_BY_QUEUE=NO):
     * 2 threads, each its own stream: HIP calls on the threads, 2 fill kernels, the HtoD copy, 10
     * transpose_a kernels and the DtoH copy on each stream's track, flows from each call.
     */
    @Test
    void transposeByStream() throws Exception {
        ReplayRun run = transpose("ROCPROFSYS_ROCM_GROUP_BY_QUEUE", "NO");
        assertEquals(0, run.target().exitCode(), run.target().all());
        DecodedTrace t = run.trace();
        assertEquals(Set.of("HIP Activity Stream 1", "HIP Activity Stream 2"), trackNames(t, "HIP Activity Stream"));
        assertEquals(Set.of(), trackNames(t, "GPU Kernel Dispatch"));
        Map<String, Long> onStreams = count(t, "rocm_hip_stream");
        assertEquals(20L, onStreams.get("transpose_a(int*, int*, int, int) [clone .kd]"));
        assertEquals(
                4L,
                onStreams.entrySet().stream()
                        .filter(e -> e.getKey().startsWith("__amd_rocclr_fillBufferAligned(void*, void*,"))
                        .mapToLong(Map.Entry::getValue)
                        .sum(),
                onStreams.toString());
        assertEquals(2L, onStreams.get("MEMORY_COPY_HOST_TO_DEVICE"));
        assertEquals(2L, onStreams.get("MEMORY_COPY_DEVICE_TO_HOST"));
        Map<String, Long> hip = count(t, "rocm_hip_api");
        assertEquals(24L, hip.get("hipLaunchKernel"));
        assertEquals(4L, hip.get("hipMemcpyAsync"));
        assertEquals(4L, hip.get("hipMalloc"));
        assertEquals(20L, hip.get("hipGetLastError"));
        // one stream per thread: each stream's work comes from one thread's calls
        for (Slice k : t.slices.stream()
                .filter(s -> "rocm_hip_stream".equals(s.category))
                .toList()) {
            for (String a : List.of("begin_ns", "end_ns", "corr_id", "stream_id")) {
                assertTrue(k.args.containsKey(a), a + " on " + k);
            }
        }
        Slice kernel = t.slices.stream()
                .filter(s -> s.name.startsWith("transpose_a"))
                .findFirst()
                .orElseThrow();
        for (String a : List.of("queue", "dispatch_id", "kernel_id", "private_segment_size", "group_segment_size")) {
            assertTrue(kernel.args.containsKey(a), a + " on " + kernel);
        }
        assertEquals("(1024,1,1)", kernel.args.get("workgroup_size"));
        assertEquals("(16384,1,1)", kernel.args.get("grid_size"));
        Slice copy = t.slices.stream()
                .filter(s -> s.name.equals("MEMORY_COPY_HOST_TO_DEVICE"))
                .findFirst()
                .orElseThrow();
        assertEquals(1L, ((Number) copy.args.get("dst_agent")).longValue(), "GPU 0 is logical node 1");
        assertEquals(0L, ((Number) copy.args.get("src_agent")).longValue());
        flowsJoinCallsToDeviceWork(t);
        // launch calls carry the stream they ran on
        Slice launch = t.slices.stream()
                .filter(s -> s.name.equals("hipLaunchKernel"))
                .findFirst()
                .orElseThrow();
        assertTrue(launch.args.containsKey("stream_id"), launch.toString());
        assertTrue(launch.args.containsKey("stream"), "arguments by name: " + launch);
        // rocprofv3's stats with HIP's names
        String kernels = run.statsFile("kernel_stats", "csv");
        assertTrue(kernels.contains("\"transpose_a(int*, int*, int, int) [clone .kd]\",20,"), kernels);
        String api = run.statsFile("hip_api_stats", "csv");
        assertTrue(api.contains("\"hipLaunchKernel\",24,"), api);
        String copies = run.statsFile("memory_copy_stats", "csv");
        assertTrue(copies.contains("\"MEMORY_COPY_HOST_TO_DEVICE\",2,"), copies);
        String domains = run.statsFile("domain_stats", "csv");
        assertTrue(domains.contains("\"HIP_RUNTIME_API\""), domains);
        assertTrue(domains.contains("\"KERNEL_DISPATCH\",24,"), domains);
        var gpu = run.metadata().findValue("gpu");
        assertEquals(2, gpu.at("/devices").size(), "the two GPU agents, not the CPU: " + gpu);
        assertEquals("AMD Instinct MI300X", gpu.at("/devices/0/name").asText());
        assertEquals("AMD", gpu.at("/devices/0/vendor").asText());
        assertEquals(304, gpu.at("/devices/0/multiprocessors").asInt());
        assertEquals("gfx942", gpu.at("/devices/0/compute_capability").asText());
        assertEquals(
                20,
                gpu.at("/kernel_rows/transpose_a(int*, int*, int, int) [clone .kd]")
                        .asInt(),
                gpu.toString());
    }

    /** The same program grouped by queue (ROCM_GROUP_BY_QUEUE=YES): kernels per queue, copies per thread. */
    @Test
    void transposeByQueue() throws Exception {
        ReplayRun run = transpose("ROCPROFSYS_ROCM_GROUP_BY_QUEUE", "YES");
        DecodedTrace t = run.trace();
        assertEquals(Set.of(), trackNames(t, "HIP Activity Stream"));
        assertEquals(
                Set.of(
                        "GPU Kernel Dispatch [0] Queue 139637976731648",
                        "GPU Kernel Dispatch [0] Queue 139637976735744"),
                trackNames(t, "GPU Kernel Dispatch"));
        // to the GPU (logical node 1) and to the host (node 0), from each of the two threads
        Set<String> copyTracks = trackNames(t, "GPU Memory Copy to Agent [");
        assertEquals(4, copyTracks.size(), copyTracks.toString());
        assertTrue(
                copyTracks.stream().allMatch(n -> n.matches("GPU Memory Copy to Agent \\[[01]\\] Thread \\d+")),
                copyTracks.toString());
        assertEquals(2, trackNames(t, "GPU Memory Copy to Agent [1] Thread ").size(), copyTracks.toString());
        assertTrue(
                copyTracks.contains("GPU Memory Copy to Agent [1] Thread 0"),
                "the main thread is Thread 0: " + copyTracks);
        Map<String, Long> kernels = count(t, "rocm_kernel_dispatch");
        assertEquals(20L, kernels.get("transpose_a(int*, int*, int, int) [clone .kd]"));
        Map<String, Long> copies = count(t, "rocm_memory_copy");
        assertEquals(Map.of("MEMORY_COPY_DEVICE_TO_HOST", 2L, "MEMORY_COPY_HOST_TO_DEVICE", 2L), copies);
        flowsJoinCallsToDeviceWork(t);
    }

    /** rocprof-sys-rccl-tests.cmake: category rocm_rccl_api, --counter-names "RCCL Comm" sum > 0. */
    @Test
    void rcclAllReduce() throws Exception {
        ReplayRun run = ReplayRun.of(
                "rccl",
                Map.of(
                        "ROCPROFSYS_ROCM_DOMAINS",
                        "hip_runtime_api,kernel_dispatch,memory_copy",
                        "ROCPROFSYS_USE_RCCLP",
                        "ON"),
                dir);
        DecodedTrace t = run.trace();
        Map<String, Long> rccl = count(t, "rocm_rccl_api");
        assertEquals(1L, rccl.get("ncclAllReduce"));
        assertEquals(1L, rccl.get("ncclCommInitRank"));
        assertTrue(UpstreamValidation.counterSum(t, "RCCL Comm") > 0);
        assertEquals(4.0 * 1048576, UpstreamValidation.counterSum(t, "RCCL Comm Recv"), "1 Mi floats received");
        assertEquals(0.0, UpstreamValidation.counterSum(t, "RCCL Comm Send"));
    }

    /**
     * rocprof-sys-decode-tests.cmake: rocm_rocdecode_api, rocDecCreateVideoParser count 2 depth 1;
     * rocm_rocjpeg_api, rocJpegCreate count 1 depth 1.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "rocdecode, rocdecode_api, rocDecCreateVideoParser, 2",
        "rocjpeg,   rocjpeg_api,   rocJpegCreate,           1"
    })
    void decodeApis(String scenario, String domain, String function, long count) throws Exception {
        ReplayRun run = ReplayRun.of(
                scenario, Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_runtime_api,kernel_dispatch," + domain), dir);
        UpstreamValidation.validate(
                run.trace(), Set.of("rocm_" + domain), List.of(function), List.of(count), List.of(1));
    }

    @Test
    void scratchMemory() throws Exception {
        ReplayRun run = ReplayRun.of("scratch", Map.of(), dir);
        DecodedTrace t = run.trace();
        Map<String, Long> scratch = count(t, "rocm_scratch_memory");
        assertEquals(Map.of("SCRATCH_MEMORY_ALLOC", 1L, "SCRATCH_MEMORY_ASYNC_RECLAIM", 1L), scratch);
        Slice alloc = t.slices.stream()
                .filter(s -> s.name.equals("SCRATCH_MEMORY_ALLOC"))
                .findFirst()
                .orElseThrow();
        assertEquals(64L << 20, ((Number) alloc.args.get("allocation_size")).longValue());
        assertEquals(Set.of("GPU Scratch Memory [0] Queue 139637976731648"), trackNames(t, "GPU Scratch Memory"));
        Slice kernel = t.slices.stream()
                .filter(s -> s.name.startsWith("big_private"))
                .findFirst()
                .orElseThrow();
        assertEquals(16384L, ((Number) kernel.args.get("private_segment_size")).longValue());
    }

    /**
     * A program SIGKILLed 500 ms after its 20 kernels: the API calls were written as they returned and
     * the tool's flush thread (100 ms) had handed the kernels to the rings, so nothing is lost.
     */
    @Test
    void sigkilledSessionKeepsWhatWasFlushed() throws Exception {
        ReplayRun run = ReplayRun.of("killed", Map.of(), dir);
        assertEquals(137, run.target().exitCode(), run.target().all());
        assertTrue(run.target().stdout().contains("killing"));
        DecodedTrace t = run.trace();
        assertEquals(20L, count(t, "rocm_hip_api").get("hipLaunchKernel"));
        assertEquals(Map.of("step(int*) [clone .kd]", 20L), count(t, "rocm_kernel_dispatch"));
    }

    /**
     * rocprof-sys-rocprofiler-tests.cmake, transpose-rocprofiler: ROCPROFSYS_ROCM_EVENTS with
     * {@code :device=0}; upstream checks {@code --counter-names <metrics>} sum > 0 on the trace and
     * that the four {@code rocprof-device-0-<METRIC>.txt} files exist. The replay SDK's values follow
     * from each dispatch (replay_sdk.c), so the sums are known: 20 transposes of 16384 work items
     * (256 waves each) and 4 fills of 65536 (1024 waves each).
     */
    @Test
    void transposeRocprofilerCounters() throws Exception {
        ReplayRun run = transpose("ROCPROFSYS_ROCM_EVENTS", "GRBM_COUNT,SQ_WAVES,SQ_INSTS_VALU,TA_TA_BUSY:device=0");
        assertEquals(0, run.target().exitCode(), run.target().all());
        DecodedTrace t = run.trace();
        List<String> metrics = List.of("GRBM_COUNT", "SQ_WAVES", "SQ_INSTS_VALU", "TA_TA_BUSY");
        for (String m : metrics) {
            assertTrue(
                    UpstreamValidation.counterSum(t, "GPU " + m + " [0]") > 0,
                    m + ": " + t.counters().keySet());
            assertTrue(
                    run.fileNames().stream().anyMatch(f -> f.startsWith("rocprof-device-0-" + m) && f.endsWith(".txt")),
                    m + ": " + run.fileNames());
        }
        assertEquals(20 * 256 + 4 * 1024, UpstreamValidation.counterSum(t, "GPU SQ_WAVES [0]"));
        assertEquals(20.0 * (20 * 256 + 4 * 1024), UpstreamValidation.counterSum(t, "GPU SQ_INSTS_VALU [0]"));
        // one value per kernel, each falling back to 0 when its kernel ends
        List<Double> waves = t.counters().get("GPU SQ_WAVES [0]");
        assertEquals(48, waves.size(), waves.toString());
        assertEquals(24, waves.stream().filter(v -> v == 0.0).count());
        // the per-kernel table: 20 transposes, 5120 waves
        String file = run.file("rocprof-device-0-SQ_WAVES");
        String row = file.lines()
                .filter(l -> l.contains(">>> transpose_a(int*, int*, int, int) [clone .kd]"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(file));
        List<String> cells = List.of(row.split("\\|")).stream()
                .map(String::strip)
                .filter(c -> !c.isEmpty())
                .toList();
        assertEquals("20", cells.get(1), row);
        assertEquals("SQ_WAVES", cells.get(3), row);
        assertEquals("5120.000", cells.get(4), row);
        assertEquals("256.000", cells.get(5), "mean per kernel: " + row);
        String stats = run.statsFile("counter_collection_stats", "csv");
        assertTrue(
                stats.contains(
                        "\"transpose_a(int*, int*, int, int) [clone .kd]\",0,\"SQ_WAVES\",20,5120,256,256,256,0"),
                stats);
        // TA_TA_BUSY's 16 instances summed: half of each kernel's duration in ns
        String busy = run.file("rocprof-device-0-TA_TA_BUSY");
        assertTrue(busy.contains("TA_TA_BUSY"), busy);
    }

    /** A counter no GPU has: an error naming it on the target's stderr, and tracing goes on. */
    @Test
    void unknownCounterIsNamed() throws Exception {
        ReplayRun run = ReplayRun.of(
                "transpose",
                Map.of(
                        "ROCPROFSYS_ROCM_DOMAINS",
                        "hip_api,kernel_dispatch",
                        "ROCPROFSYS_ROCM_EVENTS",
                        "SQ_WAVES,NOT_A_COUNTER:device=1"),
                dir,
                "2");
        assertEquals(0, run.target().exitCode(), run.target().all());
        assertTrue(
                run.target()
                        .stderr()
                        .contains("ROCPROFSYS_ROCM_EVENTS: unknown GPU counter 'NOT_A_COUNTER' on device 1"),
                run.target().stderr());
        assertFalse(run.trace().counters().containsKey("GPU SQ_WAVES [0]"));
        assertEquals(4L, count(run.trace(), "rocm_hip_stream").get("transpose_a(int*, int*, int, int) [clone .kd]"));
    }

    /**
     * Unified memory through the SDK's KFD records (domains kfd_page_migrate, kfd_page_fault): the
     * migrations on the device's migration track with their bytes, the faults as a counter, the
     * migration throughput; the same tracks the KFD reader and CUPTI fill.
     */
    @Test
    void pageMigrationsAndFaults() throws Exception {
        ReplayRun run = ReplayRun.of(
                "migrate",
                Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_api,kernel_dispatch,kfd_page_migrate,kfd_page_fault"),
                dir);
        assertEquals(0, run.target().exitCode(), run.target().all());
        DecodedTrace t = run.trace();
        List<Slice> migrations = t.slices.stream()
                .filter(s -> "rocm_page_migration".equals(s.category))
                .toList();
        assertEquals(4, migrations.size(), migrations.toString());
        Map<String, Long> bytes = migrations.stream()
                .collect(Collectors.groupingBy(
                        s -> s.name,
                        TreeMap::new,
                        Collectors.summingLong(s -> ((Number) s.args.get("bytes")).longValue())));
        assertEquals(Map.of("Host To Device", 5L << 20, "Device To Host", 64L << 10), bytes);
        assertEquals(Set.of("Unified Memory Migrations [Device 0]"), trackNames(t, "Unified Memory Migrations"));
        assertEquals(List.of(1.0, 2.0), t.counters().get("Unified Memory Page Faults [Device 0]"));
        // 2 MiB in 200 us: 10.49 GB/s while it lasts
        assertEquals(
                2.0 * (1 << 20) / 200_000,
                t.counters()
                        .get("Unified Memory Migration Throughput [Device 0]")
                        .getFirst(),
                1e-9);
        for (Slice m : migrations) {
            assertTrue(m.endNs > m.beginNs, m.toString());
        }
    }

    /** Every kernel and copy ends a flow that an API call on a thread began earlier. */
    static void flowsJoinCallsToDeviceWork(DecodedTrace t) {
        Map<Long, Slice> starts = new HashMap<>();
        for (Slice s : t.slices) {
            if (s.category != null && s.category.endsWith("_api")) {
                s.flowIds.forEach(id -> starts.putIfAbsent(id, s));
            }
        }
        List<Slice> device = t.slices.stream()
                .filter(s -> Set.of("rocm_kernel_dispatch", "rocm_hip_stream", "rocm_memory_copy")
                        .contains(s.category))
                .toList();
        assertFalse(device.isEmpty());
        for (Slice d : device) {
            assertEquals(1, d.terminatingFlowIds.size(), d.toString());
            Slice call = starts.get(d.terminatingFlowIds.getFirst());
            assertTrue(call != null, "no API call starts the flow of " + d);
            assertTrue(call.beginNs <= d.beginNs, call + " -> " + d);
            assertEquals(d.args.get("corr_id"), call.args.get("corr_id"), d + " <- " + call);
        }
    }

    /** examples/transpose, 10 iterations, with HIP, kernel and copy tracing and one more setting. */
    private ReplayRun transpose(String setting, String value) throws Exception {
        return ReplayRun.of(
                "transpose",
                Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_api,kernel_dispatch,memory_copy", setting, value),
                dir,
                "10");
    }
}
