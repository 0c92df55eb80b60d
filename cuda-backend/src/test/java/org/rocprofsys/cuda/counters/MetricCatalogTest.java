package org.rocprofsys.cuda.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.rocprofsys.config.avail.HardwareCounter;
import org.rocprofsys.cuda.source.CudaEvents;

/**
 * The metric catalog: the H100's as the library listed it on the device (fixture
 * cupti-metrics-h100.tsv.gz), and the library's own listing on this machine for a chip named
 * (CUPTI's host API needs no GPU for that).
 */
class MetricCatalogTest {
    static MetricCatalog h100() throws IOException {
        try (InputStream in = new GZIPInputStream(MetricCatalogTest.class.getResourceAsStream(
                "/org/rocprofsys/cuda/fixtures/cupti-metrics-h100.tsv.gz"))) {
            return MetricCatalog.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .toList());
        }
    }

    @Test
    void theH100sCatalogKnowsMetricsWithTheirRollups() throws Exception {
        MetricCatalog c = h100();
        assertEquals(3650, c.metrics().size());
        assertEquals(List.of("GH100"), c.chips());
        assertEquals(List.of(), c.errors());
        for (String m : List.of(
                "smsp__inst_executed.sum",
                "dram__bytes_read.sum",
                "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
                "sm__cycles_elapsed.avg",
                "gpu__time_duration.sum",
                "smsp__inst_executed")) {
            assertTrue(c.knows("GH100", m), m);
        }
        assertFalse(c.knows("GH100", "bogus__metric.sum"));
        assertFalse(c.knows("GH100", "smsp__inst_executed_x.sum"));
        assertFalse(c.knows("GA100", "smsp__inst_executed.sum"));
        CudaMetric inst = c.metrics().stream()
                .filter(m -> m.name().equals("smsp__inst_executed"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                new CudaMetric(
                        0, "GH100", "smsp__inst_executed", "counter", "instruction", "# of warp instructions executed"),
                inst);
    }

    @Test
    void availRowsNameTheDeviceAndChip() throws Exception {
        List<HardwareCounter> rows = CudaMetricCatalog.rows(h100());
        assertEquals(3650, rows.size());
        HardwareCounter dram = rows.stream()
                .filter(r -> r.name().equals("dram__bytes_read"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                new HardwareCounter(
                        "dram__bytes_read", "GPU 0 (GH100)", true, "# of bytes read from DRAM [counter, byte]", "CUDA"),
                dram);
    }

    @Test
    void unknownMetricsAreNamedWithHowToListTheValidOnes() throws Exception {
        MetricCatalog c = h100();
        assertEquals(
                Optional.empty(), CudaEvents.unknown(List.of("smsp__inst_executed.sum", "dram__bytes_read.sum"), c));
        String message = CudaEvents.unknown(List.of("smsp__inst_executed.sum", "bogus__metric.sum"), c)
                .orElseThrow();
        assertTrue(
                message.startsWith("unknown ROCPROFSYS_CUDA_EVENTS metric: bogus__metric.sum (not a metric of GH100)"),
                message);
        assertTrue(message.contains("rocprof-sys-avail -H lists the valid ones"), message);
        // no GPU listed (no device, no CUPTI): the injection library decides
        assertEquals(
                Optional.empty(),
                CudaEvents.unknown(
                        List.of("bogus__metric.sum"),
                        new MetricCatalog(List.of(), List.of("no CUDA driver or device"))));
    }

    @Test
    void theLibraryListsANamedChipsMetricsWithoutAGpu() throws Exception {
        Path library = Path.of("target/native/librocprof-sys-cuda.so").toAbsolutePath();
        assumeTrue(Files.isRegularFile(library), "the CUDA backend was not built (no CUPTI headers)");
        MetricCatalog listed = MetricCatalog.read(library, Optional.of("GH100"));
        assumeTrue(!listed.metrics().isEmpty(), "no CUPTI with a profiler host API here: " + listed.errors());
        assertEquals(
                h100().metrics().stream().map(CudaMetric::name).sorted().toList(),
                listed.metrics().stream().map(CudaMetric::name).sorted().toList());
        assertTrue(listed.metrics().stream()
                .allMatch(m -> m.device() == -1 && m.chip().equals("GH100")));
        Path notElf = Files.writeString(Files.createTempDirectory("catalog").resolve("librocprof-sys-cuda.so"), "");
        assertEquals(
                List.of(notElf + " is not a shared library"),
                MetricCatalog.read(notElf, Optional.empty()).errors());
        MetricCatalog unknownChip = MetricCatalog.read(library, Optional.of("XY999"));
        assertEquals(List.of(), unknownChip.metrics());
        assertEquals(1, unknownChip.errors().size(), unknownChip.errors().toString());
        assertTrue(
                unknownChip.errors().getFirst().contains("refused the chip"),
                unknownChip.errors().toString());
    }
}
