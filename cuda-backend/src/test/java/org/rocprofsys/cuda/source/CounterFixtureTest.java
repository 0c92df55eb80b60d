package org.rocprofsys.cuda.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * GPU counters recorded on the H100 through CUPTI's range profiler (fixtures {@code counters*},
 * examples/cuda/counters): three launches of a kernel whose FFMA count (threads x iterations) and
 * DRAM bytes read (16 per thread) are known, decoded through the collector into the counter tracks,
 * the per-metric data_tracker files and counter_collection_stats. The program printed the expected
 * values; the FFMA counts must match exactly and the bytes read within 1 %.
 */
class CounterFixtureTest {
    static final String FFMA = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
    static final String DRAM = "dram__bytes_read.sum";
    static final String KERNEL = "counted(float4 const*, float*, int)";
    private static final Pattern EXPECTED = Pattern.compile(
            "counters launch=(\\d+) iters=(\\d+) threads=(\\d+) ffma=(\\d+) global_loads=(\\d+) bytes_read=(\\d+)");

    @TempDir
    Path dir;

    /** One launch's expected values, as the program printed them. */
    record Expected(long ffma, long bytesRead) {}

    static List<Expected> expected(String fixture) throws IOException {
        List<Expected> out = new ArrayList<>();
        try (InputStream in =
                CounterFixtureTest.class.getResourceAsStream("/org/rocprofsys/cuda/fixtures/" + fixture + ".stdout")) {
            Matcher m = EXPECTED.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            while (m.find()) {
                out.add(new Expected(Long.parseLong(m.group(4)), Long.parseLong(m.group(6))));
            }
        }
        return out;
    }

    @Test
    void knownKernelCountersMatchTheExpectedValues() throws Exception {
        for (String fixture : List.of("counters", "counters-batch2", "counters-kernels-only")) {
            FixtureRun run = FixtureRun.of(fixture, dir.resolve(fixture));
            List<Expected> expected = expected(fixture);
            assertEquals(3, expected.size(), fixture);
            Map<String, List<Double>> counters = run.trace().counters();
            // a kernel's value at its begin (and 0 at its end when it has a duration)
            List<Double> ffma = kernelValues(counters.get("GPU " + FFMA + " [0]"));
            List<Double> dram = kernelValues(counters.get("GPU " + DRAM + " [0]"));
            assertEquals(3, ffma.size(), fixture + " " + counters.keySet());
            assertEquals(3, dram.size(), fixture);
            for (int i = 0; i < 3; i++) {
                assertEquals((double) expected.get(i).ffma(), ffma.get(i), 0.0, fixture + " launch " + i);
                double bytes = expected.get(i).bytesRead();
                assertEquals(bytes, dram.get(i), bytes / 100, fixture + " launch " + i);
            }
            assertTrue(
                    counters.containsKey("GPU smsp__inst_executed.sum [0]"),
                    counters.keySet().toString());
            // CUPTI gave these kernels no times (range profiler on): each is placed at its launch,
            // after its launch call began
            List<DecodedTrace.Slice> kernels = run.trace().slices.stream()
                    .filter(sl -> sl.name.equals(KERNEL))
                    .toList();
            assertEquals(3, kernels.size(), fixture);
            long launchBegin = run.trace().slices.stream()
                    .filter(sl -> sl.name.equals("cudaLaunchKernel"))
                    .mapToLong(sl -> sl.beginNs)
                    .min()
                    .orElse(0);
            for (DecodedTrace.Slice k : kernels) {
                assertTrue(k.beginNs > 0 && k.beginNs >= launchBegin, fixture + " kernel at " + k.beginNs);
            }
            assertTrue(counters.containsKey("GPU smsp__sass_inst_executed_op_global_ld.sum [0]"));

            String table = file(run, "rocprof-device-0-" + FFMA);
            assertTrue(table.contains(KERNEL), table);
            String stats = file(run, "counter_collection_stats", ".csv");
            long sum = expected.stream().mapToLong(Expected::ffma).sum();
            assertTrue(stats.contains("\"" + KERNEL + "\",0,\"" + FFMA + "\",3," + sum), stats);
        }
    }

    @Test
    void withGpuTimeDurationKernelsGetCuptisDuration() throws Exception {
        FixtureRun run = FixtureRun.of("counters-duration", dir);
        List<Double> durations = kernelValues(run.trace().counters().get("GPU gpu__time_duration.sum [0]"));
        assertEquals(3, durations.size());
        List<DecodedTrace.Slice> kernels =
                run.trace().slices.stream().filter(sl -> sl.name.equals(KERNEL)).toList();
        assertEquals(3, kernels.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(durations.get(i), (double) (kernels.get(i).endNs - kernels.get(i).beginNs), 0.0);
        }
        long total = durations.stream().mapToLong(Double::longValue).sum();
        String stats = run.statsFile("kernel_stats", "csv");
        assertTrue(stats.contains("\"" + KERNEL + "\",3," + total + ","), stats);
        List<Expected> expected = expected("counters-duration");
        List<Double> ffma = kernelValues(run.trace().counters().get("GPU " + FFMA + " [0]"));
        for (int i = 0; i < 3; i++) {
            assertEquals((double) expected.get(i).ffma(), ffma.get(i), 0.0);
        }
    }

    @Test
    void everyKernelOfAProgramWithSeveralKernelsGetsItsCounters() throws Exception {
        FixtureRun run = FixtureRun.of("vector-add-counters", dir);
        String stats = file(run, "counter_collection_stats", ".csv");
        assertTrue(stats.contains("\"spin(long long, int*)\",0,\"smsp__inst_executed.sum\",5,"), stats);
        assertTrue(stats.contains(",\"sm__cycles_elapsed.avg\",5,"), stats);
        assertTrue(
                stats.lines().anyMatch(l -> l.startsWith("\"vector_add(") && l.contains("dram__bytes_read.sum\",1,")),
                stats);
        assertFalse(stats.contains("<unknown kernel>"), stats);
    }

    @Test
    void anUnknownMetricIsNamedAndNothingIsCollected() throws Exception {
        FixtureRun run = FixtureRun.of("counters-unknown", dir);
        assertTrue(
                run.trace().counters().keySet().stream().noneMatch(k -> k.contains("__")),
                run.trace().counters().keySet().toString());
        try (InputStream in =
                CounterFixtureTest.class.getResourceAsStream("/org/rocprofsys/cuda/fixtures/counters-unknown.stderr")) {
            String stderr = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(stderr.contains("ROCPROFSYS_CUDA_EVENTS: 'bogus__metric.sum' is not a metric of GH100"), stderr);
            assertTrue(stderr.contains("rocprof-sys-avail -H lists the metrics"), stderr);
        }
    }

    private static List<Double> kernelValues(List<Double> values) {
        assertTrue(values != null, "no track");
        return values.stream().filter(v -> v != 0.0).toList();
    }

    private static String file(FixtureRun run, String prefix) throws IOException {
        return file(run, prefix, ".txt");
    }

    private static String file(FixtureRun run, String prefix, String extension) throws IOException {
        try (Stream<Path> files = Files.list(run.outputDir())) {
            Path p = files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && f.getFileName().toString().endsWith(extension))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + prefix + "*" + extension + " in " + run.outputDir()));
            return Files.readString(p);
        }
    }
}
