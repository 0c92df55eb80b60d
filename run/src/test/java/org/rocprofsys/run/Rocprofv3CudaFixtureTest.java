package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.cuda.source.CudaTracing;
import org.rocprofsys.rocprofv3.Rocprofv3Format;
import org.rocprofsys.rocprofv3.cli.Rocprofv3Options;
import org.rocprofsys.tracetest.CollectedRun;
import org.rocprofsys.tracetest.CsvRows;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * rocprofv3's options on NVIDIA, through the CUPTI ring files recorded on an H100
 * (cuda-backend's fixtures) run by the collector's real path: the CUDA runtime and driver calls
 * land in cuda_api_trace.csv under CUDA_RUNTIME_API and CUDA_DRIVER_API, the kernels in
 * kernel_trace.csv with grid (in threads), block and registers, the copies and NVTX ranges in their
 * files, each as many rows as the trace has slices.
 */
class Rocprofv3CudaFixtureTest {
    private static final Path FIXTURES = Path.of(System.getProperty("rocprofsys.repo", ".."))
            .resolve("cuda-backend/src/test/resources/org/rocprofsys/cuda/fixtures");

    @TempDir
    Path dir;

    private record Run(Path out, DecodedTrace trace, int pid) {}

    private Run run(String fixture, String options) throws Exception {
        var inv = Rocprofv3Options.parse(List.of((options + " -- ./app").split(" ")), "host", Map.of());
        Map<String, String> env = new HashMap<>(inv.settings());
        env.put("HOME", dir.toString());
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (CollectedRun.Session session = CollectedRun.Session.create(dir)) {
            int pid = session.placeRing(Files.newInputStream(FIXTURES.resolve(fixture + ".ring.gz")));
            CollectedRun run = session.collect(
                    settings,
                    dir,
                    pid,
                    "./app",
                    fixture,
                    log,
                    CollectedRun.gpuFormats(CudaTracing.PLUGIN.gpuVendors().getFirst(), new Rocprofv3Format()),
                    List.of(CudaTracing::records),
                    org.rocprofsys.rocprofv3.Rocprofv3Plugin.INSTANCE
                            .sources(null)
                            .getFirst()
                            .sources(settings, env, log),
                    ProcessEnd.EXITED,
                    0);
            return new Run(run.paths().directory(), run.trace(), pid);
        }
    }

    private static long slices(DecodedTrace t, String... categories) {
        List<String> wanted = List.of(categories);
        return t.slices.stream().filter(s -> wanted.contains(s.category)).count();
    }

    @Test
    void vectorAddKernelsCopiesAndApiCalls() throws Exception {
        Run r = run("vector-add", "--sys-trace --stats --output-format csv json pftrace rocpd");
        Path out = r.out();
        List<List<String>> kernels = CsvRows.of(out.resolve(r.pid() + "_kernel_trace.csv"));
        assertEquals(6, kernels.size()); // vector_add once, spin 5 times
        assertEquals(slices(r.trace(), "cuda_kernel_dispatch"), kernels.size());
        List<String> add = kernels.stream()
                .filter(k -> k.get(7).startsWith("vector_add"))
                .findFirst()
                .orElseThrow();
        // Workgroup_Size_X.. then Grid_Size_X..: the grid in threads, as rocprofv3's
        assertEquals(List.of("256", "1", "1", "1048576", "1", "1"), add.subList(16, 22));
        assertTrue(Long.parseLong(add.get(13)) > 0, "registers per thread in VGPR_Count: " + add);
        List<List<String>> api = CsvRows.of(out.resolve(r.pid() + "_cuda_api_trace.csv"));
        assertEquals(slices(r.trace(), "cuda_runtime_api", "cuda_driver_api"), api.size());
        assertEquals(
                6, api.stream().filter(a -> a.get(1).equals("cudaLaunchKernel")).count());
        assertTrue(api.stream()
                .allMatch(a -> a.get(0).equals("CUDA_RUNTIME_API") || a.get(0).equals("CUDA_DRIVER_API")));
        List<List<String>> copies = CsvRows.of(out.resolve(r.pid() + "_memory_copy_trace.csv"));
        assertEquals(3, copies.size());
        assertEquals(slices(r.trace(), "cuda_memory_copy"), copies.size());
        assertEquals(
                6,
                CsvRows.of(out.resolve(r.pid() + "_kernel_stats.csv")).stream()
                        .mapToLong(s -> Long.parseLong(s.get(1)))
                        .sum());
        assertTrue(Files.isRegularFile(out.resolve(r.pid() + "_results.json")));
        // cudaMalloc x3, cudaFree x3: as many rows as rocpd's allocations
        List<List<String>> allocations = CsvRows.of(out.resolve(r.pid() + "_memory_allocation_trace.csv"));
        assertEquals(6, allocations.size(), allocations.toString());
        assertEquals(
                org.rocprofsys.tracetest.RocpdCounts.number(
                        out.resolve("rocpd-" + r.pid() + ".db"), "SELECT count(*) FROM memory_allocations"),
                allocations.size());
        assertTrue(Files.readString(out.resolve(r.pid() + "_agent_info.csv")).contains("\"NVIDIA\""));
    }

    /** --kernel-include-regex on NVIDIA: only the spin kernels, in the CSV, the trace and rocpd. */
    @Test
    void kernelIncludeRegexOnCuda() throws Exception {
        Run r = run("vector-add", "--kernel-trace --kernel-include-regex ^spin --output-format csv pftrace rocpd");
        List<List<String>> kernels = CsvRows.of(r.out().resolve(r.pid() + "_kernel_trace.csv"));
        assertEquals(5, kernels.size());
        assertTrue(kernels.stream().allMatch(k -> k.get(7).startsWith("spin(")), kernels.toString());
        assertEquals(5, slices(r.trace(), "cuda_kernel_dispatch"));
        assertEquals(
                5,
                org.rocprofsys.tracetest.RocpdCounts.number(
                        r.out().resolve("rocpd-" + r.pid() + ".db"),
                        "SELECT count(*) FROM kernels WHERE category = 'cuda_kernel_dispatch'"));
    }

    @Test
    void nvtxRangesInTheMarkerFile() throws Exception {
        Run r = run("nvtx", "--marker-trace --kernel-trace --output-format csv pftrace");
        List<List<String>> markers = CsvRows.of(r.out().resolve(r.pid() + "_marker_api_trace.csv"));
        assertTrue(markers.size() > 0);
        assertEquals(slices(r.trace(), "cuda_nvtx"), markers.size());
    }
}
