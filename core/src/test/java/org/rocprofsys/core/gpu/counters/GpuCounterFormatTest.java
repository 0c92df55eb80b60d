package org.rocprofsys.core.gpu.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.config.output.OutputSettings;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.gpu.GpuCounterSample;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.WrittenFile;

/** The per-device, per-metric counter files and the counter stats, from counter samples. */
class GpuCounterFormatTest {
    @TempDir
    Path dir;

    @Test
    void oneFilePerDeviceAndMetricWithARowPerKernel() throws Exception {
        OutputWriter w = new GpuCounterFormat(List.of(
                        org.rocprofsys.core.gpu.CudaLikeGpu.VENDOR, org.rocprofsys.core.gpu.CudaLikeGpu.ROCM_SWITCH))
                .open(context(Map.of()));
        List<GpuCounterSample> samples = List.of(
                new GpuCounterSample(42, 0, 1, 1, "transpose(int*, int*)", "SQ_WAVES", 64, 100, 200),
                new GpuCounterSample(42, 0, 2, 2, "transpose(int*, int*)", "SQ_WAVES", 128, 300, 400),
                new GpuCounterSample(42, 0, 3, 3, "copy(int*)", "SQ_WAVES", 8, 500, 600),
                new GpuCounterSample(42, 0, 1, 1, "transpose(int*, int*)", "TA_TA_BUSY[11]", 7.5, 100, 200),
                new GpuCounterSample(42, 1, 4, 4, "copy(int*)", "SQ_WAVES", 16, 700, 800));
        for (GpuCounterSample s : samples) {
            w.accept(new GpuActivity(s));
        }
        w.finish(new RunSummary(1000, 0, 42, "app", Map.of()));

        List<String> names = w.report().stream()
                .map(WrittenFile::path)
                .map(p -> p.getFileName().toString())
                .toList();
        assertEquals(
                List.of(
                        "rocprof-device-0-SQ_WAVES-42.txt",
                        "rocprof-device-0-TA_TA_BUSY_11-42.txt",
                        "rocprof-device-1-SQ_WAVES-42.txt",
                        "counter_collection_stats-42.csv",
                        "counter_collection_stats-42.json"),
                names);

        String waves = Files.readString(w.report().getFirst().path());
        String transposeRow = waves.lines()
                .filter(l -> l.contains("|0>>> transpose(int*, int*)"))
                .findFirst()
                .orElseThrow();
        // count 2, depth 0, SQ_WAVES, sum 192, mean 96, min 64, max 128
        List<String> cells = List.of(transposeRow.split("\\|")).stream()
                .map(String::strip)
                .filter(c -> !c.isEmpty())
                .toList();
        assertEquals(
                List.of("0>>> transpose(int*, int*)", "2", "0", "SQ_WAVES", "192.000", "96.000", "64.000", "128.000"),
                cells.subList(0, 8));
        assertTrue(waves.contains("|0>>> copy(int*)"), waves);
        assertFalse(waves.contains("16.000"), "device 1's value is in device 1's file: " + waves);

        String csv = Files.readString(w.report().get(3).path());
        assertEquals(
                List.of(
                        CounterStatsText.HEADER.strip(),
                        "\"copy(int*)\",0,\"SQ_WAVES\",1,8,8,8,8,0",
                        "\"transpose(int*, int*)\",0,\"SQ_WAVES\",2,192,96,64,128,45.254834",
                        "\"transpose(int*, int*)\",0,\"TA_TA_BUSY[11]\",1,7.500000,7.500000,7.500000,7.500000,0",
                        "\"copy(int*)\",1,\"SQ_WAVES\",1,16,16,16,16,0"),
                csv.lines().toList());
    }

    @Test
    void noSampleNoFile() throws Exception {
        OutputWriter w = new GpuCounterFormat(List.of(
                        org.rocprofsys.core.gpu.CudaLikeGpu.VENDOR, org.rocprofsys.core.gpu.CudaLikeGpu.ROCM_SWITCH))
                .open(context(Map.of()));
        w.finish(new RunSummary(1000, 0, 42, "app", Map.of()));
        assertEquals(List.of(), w.report());
    }

    @Test
    void enabledWithAGpuBackend() throws Exception {
        assertFalse(new GpuCounterFormat(List.of(
                        org.rocprofsys.core.gpu.CudaLikeGpu.VENDOR, org.rocprofsys.core.gpu.CudaLikeGpu.ROCM_SWITCH))
                .enabled(context(Map.of("ROCPROFSYS_USE_ROCM", "OFF", "ROCPROFSYS_USE_CUDA", "OFF"))
                        .settings()));
        assertTrue(new GpuCounterFormat(List.of(
                        org.rocprofsys.core.gpu.CudaLikeGpu.VENDOR, org.rocprofsys.core.gpu.CudaLikeGpu.ROCM_SWITCH))
                .enabled(context(Map.of("ROCPROFSYS_USE_ROCM", "ON", "ROCPROFSYS_USE_CUDA", "OFF"))
                        .settings()));
    }

    @Test
    void instanceIndexBecomesASuffix() {
        assertEquals("TA_TA_BUSY_11", sample("TA_TA_BUSY[11]").metricKey());
        assertEquals("SQ_WAVES", sample("SQ_WAVES").metricKey());
        assertEquals("sm__cycles_elapsed.avg", sample("sm__cycles_elapsed.avg").metricKey());
    }

    private static GpuCounterSample sample(String metric) {
        return new GpuCounterSample(1, 0, 0, 0, "k", metric, 1, 0, 0);
    }

    private OutputContext context(Map<String, String> env) throws org.rocprofsys.config.ConfigException {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("HOME", dir.toString());
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), all, dir).load();
        LaunchContext launch = new LaunchContext(
                List.of("./app"),
                42,
                1,
                42,
                42,
                ZonedDateTime.of(2025, 8, 9, 13, 5, 0, 0, ZoneOffset.UTC),
                Map.of(),
                k -> Optional.empty(),
                Optional.empty());
        OutputSettings os = new OutputSettings("out", "", false, "%F_%H.%M", true, "perfetto-trace.proto");
        return new OutputContext(
                settings,
                new OutputPaths(os, launch, dir, OptionalInt.empty()),
                42,
                "app",
                0,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                System.out);
    }
}
