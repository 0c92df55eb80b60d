package org.rocprofsys.cuda.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.cuda.decode.FixtureExpectations;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.DecodedTrace.Slice;

/**
 * The recorded H100 runs (fixtures/README.md) through the collector, the pipeline and the run's
 * outputs: the Perfetto trace and the stats files hold exactly what each example did.
 */
class CudaPipelineTest {
    @TempDir
    Path dir;

    private static final String KERNEL = "cuda_kernel_dispatch";
    private static final String COPY = "cuda_memory_copy";
    private static final String RUNTIME = "cuda_runtime_api";
    private static final String NVTX = "cuda_nvtx";

    private static Map<String, Long> count(DecodedTrace t, String category) {
        return t.slices.stream()
                .filter(s -> category.equals(s.category))
                .collect(Collectors.groupingBy(s -> s.name, TreeMap::new, Collectors.counting()));
    }

    private static List<Slice> of(DecodedTrace t, String category) {
        return t.slices.stream().filter(s -> category.equals(s.category)).toList();
    }

    /** Kind -> {copies, bytes}, from the copy slices' annotations. */
    private static Map<String, List<Long>> copies(DecodedTrace t) {
        Map<String, List<Long>> m = new TreeMap<>();
        for (Slice s : of(t, COPY)) {
            List<Long> v = m.getOrDefault(s.name, List.of(0L, 0L));
            m.put(s.name, List.of(v.get(0) + 1, v.get(1) + (Long) s.args.get("bytes")));
        }
        return m;
    }

    /** The trace's copies: so many host-to-device of so many bytes in all, and device-to-host. */
    private static void assertCopies(DecodedTrace t, long toDevice, long toDeviceBytes, long toHost, long toHostBytes) {
        assertEquals(
                Map.of(
                        "MEMORY_COPY_HOST_TO_DEVICE",
                        List.of(toDevice, toDeviceBytes),
                        "MEMORY_COPY_DEVICE_TO_HOST",
                        List.of(toHost, toHostBytes)),
                copies(t));
    }

    private static Set<String> streamTracks(DecodedTrace t) {
        return t.tracks.values().stream()
                .map(tr -> tr.descriptor().getName())
                .filter(n -> n.startsWith("CUDA Activity Stream "))
                .collect(Collectors.toSet());
    }

    /** Every kernel, copy and memset ends a flow that a launch call on a thread began earlier. */
    private static void flowsJoinLaunchesToDeviceWork(DecodedTrace t) {
        Map<Long, Slice> starts = new HashMap<>();
        for (Slice s : t.slices) {
            if (RUNTIME.equals(s.category)) {
                s.flowIds.forEach(id -> starts.putIfAbsent(id, s));
            }
        }
        List<Slice> device = t.slices.stream()
                .filter(s -> s.category != null
                        && (s.category.equals(KERNEL)
                                || s.category.equals(COPY)
                                || s.category.equals("cuda_memory_set")))
                .toList();
        assertFalse(device.isEmpty());
        for (Slice d : device) {
            assertEquals(1, d.terminatingFlowIds.size(), d.toString());
            Slice call = starts.get(d.terminatingFlowIds.getFirst());
            assertNotNull(call, "no launch call begins the flow of " + d);
            assertTrue(call.beginNs < d.beginNs, d + " begins before its launch " + call);
            assertEquals(call.args.get("corr_id"), d.args.get("corr_id"));
            assertTrue(t.tracks.get(call.trackUuid).isThread(), "launch on a thread track");
        }
    }

