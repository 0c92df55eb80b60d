package org.rocprofsys.cuda.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * examples/cuda/managed-memory recorded on the H100 with CUPTI's unified-memory counters (fixture
 * managed-memory): a 256 MiB managed array written by a kernel, read on the CPU (256 MiB device to
 * host), its first 64 MiB prefetched back (64 MiB host to device). The report and the trace's
 * tracks come from the same events and must agree.
 */
class UnifiedMemoryFixtureTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    @Test
    void knownVolumesFaultsOnBothSidesAndAPrefetch() throws Exception {
        FixtureRun run = FixtureRun.of("managed-memory", dir);
        JsonNode report = new ObjectMapper()
                .readTree(run.outputDir()
                        .resolve("unified_memory-" + run.pid() + ".json")
                        .toFile());
        String text = Files.readString(run.outputDir().resolve("unified_memory-" + run.pid() + ".txt"));
        assertTrue(text.startsWith("==" + run.pid() + "== Unified Memory profiling result:\n"), text);
        assertTrue(text.contains("Device \"NVIDIA H100 80GB HBM3 (0)\""), text);

        JsonNode device = report.get("devices").get(0);
        JsonNode h2d = device.get("migrations").get("host_to_device");
        JsonNode d2h = device.get("migrations").get("device_to_host");
        within5Percent(64 * MIB, h2d.get("total_size_bytes").asLong(), text);
        within5Percent(256 * MIB, d2h.get("total_size_bytes").asLong(), text);
        JsonNode summary = report.get("summary");
        assertTrue(summary.get("migration_triggers").get("prefetch").asLong() > 0, text);
        long faults = summary.get("total_page_faults").asLong();

        // the trace: migration slices per direction, page-fault counters per side
        DecodedTrace trace = run.trace();
        Map<String, long[]> slices = new HashMap<>();
        for (DecodedTrace.Slice s : trace.slices) {
            if ("rocm_page_migration".equals(s.category)) {
                long[] countBytes = slices.computeIfAbsent(s.name, k -> new long[2]);
                countBytes[0]++;
                countBytes[1] += ((Number) s.args.get("bytes")).longValue();
            }
        }
        assertEquals(h2d.get("count").asLong(), slices.get("Host To Device")[0]);
        assertEquals(h2d.get("total_size_bytes").asLong(), slices.get("Host To Device")[1]);
        assertEquals(d2h.get("count").asLong(), slices.get("Device To Host")[0]);
        assertEquals(d2h.get("total_size_bytes").asLong(), slices.get("Device To Host")[1]);

        Map<String, List<Double>> counters = trace.counters();
        double gpuFaults = last(counters, "Unified Memory Page Faults [Device 0]");
        double cpuFaults = last(counters, "Unified Memory Page Faults [Host]");
        assertTrue(gpuFaults > 0 && cpuFaults > 0, counters.keySet().toString());
        assertEquals(faults, (long) (gpuFaults + cpuFaults));
        assertTrue(counters.containsKey("Unified Memory Migration Throughput [Device 0]"));
    }

    private static void within5Percent(long expected, long actual, String text) {
        assertTrue(Math.abs(actual - expected) <= expected / 20, expected + " vs " + actual + "\n" + text);
    }

    private static double last(Map<String, List<Double>> counters, String track) {
        List<Double> values = counters.get(track);
        assertTrue(values != null && !values.isEmpty(), track + " in " + counters.keySet());
        return values.getLast();
    }
}
