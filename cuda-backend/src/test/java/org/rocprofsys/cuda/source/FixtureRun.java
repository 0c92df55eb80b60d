package org.rocprofsys.cuda.source;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.pipeline.Collector;
import org.rocprofsys.core.pipeline.Pipeline;
import org.rocprofsys.tracetest.CollectedRun;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RunFiles;
import org.rocprofsys.unifiedmemory.report.UnifiedMemoryFormat;

/**
 * A ring file recorded on the GPU device (cuda-backend's fixtures) run through the collector's real
 * path: the {@link Collector} drains it with {@link CudaTracing}'s record decoder, the
 * {@link Pipeline} normalises, and the run's Perfetto and GPU stats outputs write their files, as a
 * profiled run of the program would have.
 */
record FixtureRun(int pid, DecodedTrace trace, Path outputDir, JsonNode metadata, String log) {

    static FixtureRun of(String fixture, Path dir) throws Exception {
        return of(fixture, dir, false);
    }

    /** @param rocpd whether the run also writes its rocpd database ({@link #rocpdFile}) */
    static FixtureRun of(String fixture, Path dir, boolean rocpd) throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Settings settings = new SettingsLoader(
                        SettingsRegistry.standard(),
                        Map.of(
                                "HOME",
                                dir.toString(),
                                "ROCPROFSYS_TRACE",
                                "true",
                                "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING",
                                "true",
                                "ROCPROFSYS_USE_ROCPD",
                                Boolean.toString(rocpd)),
                        dir)
                .load();
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
        try (CollectedRun.Session session = CollectedRun.Session.create(dir)) {
            int pid = session.placeRing(resource(fixture + ".ring.gz"));
            // a file its agent did not mark exited (a crash) ends where its rings end
            CollectedRun run = session.collect(
                    settings,
                    dir,
                    pid,
                    "./app",
                    fixture,
                    log,
                    CollectedRun.gpuFormats(org.rocprofsys.cuda.decode.CudaGpu.VENDOR, new UnifiedMemoryFormat()),
                    List.of(CudaTracing::records),
                    List.of(),
                    ProcessEnd.KILLED_BY_SIGNAL,
                    11);
            return new FixtureRun(
                    pid,
                    run.trace(),
                    run.paths().directory(),
                    run.metadata(),
                    logBytes.toString(StandardCharsets.UTF_8));
        }
    }

    /** The run's rocpd database (written when asked for). */
    Path rocpdFile() {
        return outputDir.resolve("rocpd-" + pid + ".db");
    }

    /** A stats file of the run ({@code kernel_stats}, ...; {@code csv} or {@code json}). */
    String statsFile(String table, String extension) {
        return RunFiles.statsFile(outputDir, table, extension);
    }

    private static InputStream resource(String name) {
        InputStream in = FixtureRun.class.getResourceAsStream("/org/rocprofsys/cuda/fixtures/" + name);
        if (in == null) {
            throw new IllegalArgumentException("no fixture " + name);
        }
        return in;
    }
}