    @Test
    void vectorAdd() throws Exception {
        FixtureRun run = FixtureRun.of("vector-add", dir);
        DecodedTrace t = run.trace();
        assertEquals(
                Map.of("spin(long long, int*)", 5L, "vector_add(float const*, float const*, float*, int)", 1L),
                count(t, KERNEL));
        long bytes = 4L << 20;
        assertCopies(t, 2, 2 * bytes, 1, bytes);
        assertEquals(Map.of("MEMORY_SET", 1L), count(t, "cuda_memory_set"));
        assertEquals(FixtureExpectations.RUNTIME_CALLS, count(t, RUNTIME));
        assertEquals(6L, count(t, "cuda_driver_api").get("cuLaunchKernel"));
        assertEquals(Set.of("CUDA Activity Stream 7 [0]"), streamTracks(t));
        flowsJoinLaunchesToDeviceWork(t);
        // upstream's kernel annotations
        Slice add = of(t, KERNEL).stream()
                .filter(s -> s.name.startsWith("vector_add"))
                .findFirst()
                .orElseThrow();
        assertEquals("(4096,1,1)", add.args.get("grid_size"));
        assertEquals("(256,1,1)", add.args.get("workgroup_size"));
        assertEquals(0L, add.args.get("group_segment_size"));
        assertTrue((Long) add.args.get("registers_per_thread") > 0);
        assertEquals(0L, add.args.get("device"));
        assertTrue(add.args.keySet().containsAll(List.of("begin_ns", "end_ns", "corr_id", "stream_id")));
        // the API call on the main thread's track, with its annotations
        Slice malloc = of(t, RUNTIME).stream()
                .filter(s -> s.name.equals("cudaMalloc"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                run.pid(),
                t.tracks.get(malloc.trackUuid).descriptor().getThread().getTid());
        assertTrue(malloc.args.keySet().containsAll(List.of("begin_ns", "end_ns", "corr_id")));
        // three 4 MiB buffers allocated, then freed: the device's counter peaks at 12 MB and ends at 0
        List<Double> memory = t.packets.stream()
                .filter(p -> p.hasTrackEvent() && p.getTrackEvent().hasDoubleCounterValue())
                .map(p -> p.getTrackEvent().getDoubleCounterValue())
                .toList();
        assertEquals(6, memory.size());
        assertEquals(
                12.0, memory.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), 1e-9);
        assertEquals(0.0, memory.getLast(), 1e-9);
        assertTrue(t.tracks.values().stream()
                .anyMatch(tr -> tr.descriptor().getName().equals("GPU Memory Allocated [0]")
                        && tr.descriptor().getCounter().getUnitName().equals("MB")));

        // stats: rocprofv3's tables, sorted by total time
        String kernels = run.statsFile("kernel_stats", "csv");
        assertTrue(
                kernels.startsWith("\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\","
                        + "\"MaxNs\",\"StdDev\"\n\"spin(long long, int*)\",5,"),
                kernels);
        assertEquals(3, kernels.split("\n").length);
        assertTrue(run.statsFile("memory_copy_stats", "csv").contains("\"MEMORY_COPY_HOST_TO_DEVICE\",2,"));
        assertTrue(run.statsFile("cuda_api_stats", "csv").contains("\"cudaLaunchKernel\",6,"));
        JsonNode domains = new ObjectMapper()
                .readTree(run.statsFile("domain_stats", "json"))
                .get("domain_stats");
        assertEquals(
                Set.of("CUDA_RUNTIME_API", "CUDA_DRIVER_API", "KERNEL_DISPATCH", "MEMORY_COPY", "MEMORY_SET"),
                Set.copyOf(domains.findValuesAsText("Name")));
        // metadata.json: the GPU and the kernel counts
        JsonNode gpu = run.metadata().findValue("gpu");
        assertNotNull(gpu, run.metadata().toString());
        assertEquals(1, gpu.get("devices").size());
        assertEquals(
                "NVIDIA H100 80GB HBM3", gpu.get("devices").get(0).get("name").asText());
        assertEquals(5, gpu.get("kernel_rows").get("spin(long long, int*)").asLong());
        assertEquals(
                1,
                gpu.get("kernel_rows")
                        .get("vector_add(float const*, float const*, float*, int)")
                        .asLong());
        assertTrue(run.metadata().toString().contains("kernel_stats"), "stats files listed");
    }

    @Test
    void streamsGetOneTrackEach() throws Exception {
        DecodedTrace t = FixtureRun.of("streams", dir).trace();
        assertEquals(Map.of("scale(float*, int, float)", 12L), count(t, KERNEL));
        long mib = 1L << 20;
        assertCopies(t, 12, 12 * mib, 12, 12 * mib);
        assertEquals(4, streamTracks(t).size(), streamTracks(t).toString());
        assertEquals(24L, count(t, RUNTIME).get("cudaMemcpyAsync"));
        // each stream track holds 3 kernels and 6 copies
        Map<Long, Long> perTrack = t.slices.stream()
                .filter(s -> KERNEL.equals(s.category) || COPY.equals(s.category))
                .collect(Collectors.groupingBy(s -> s.trackUuid, Collectors.counting()));
        assertEquals(List.of(9L, 9L, 9L, 9L), List.copyOf(perTrack.values()));
        flowsJoinLaunchesToDeviceWork(t);
    }

