package org.rocprofsys.cuda.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.tracetest.RocpdCounts;
import org.rocprofsys.tracetest.SqliteCli;

/**
 * The recorded H100 runs into rocpd beside the Perfetto trace: the kernels, memory_copies,
 * memory_allocations, top_kernels and busy views give exactly the trace's counts and GPU time.
 */
class CudaRocpdTest {
    @TempDir
    Path dir;

    /**
     * The run's rocpd database after checking that it counts what the trace shows (with some
     * {@code kind} counted) and is consistent.
     */
    private static Path consistentDatabase(FixtureRun run, String kind) throws Exception {
        Path db = run.rocpdFile();
        Map<String, Long> compared = RocpdCounts.assertSameCounts(run.trace(), db);
        assertTrue(compared.get(kind) > 0, compared.toString());
        SqliteCli.assertConsistent(db);
        return db;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "vector-add",
                "streams",
                "nvtx",
                "templated",
                "two-threads",
                "launch-loop",
                "cupti-subscriber",
                "crash-after-kernels",
                "killed-after-kernels",
                "killed-early",
                "no-cupti",
                "managed-memory"
            })
    void theViewsCountWhatTheTraceShows(String fixture) throws Exception {
        consistentDatabase(FixtureRun.of(fixture, dir, true), "regions");
    }

    /**
     * The counter fixtures: every kernel's metric values are pmc_events rows on its dispatch, one
     * rocpd_info_pmc row per metric of the H100, and the SQL sums are the trace's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"counters", "counters-batch2", "counters-kernels-only", "vector-add-counters"})
    void kernelCountersArePmcEventsOfTheirDispatches(String fixture) throws Exception {
        FixtureRun run = FixtureRun.of(fixture, dir, true);
        Path db = consistentDatabase(run, "gpu_counters");
        // one description per metric and agent, of the GPU, measured by CUPTI
        assertEquals(
                RocpdCounts.number(db, "SELECT COUNT(DISTINCT counter_name) FROM pmc_events"),
                RocpdCounts.number(
                        db,
                        "SELECT COUNT(*) FROM pmc_info pi JOIN rocpd_info_pmc p ON p.id = pi.id"
                                + " WHERE p.target_arch = 'GPU' AND p.component = 'cupti'"));
        // each kernel's values: the trace's counter track values at the kernels' begins, summed
        Map<String, List<Double>> tracks = run.trace().counters();
        Map<String, Long> sums = RocpdCounts.query(
                db, "SELECT counter_name, CAST(ROUND(SUM(counter_value)) AS INTEGER) FROM pmc_events GROUP BY 1");
        for (Map.Entry<String, Long> e : sums.entrySet()) {
            List<Double> values = tracks.get("GPU " + e.getKey() + " [0]");
            assertTrue(values != null, e.getKey() + " not in " + tracks.keySet());
            double traced = values.stream().mapToDouble(Double::doubleValue).sum();
            assertEquals(Math.round(traced), e.getValue().longValue(), e.getKey());
        }
        // no value lost its kernel
        assertEquals(
                0,
                RocpdCounts.number(
                        db,
                        "SELECT COUNT(*) FROM rocpd_pmc_event WHERE event_id NOT IN"
                                + " (SELECT event_id FROM rocpd_kernel_dispatch) AND pmc_id IN"
                                + " (SELECT id FROM rocpd_info_pmc WHERE target_arch = 'GPU')"));
    }

    @Test
    void vectorAddInSql() throws Exception {
        FixtureRun run = FixtureRun.of("vector-add", dir, true);
        Path db = run.rocpdFile();
        assertEquals(
                Map.of("spin(long long, int*)", 5L, "vector_add(float const*, float const*, float*, int)", 1L),
                RocpdCounts.query(db, "SELECT name, total_calls FROM top_kernels WHERE name <> 'MEMORY_SET'"));
        assertEquals(
                Map.of("MEMORY_COPY_DEVICE_TO_HOST", 1L, "MEMORY_COPY_HOST_TO_DEVICE", 2L),
                RocpdCounts.query(db, "SELECT name, COUNT(*) FROM memory_copies GROUP BY name"));
        assertEquals(
                Map.of("MEMORY_COPY_DEVICE_TO_HOST", 4L << 20, "MEMORY_COPY_HOST_TO_DEVICE", 8L << 20),
                RocpdCounts.query(db, "SELECT name, SUM(size) FROM memory_copies GROUP BY name"));
        // every kernel was launched by cudaLaunchKernel on the main thread, on the H100
        assertEquals(
                Map.of("cudaLaunchKernel", 6L),
                RocpdCounts.query(
                        db,
                        "SELECT region, COUNT(*) FROM kernels WHERE category = 'cuda_kernel_dispatch'"
                                + " GROUP BY region"));
        assertEquals(
                Map.of(String.valueOf(run.pid()), 6L),
                RocpdCounts.query(
                        db, "SELECT tid, COUNT(*) FROM kernels WHERE category = 'cuda_kernel_dispatch' GROUP BY tid"));
        assertEquals(
                Map.of("NVIDIA H100 80GB HBM3", 1L),
                RocpdCounts.query(db, "SELECT name, COUNT(*) FROM rocpd_info_agent WHERE type = 'GPU' GROUP BY name"));
        assertEquals(
                Map.of("ALLOC", 3L, "FREE", 3L),
                RocpdCounts.query(db, "SELECT type, COUNT(*) FROM memory_allocations GROUP BY type"));
        long busy = RocpdCounts.number(db, "SELECT CAST(Busy * 1000000 AS INTEGER) FROM busy");
        assertTrue(busy > 0 && busy <= 1_000_000, "busy fraction " + busy);
    }

    /**
     * managed-memory (see UnifiedMemoryFixtureTest): the 256 MiB read back on the CPU and the
     * 64 MiB prefetch are memory copies of category rocm_page_migration, from and to the H100.
     */
    @Test
    void managedMemoryMigrationsInSql() throws Exception {
        FixtureRun run = FixtureRun.of("managed-memory", dir, true);
        Path db = run.rocpdFile();
        Map<String, Long> bytes = RocpdCounts.query(
                db,
                "SELECT name || '|' || src_agent_type || '>' || dst_agent_type, SUM(size) FROM memory_copies"
                        + " WHERE category = 'rocm_page_migration' GROUP BY 1");
        assertEquals(java.util.Set.of("Device To Host|GPU>CPU", "Host To Device|CPU>GPU"), bytes.keySet());
        long mib = 1 << 20;
        long d2h = bytes.get("Device To Host|GPU>CPU");
        long h2d = bytes.get("Host To Device|CPU>GPU");
        assertTrue(Math.abs(d2h - 256 * mib) <= 256 * mib / 20, "device to host " + d2h);
        assertTrue(Math.abs(h2d - 64 * mib) <= 64 * mib / 20, "host to device " + h2d);
        assertTrue(
                RocpdCounts.number(
                                db,
                                "SELECT COUNT(*) FROM rocpd_memory_copy m JOIN rocpd_event e ON e.id = m.event_id"
                                        + " WHERE json_extract(e.extdata, '$.trigger') = 'prefetch'")
                        > 0,
                "a prefetch");
        assertTrue(
                RocpdCounts.number(
                                db,
                                "SELECT MAX(pe.value) FROM rocpd_pmc_event pe JOIN rocpd_info_pmc pi ON pi.id = pe.pmc_id"
                                        + " WHERE pi.name = 'Unified Memory Page Faults [Device 0]'")
                        > 0,
                "GPU page faults");
    }
}
