package org.rocprofsys.run.testvendor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.RunOutputs;
import org.rocprofsys.core.pipeline.Pipeline;
import org.rocprofsys.core.pipeline.TraceWindows;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.Plugins;
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.core.spi.SessionPart;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.run.TestPlugins;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.EventStream;
import org.rocprofsys.tracetest.GoldenFile;
import org.rocprofsys.tracetest.RunFiles;

/**
 * The test-only vendor through a run's path: the tests' registration list gives the outputs and
 * the sources, the vendor's record decoder turns its ring records into GPU events, the pipeline
 * normalises, and the trace (decoded to text), the rocpd rows and the stats CSV match the checked-in
 * golden files (core/src/test/resources/golden's format; {@code -Dgolden.update=true} rewrites them).
 */
class TestGpuGoldenTest {
    private static final int PID = 4242;
    private static final int TID = 4243;
    private static final long T0 = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void traceRocpdAndStatsMatchTheGoldenFiles() throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.toString());
        env.put("ROCPROFSYS_TRACE", "true");
        env.put("ROCPROFSYS_USE_ROCPD", "true");
        env.put("ROCPROFSYS_PROFILE", "false");
        env.put("ROCPROFSYS_USE_PROCESS_SAMPLING", "false");
        env.put("ROCPROFSYS_USE_SAMPLING", "false");
        env.put("ROCPROFSYS_USE_CUDA", "false");
        env.put("ROCPROFSYS_USE_ROCM", "false");
        env.put("ROCPROFSYS_USE_AMD_SMI", "false");
        env.put("ROCPROFSYS_CPU_FREQ_ENABLED", "false");
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

        Plugins plugins = new Plugins(TestPlugins.ALL, () -> dir.resolve("lib"));
        List<SessionPart> parts = SourceProvider.all(plugins.sources(), settings, Map.of(), log);
        RecordDecoder decoder = parts.stream()
                .filter(p -> p instanceof TestGpuPlugin.Source)
                .map(p -> (RecordDecoder) p)
                .findFirst()
                .orElseThrow();
        OutputPaths paths = paths(dir);
        RunOutputs outputs = RunOutputs.open(
                plugins.outputFormats(), new OutputContext(settings, paths, PID, "testapp", 0, log, log));
        Pipeline pipeline = new Pipeline(TraceWindows.from(settings), true, parts, outputs.writers());
        Consumer<TraceEvent> head = pipeline.head();

        EventStream.at(T0)
                .in(PID)
                .processStarted(0, "testapp")
                .threadStarted(0, PID, 0)
                .threadStarted(1 * MS, TID, 1)
                .begin(1 * MS, PID, "main")
                .events()
                .forEach(head);
        BackendRecords records = decoder.open(PID, head);
        try (Arena arena = Arena.ofConfined()) {
            records.accept(PID, TestGpuRecords.encode(arena, TestGpuRecords.DEVICE, 0, T0, T0, 0, 16L << 30, "Tester"));
            records.accept(
                    PID,
                    TestGpuRecords.encode(arena, TestGpuRecords.API, 0, T0 + 2 * MS, T0 + 3 * MS, 7, 1, "tgMemcpy"));
            records.accept(
                    TID,
                    TestGpuRecords.encode(
                            arena, TestGpuRecords.API, 0, T0 + 3 * MS, T0 + 4 * MS, 8, 1, "tgLaunchKernel"));
            records.accept(
                    PID,
                    TestGpuRecords.encode(
                            arena, TestGpuRecords.API, 0, T0 + 4 * MS, T0 + 5 * MS, 9, -1, "tgDeviceGetName"));
            // device work arrives after its calls, out of time order
            records.accept(
                    PID,
                    TestGpuRecords.encode(
                            arena, TestGpuRecords.KERNEL, 0, T0 + 6 * MS, T0 + 9 * MS, 8, (256L << 32) | 1, "scale"));
            records.accept(
                    PID, TestGpuRecords.encode(arena, TestGpuRecords.COPY, 0, T0 + 2 * MS, T0 + 5 * MS, 7, 4096, "in"));
            records.accept(
                    PID,
                    TestGpuRecords.encode(
                            arena, TestGpuRecords.KERNEL, 1, T0 + 7 * MS, T0 + 8 * MS, 0, (32L << 32) | 2, "scale"));
            records.accept(
                    PID,
                    TestGpuRecords.encode(arena, TestGpuRecords.COPY, 0, T0 + 9 * MS, T0 + 10 * MS, 0, 1024, "out"));
        }
        records.finish(T0 + 12 * MS);
        EventStream.at(T0)
                .in(PID)
                .end(11 * MS, PID)
                .threadEnded(11 * MS, TID)
                .threadEnded(12 * MS, PID)
                .processEnded(12 * MS, ProcessEnd.EXITED, 0)
                .events()
                .forEach(head);
        RunSummary summary = new RunSummary(T0 + 12 * MS, 0, PID, "testapp", Map.of());
        pipeline.finish(summary.endNs());
        outputs.finish(
                summary, List.of("testapp"), ZonedDateTime.of(2026, 12, 7, 0, 0, 0, 0, ZoneOffset.UTC), Map.of());

        GoldenFile.assertMatches("testvendor-trace.txt", trace(DecodedTrace.read(paths.perfettoFile())));
        for (String table : List.of("kernel_stats", "testgpu_api_stats", "memory_copy_stats", "domain_stats")) {
            GoldenFile.assertMatches(
                    "testvendor-" + table + ".csv", Files.readString(file(paths, table + "-", ".csv")));
        }
        GoldenFile.assertMatches("testvendor-rocpd.txt", rocpd(file(paths, "rocpd", ".db")));
        assertEquals("", logBytes.toString(StandardCharsets.UTF_8).replaceAll("(?m)^\\[rocprof-sys\\].*\\n", ""));
    }

    /** The trace as text: its tracks, then each slice with its track, category, times, args and flows. */
    private static String trace(DecodedTrace t) {
        StringBuilder b = new StringBuilder();
        for (DecodedTrace.Track track : t.tracks.values()) {
            var d = track.descriptor();
            b.append("track ").append(d.getName());
            if (track.isProcess()) {
                b.append("(process ").append(d.getProcess().getPid()).append(' ');
                b.append(d.getProcess().getProcessName()).append(')');
            }
            if (track.isThread()) {
                b.append("(thread ").append(d.getThread().getTid()).append(' ');
                b.append(d.getThread().getThreadName()).append(')');
            }
            b.append('\n');
        }
        for (DecodedTrace.Slice s : t.slices) {
            DecodedTrace.Track track = t.tracks.get(s.trackUuid);
            b.append("slice ")
                    .append(track == null ? "?" : track.descriptor().getName())
                    .append(" | ")
                    .append(s)
                    .append(" flows ")
                    .append(s.flowIds)
                    .append(" ends ")
                    .append(s.terminatingFlowIds)
                    .append('\n');
        }
        return b.toString();
    }

    private static String rocpd(Path db) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/sqlite3")), "sqlite3 is not installed");
        String sql = "select category, name, pid, tid, start, end, corr_id from regions order by start, name;"
                + "select category, region, name, tid, queue, stream, start, end, grid_x, workgroup_x, corr_id"
                + " from kernels order by start;"
                + "select category, name, region_name, tid, stream_name, size, src_device, dst_device, start, end,"
                + " corr_id from memory_copies order by start;";
        Process p = new ProcessBuilder("sqlite3", "-header", db.toString(), sql)
                .redirectErrorStream(true)
                .start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), text);
        return text;
    }

    private static Path file(OutputPaths paths, String prefix, String suffix) {
        return RunFiles.find(paths.directory(), prefix, suffix);
    }

    private static OutputPaths paths(Path dir) {
        return RunFiles.paths(dir, PID, "./testapp", ZonedDateTime.of(2026, 12, 7, 0, 0, 0, 0, ZoneOffset.UTC));
    }
}
