package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.DecodedTrace.Slice;

/**
 * CUDA programs (examples/cuda) profiled through the real launcher on a machine with an NVIDIA GPU:
 * the trace and the stats files hold exactly what each program did. Skipped, with the reason,
 * where there is no GPU or no way to get the examples (the toolkit's nvcc, or prebuilt binaries
 * named by ROCPROFSYS_CUDA_EXAMPLES).
 */
class CudaEndToEndIT extends DistributionTest {
    @TempDir
    static Path work;

    private static Path examples;

    @BeforeAll
    static void cudaExamples() throws IOException, InterruptedException {
        assumeTrue(Files.exists(Path.of("/dev/nvidiactl")), "no NVIDIA GPU here (/dev/nvidiactl is absent)");
        String prebuilt = System.getenv("ROCPROFSYS_CUDA_EXAMPLES");
        if (prebuilt != null && !prebuilt.isBlank()) {
            examples = Path.of(prebuilt).toAbsolutePath();
            return;
        }
        Path nvcc = Path.of(System.getenv().getOrDefault("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc");
        assumeTrue(
                Files.isExecutable(nvcc),
                "no nvcc at " + nvcc + " to build examples/cuda, and no" + " ROCPROFSYS_CUDA_EXAMPLES");
        examples = work.resolve("cuda-examples");
        Process make = new ProcessBuilder(
                        "make", "-s", "-C", REPO.resolve("examples/cuda").toString(), "OUT=" + examples, "NVCC=" + nvcc)
                .inheritIO()
                .start();
        assertEquals(0, make.waitFor(), "building examples/cuda");
    }

    private record Profiled(ProcessResult result, DecodedTrace trace, Path dir) {
        Map<String, Long> count(String category) {
            return trace.slices.stream()
                    .filter(s -> category.equals(s.category))
                    .collect(Collectors.groupingBy(s -> s.name, TreeMap::new, Collectors.counting()));
        }

        List<Slice> of(String category) {
            return trace.slices.stream()
                    .filter(s -> category.equals(s.category))
                    .toList();
        }

        long streamTracks() {
            return trace.tracks.values().stream()
                    .filter(t -> t.descriptor().getName().startsWith("CUDA Activity Stream "))
                    .count();
        }

        String file(String name) throws IOException {
            return Files.readString(dir.resolve(name));
        }
    }

    private static Profiled profile(String name, List<String> options, String program, String... args)
            throws IOException, InterruptedException {
        Path out = work.resolve("out");
        java.util.List<String> argv = new java.util.ArrayList<>(options);
        argv.add("--");
        argv.add(examples.resolve(program).toString());
        argv.addAll(List.of(args));
        ProcessResult r = tool(
                "rocprof-sys-run",
                work,
                testEnvironment(
                        out,
                        name,
                        "ROCPROFSYS_CUDA_DOMAINS",
                        "cuda_runtime_api,cuda_driver_api,kernel_dispatch,memory_copy,memory_set,"
                                + "synchronization,memory_allocation,nvtx"),
                argv.toArray(String[]::new));
        Path dir = out.resolve(name);
        Path trace = dir.resolve("perfetto-trace.proto");
        return new Profiled(r, Files.exists(trace) ? DecodedTrace.read(trace) : null, dir);
    }

    /** Every kernel, copy and memset ends the flow its launch call began, after that call began. */
    private static void flowsJoinLaunches(Profiled p) {
        Map<Long, Slice> starts = new HashMap<>();
        p.of("cuda_runtime_api").forEach(s -> s.flowIds.forEach(id -> starts.putIfAbsent(id, s)));
        for (Slice d : p.trace.slices) {
            if (d.category == null
                    || !(d.category.equals("cuda_kernel_dispatch")
                            || d.category.equals("cuda_memory_copy")
                            || d.category.equals("cuda_memory_set"))) {
                continue;
            }
            Slice call = starts.get(d.terminatingFlowIds.getFirst());
            assertNotNull(call, "no launch call for " + d);
            assertTrue(call.beginNs < d.beginNs, d + " begins before " + call);
            if (call.args.containsKey("stream_id")) { // the call's stream is the one its work ran on
                assertEquals(d.args.get("stream_id"), call.args.get("stream_id"), call + " -> " + d);
            }
        }
    }

    @Test
    void vectorAdd() throws Exception {
        Profiled p = profile("vector-add", List.of(), "vector-add");
        assertEquals(0, p.result().exitCode(), p.result().toString());
        assertEquals(
                Map.of("spin(long long, int*)", 5L, "vector_add(float const*, float const*, float*, int)", 1L),
                p.count("cuda_kernel_dispatch"));
        Map<String, List<Long>> copies = new TreeMap<>();
        for (Slice s : p.of("cuda_memory_copy")) {
            List<Long> v = copies.getOrDefault(s.name, List.of(0L, 0L));
            copies.put(s.name, List.of(v.get(0) + 1, v.get(1) + (Long) s.args.get("bytes")));
        }
        long bytes = 4L << 20;
        assertEquals(
                Map.of(
                        "MEMORY_COPY_HOST_TO_DEVICE",
                        List.of(2L, 2 * bytes),
                        "MEMORY_COPY_DEVICE_TO_HOST",
                        List.of(1L, bytes)),
                copies);
        assertEquals(6L, p.count("cuda_runtime_api").get("cudaLaunchKernel"));
        assertEquals(3L, p.count("cuda_runtime_api").get("cudaMemcpy"));
        assertEquals(6L, p.count("cuda_driver_api").get("cuLaunchKernel"));
        assertEquals(1, p.streamTracks());
        flowsJoinLaunches(p);
        // arguments by name, as recorded by the callbacks (docs/gpu.md "API arguments")
        List<Slice> launches = p.of("cuda_runtime_api").stream()
                .filter(s -> s.name.equals("cudaLaunchKernel"))
                .toList();
        assertEquals(
                "(4096,1,1)",
                launches.getFirst().args.get("gridDim"),
                launches.getFirst().toString());
        assertEquals("(256,1,1)", launches.getFirst().args.get("blockDim"));
        for (Slice s : launches) {
            assertEquals("0", s.args.get("sharedMem"), s.toString());
            assertTrue(s.args.containsKey("stream") && s.args.containsKey("stream_id"), s.toString());
        }
        List<String> memcpy = p.of("cuda_runtime_api").stream()
                .filter(s -> s.name.equals("cudaMemcpy"))
                .map(s -> s.args.get("count") + " " + s.args.get("kind"))
                .toList();
        assertEquals(
                List.of(
                        bytes + " cudaMemcpyHostToDevice",
                        bytes + " cudaMemcpyHostToDevice",
                        bytes + " cudaMemcpyDeviceToHost"),
                memcpy);
        for (Slice s : p.of("cuda_runtime_api")) {
            if (s.name.equals("cudaMalloc")) {
                assertEquals(Long.toString(bytes), s.args.get("size"), s.toString());
                assertTrue(!"0x0".equals(s.args.get("devPtr")), s.toString());
            }
        }
        assertTrue(
                p.of("cuda_driver_api").stream()
                        .filter(s -> s.name.equals("cuLaunchKernel"))
                        .allMatch(s -> s.args.containsKey("gridDimX") && s.args.containsKey("hStream")),
                "cuLaunchKernel arguments");
        // each >= 1 ms spin kernel lasts what cudaEventElapsedTime measured, within 2 %
        List<Slice> spins = p.of("cuda_kernel_dispatch").stream()
                .filter(s -> s.name.startsWith("spin"))
                .sorted(java.util.Comparator.comparingLong(s -> s.beginNs))
                .toList();
        Matcher m = Pattern.compile("spin (\\d+) event_ms=([0-9.]+)")
                .matcher(p.result().stdout());
        int n = 0;
        while (m.find()) {
            double eventNs = Double.parseDouble(m.group(2)) * 1e6;
            Slice k = spins.get(Integer.parseInt(m.group(1)));
            double error = Math.abs((k.endNs - k.beginNs) - eventNs) / eventNs;
            assertTrue(eventNs >= 1e6 && error <= 0.02, k + " vs " + eventNs + " ns");
            n++;
        }
        assertEquals(5, n, p.result().stdout());
        assertTrue(p.file("kernel_stats.csv").contains("\"spin(long long, int*)\",5,"), p.file("kernel_stats.csv"));
        assertTrue(p.file("memory_copy_stats.json").contains("MEMORY_COPY_HOST_TO_DEVICE"));
        assertTrue(p.file("cuda_api_stats.csv").contains("\"cudaLaunchKernel\",6,"));
        assertTrue(p.file("domain_stats.csv").contains("\"KERNEL_DISPATCH\",6,"));
        JsonNode meta =
                new ObjectMapper().readTree(p.dir().resolve("metadata.json").toFile());
        JsonNode gpu = meta.findValue("gpu");
        assertNotNull(gpu, "metadata.json has the GPUs");
        assertTrue(gpu.get("devices").size() >= 1);
        assertEquals(5, gpu.get("kernel_rows").get("spin(long long, int*)").asLong());
        assertTrue(meta.toString().contains("ROCPROFSYS_CUDA_DOMAINS"));
    }

    @Test
    void streamsNvtxAndThreads() throws Exception {
        Profiled streams = profile("streams", List.of(), "streams");
        assertEquals(0, streams.result().exitCode(), streams.result().toString());
        assertEquals(Map.of("scale(float*, int, float)", 12L), streams.count("cuda_kernel_dispatch"));
        assertEquals(4, streams.streamTracks());
        assertEquals(24, streams.of("cuda_memory_copy").size());
        flowsJoinLaunches(streams);

        Profiled nvtx = profile("nvtx", List.of(), "nvtx");
        assertEquals(
                Map.of("outer", 1L, "middle", 2L, "inner", 2L, "begin-work", 1L, "domain-range", 1L, "async-range", 1L),
                nvtx.count("cuda_nvtx"));
        assertEquals(Map.of("tick(int*)", 3L), nvtx.count("cuda_kernel_dispatch"));

        Profiled threads = profile("two-threads", List.of(), "two-threads");
        assertEquals(Map.of("work_a(float*)", 50L, "work_b(float*)", 50L), threads.count("cuda_kernel_dispatch"));
        assertEquals(2, threads.streamTracks());
        assertEquals(
                2,
                threads.of("cuda_runtime_api").stream()
                        .filter(s -> s.name.equals("cudaLaunchKernel"))
                        .map(s -> s.trackUuid)
                        .distinct()
                        .count(),
                "launches on two thread tracks");
        flowsJoinLaunches(threads);
    }

    @Test
    void crashKeepsTheKernelsThatCompleted() throws Exception {
        Profiled p = profile("crash", List.of(), "crash-after-kernels");
        assertEquals(128 + 11, p.result().exitCode(), p.result().toString());
        assertEquals(20, p.of("cuda_kernel_dispatch").size());
        assertTrue(p.file("kernel_stats.csv").contains(",20,"), p.file("kernel_stats.csv"));
    }

    @Test
    void managedMemoryVolumesInTheUnifiedMemoryReport() throws Exception {
        Path out = work.resolve("out");
        withUnifiedMemory(out, "managed", "managed-memory");
        var report = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.resolve("managed").resolve("unified_memory.json").toFile());
        var migrations = report.get("devices").get(0).get("migrations");
        long htod = migrations.get("host_to_device").get("total_size_bytes").asLong();
        long dtoh = migrations.get("device_to_host").get("total_size_bytes").asLong();
        // examples/cuda/managed-memory: 256 MiB read back on the CPU, 64 MiB prefetched
        assertTrue(Math.abs(htod - (64L << 20)) <= (64L << 20) / 20, "host to device " + htod);
        assertTrue(Math.abs(dtoh - (256L << 20)) <= (256L << 20) / 20, "device to host " + dtoh);
        assertTrue(report.get("summary").get("total_page_faults").asLong() > 0);
        assertTrue(
                report.get("summary").get("migration_triggers").get("prefetch").asLong() > 0);
        // a program without managed memory gets no report and no error
        withUnifiedMemory(out, "vector-add-um", "vector-add");
        assertFalse(Files.exists(out.resolve("vector-add-um").resolve("unified_memory.json")));
    }

    /** Runs {@code example} to a successful end with unified-memory profiling, its outputs in {@code out}/{@code name}. */
    private void withUnifiedMemory(Path out, String name, String example) throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run",
                work,
                testEnvironment(out, name, "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING", "ON"),
                "--",
                examples.resolve(example).toString());
        assertEquals(0, r.exitCode(), r.toString());
    }

    @Test
    void excludedCudaIsNotTraced() throws Exception {
        Profiled p = profile("no-cuda", List.of("-E", "cuda"), "vector-add");
        assertEquals(0, p.result().exitCode(), p.result().toString());
        assertTrue(p.trace().slices.stream().noneMatch(s -> s.category != null && s.category.startsWith("cuda_")));
        assertFalse(Files.exists(p.dir().resolve("kernel_stats.csv")));
    }

    @Test
    void aProgramWithoutCudaLoadsNoCupti() throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run", work, testEnvironment(work.resolve("out"), "maps"), "--", "cat", "/proc/self/maps");
        assertEquals(0, r.exitCode(), r.toString());
        assertTrue(r.stdout().contains("librocprof-sys.so"), "the agent is there");
        assertFalse(r.stdout().contains("cupti") || r.stdout().contains("librocprof-sys-cuda"), r.stdout());
    }
}
