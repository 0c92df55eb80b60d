package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RocpdCounts;
import org.rocprofsys.tracetest.SqliteCli;

/**
 * The replay SDK's dispatch counters (ROCPROFSYS_ROCM_EVENTS) in the rocpd database: each kernel's
 * value of each metric is a rocpd_pmc_event on its dispatch's event, described once per metric by
 * rocpd_info_pmc (GPU, rocprofiler-sdk), so pmc_events and counters_collection list what the
 * trace's counter tracks show.
 */
class RocmRocpdCountersTest {
    @TempDir
    Path dir;

    private static final List<String> METRICS = List.of("GRBM_COUNT", "SQ_WAVES", "SQ_INSTS_VALU", "TA_TA_BUSY");

    @Test
    void transposeCountersArePmcEventsOfTheirDispatches() throws Exception {
        ReplayRun run = transposeIntoRocpd("ROCPROFSYS_ROCM_EVENTS", String.join(",", METRICS) + ":device=0");
        Path db = run.rocpdFile();
        DecodedTrace t = run.trace();
        // the trace's points per GPU counter track are the rows' (value at begin, 0 at end)
        Map<String, Long> traced = new TreeMap<>();
        t.counters().forEach((name, values) -> {
            if (name != null && name.startsWith("GPU ") && METRICS.stream().anyMatch(name::contains)) {
                traced.put(name, (long) values.size());
            }
        });
        assertEquals(4, traced.size(), traced.toString());
        // every count of the trace (HIP API regions, kernels and copies on the stream tracks) is the views'
        RocpdCounts.assertSameCounts(t, db);
        assertEquals(
                Map.of("rocm_hip_stream", 24L),
                RocpdCounts.query(db, "SELECT category, COUNT(*) FROM kernels GROUP BY 1"));
        var regionCategories = RocpdCounts.query(db, "SELECT category, COUNT(*) FROM regions GROUP BY 1")
                .keySet();
        assertTrue(
                regionCategories.contains("rocm_hip_api")
                        && regionCategories.stream().noneMatch(c -> c.startsWith("cuda_")),
                "ROCm API calls are rocm_hip_api regions, never cuda_*: " + regionCategories);
        assertEquals(traced, RocpdCounts.gpuCounterPoints(db));
        // 24 dispatches (20 transposes, 4 fills) x 4 metrics
        assertEquals(96, RocpdCounts.number(db, "SELECT COUNT(*) FROM pmc_events"));
        assertEquals(96, RocpdCounts.number(db, "SELECT COUNT(*) FROM counters_collection"));
        assertEquals(
                Map.of("GRBM_COUNT", 24L, "SQ_INSTS_VALU", 24L, "SQ_WAVES", 24L, "TA_TA_BUSY", 24L),
                RocpdCounts.query(db, "SELECT counter_name, COUNT(*) FROM pmc_events GROUP BY 1"));
        // the replay SDK's values follow from each dispatch: 20 x 256 + 4 x 1024 waves
        assertEquals(
                20 * 256 + 4 * 1024,
                RocpdCounts.number(
                        db, "SELECT SUM(value) FROM counters_collection" + " WHERE counter_name = 'SQ_WAVES'"));
        assertEquals(
                Map.of("transpose_a(int*, int*, int, int) [clone .kd]", 20L * 256),
                RocpdCounts.query(
                        db,
                        "SELECT kernel_name, SUM(value) FROM counters_collection WHERE counter_name = 'SQ_WAVES'"
                                + " AND kernel_name LIKE 'transpose_a%' GROUP BY 1"));
        for (String m : METRICS) {
            double sum = t.counters().get("GPU " + m + " [0]").stream()
                    .mapToDouble(Double::doubleValue)
                    .sum();
            assertEquals(
                    Math.round(sum),
                    RocpdCounts.number(
                            db,
                            "SELECT CAST(ROUND(SUM(counter_value)) AS INTEGER) FROM pmc_events"
                                    + " WHERE counter_name = '" + m + "'"),
                    m);
        }
        // one description per metric of device 0, in the SDK's terms
        assertEquals(
                Map.of("GPU|GPU|rocprofiler-sdk|0", 4L),
                RocpdCounts.query(
                        db,
                        "SELECT p.target_arch || '|' || a.type || '|' || p.component || '|' || a.type_index, COUNT(*)"
                                + " FROM pmc_info pi JOIN rocpd_info_pmc p ON p.id = pi.id"
                                + " JOIN rocpd_info_agent a ON a.id = p.agent_id GROUP BY 1"));
        assertTrue(RocpdCounts.number(db, "SELECT COUNT(*) FROM kernels") >= 24);
        SqliteCli.assertConsistent(db);
    }

    @Test
    void queueGroupedKernelsAndCopiesKeepTheTraceCategories() throws Exception {
        ReplayRun run = transposeIntoRocpd("ROCPROFSYS_ROCM_GROUP_BY_QUEUE", "true");
        Path db = run.rocpdFile();
        Map<String, Long> counts = RocpdCounts.assertSameCounts(run.trace(), db);
        assertTrue(counts.get("kernels") >= 24 && counts.get("memory_copies") > 0, counts.toString());
        assertEquals(
                java.util.Set.of("rocm_kernel_dispatch"),
                RocpdCounts.query(db, "SELECT category, COUNT(*) FROM kernels GROUP BY 1")
                        .keySet());
        assertEquals(
                java.util.Set.of("rocm_memory_copy"),
                RocpdCounts.query(db, "SELECT category, COUNT(*) FROM memory_copies GROUP BY 1")
                        .keySet());
        SqliteCli.assertConsistent(db);
    }

    /** The replayed transpose (10 iterations) with HIP API, dispatches and copies into rocpd, plus one setting. */
    private ReplayRun transposeIntoRocpd(String setting, String value) throws Exception {
        ReplayRun run = ReplayRun.of(
                "transpose",
                Map.of(
                        "ROCPROFSYS_ROCM_DOMAINS",
                        "hip_api,kernel_dispatch,memory_copy",
                        setting,
                        value,
                        "ROCPROFSYS_USE_ROCPD",
                        "true"),
                dir,
                "10");
        assertEquals(0, run.target().exitCode(), run.target().all());
        return run;
    }
}