    @Test
    void nvtxRangesOnTheCallingThread() throws Exception {
        FixtureRun run = FixtureRun.of("nvtx", dir);
        DecodedTrace t = run.trace();
        List<Slice> nvtx = of(t, NVTX);
        assertEquals(
                Map.of("outer", 1L, "middle", 2L, "inner", 2L, "begin-work", 1L, "domain-range", 1L, "async-range", 1L),
                count(t, NVTX));
        assertTrue(nvtx.stream()
                .allMatch(
                        s -> t.tracks.get(s.trackUuid).descriptor().getThread().getTid() == run.pid()));
        assertEquals(
                "demo-domain",
                nvtx.stream()
                        .filter(s -> s.name.equals("domain-range"))
                        .findFirst()
                        .orElseThrow()
                        .args
                        .get("domain"));
        assertTrue(nvtx.stream()
                .filter(s -> s.name.equals("begin-work"))
                .findFirst()
                .orElseThrow()
                .instant);
        // nesting as trace_processor sees it (by time on the one track): inner in middle in outer,
        // and one kernel launch inside each inner range
        Slice outer =
                nvtx.stream().filter(s -> s.name.equals("outer")).findFirst().orElseThrow();
        for (Slice inner : nvtx.stream().filter(s -> s.name.equals("inner")).toList()) {
            Slice middle = nvtx.stream()
                    .filter(s -> s.name.equals("middle") && s.beginNs <= inner.beginNs && inner.endNs <= s.endNs)
                    .findFirst()
                    .orElseThrow();
            assertTrue(outer.beginNs <= middle.beginNs && middle.endNs <= outer.endNs);
            assertEquals(
                    1,
                    of(t, RUNTIME).stream()
                            .filter(s -> s.name.equals("cudaLaunchKernel")
                                    && inner.beginNs <= s.beginNs
                                    && s.endNs <= inner.endNs)
                            .count());
        }
        assertEquals(Map.of("tick(int*)", 3L), count(t, KERNEL));
        flowsJoinLaunchesToDeviceWork(t);
    }

    @Test
    void twoThreadsLaunchOnTheirOwnTracks() throws Exception {
        FixtureRun run = FixtureRun.of("two-threads", dir);
        DecodedTrace t = run.trace();
        assertEquals(Map.of("work_a(float*)", 50L, "work_b(float*)", 50L), count(t, KERNEL));
        Map<Long, Long> launchesPerThread = of(t, RUNTIME).stream()
                .filter(s -> s.name.equals("cudaLaunchKernel"))
                .collect(Collectors.groupingBy(
                        s -> t.tracks.get(s.trackUuid).descriptor().getThread().getTid(), Collectors.counting()));
        assertEquals(2, launchesPerThread.size());
        assertTrue(launchesPerThread.values().stream().allMatch(n -> n == 50));
        assertFalse(launchesPerThread.containsKey((long) run.pid()));
        assertEquals(2, streamTracks(t).size());
        flowsJoinLaunchesToDeviceWork(t);
    }

    @Test
    void templatedKernelsAreDemangledInTraceAndStats() throws Exception {
        FixtureRun run = FixtureRun.of("templated", dir);
        assertEquals(FixtureExpectations.TEMPLATED_KERNELS, count(run.trace(), KERNEL));
        assertTrue(run.statsFile("kernel_stats", "csv")
                .contains("\"void demo::axpy<float, 4>(float, float const*, float*, int)\",2,"));
    }

    @Test
    void crashKeepsEveryKernelOfTheLastFlush() throws Exception {
        FixtureRun run = FixtureRun.of("crash-after-kernels", dir);
        assertEquals(
                20L,
                count(run.trace(), KERNEL).values().stream()
                        .mapToLong(Long::longValue)
                        .sum());
        assertTrue(run.statsFile("kernel_stats", "csv").contains(",20,"), run.statsFile("kernel_stats", "csv"));
        flowsJoinLaunchesToDeviceWork(run.trace());
    }

    @ParameterizedTest
    @ValueSource(strings = {"launch-loop", "killed-after-kernels", "killed-early", "cupti-subscriber", "no-cupti"})
    void everyFixtureMakesAValidTrace(String fixture) throws Exception {
        FixtureRun run = FixtureRun.of(fixture, dir);
        assertFalse(run.trace().slices.isEmpty());
        long kernels = of(run.trace(), KERNEL).size();
        switch (fixture) {
            case "launch-loop" ->
                assertEquals(1000 + 1, kernels, count(run.trace(), KERNEL).toString());
            case "killed-after-kernels" -> assertEquals(20, kernels);
            case "killed-early" -> assertEquals(0, kernels);
            default -> {}
        }
    }
}
