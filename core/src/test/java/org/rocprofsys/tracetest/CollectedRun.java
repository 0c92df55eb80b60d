package org.rocprofsys.tracetest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.gpu.counters.GpuCounterFormat;
import org.rocprofsys.core.gpu.stats.GpuStatsFormat;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.RunOutputs;
import org.rocprofsys.core.perfetto.PerfettoFormat;
import org.rocprofsys.core.pipeline.Collector;
import org.rocprofsys.core.pipeline.Pipeline;
import org.rocprofsys.core.pipeline.SessionDirectory;
import org.rocprofsys.core.pipeline.TraceWindows;
import org.rocprofsys.core.rocpd.RocpdFormat;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.WireException;
import org.rocprofsys.core.wire.RingFile;

/**
 * A session's ring files run through the collector's real path, as a profiled run's are (the GPU
 * fixtures, the ROCm replays): the {@link Collector} drains them with the backends' record
 * decoders, the {@link Pipeline} normalises, and the run's outputs write their files under
 * {@code dir}/out, launched at {@link #LAUNCHED}.
 *
 * @param paths the run's output paths
 * @param trace its Perfetto trace, decoded
 * @param metadata its metadata.json
 */
public record CollectedRun(OutputPaths paths, DecodedTrace trace, JsonNode metadata) {
    /** When the runs were launched (their output names and metadata say so). */
    public static final ZonedDateTime LAUNCHED = ZonedDateTime.of(2026, 11, 24, 0, 0, 0, 0, ZoneOffset.UTC);

    /**
     * The outputs of a GPU backend's run: the trace, {@code vendor}'s stats and counter files,
     * {@code more}, then the rocpd database.
     */
    public static List<OutputFormat> gpuFormats(GpuVendor vendor, OutputFormat... more) {
        List<OutputFormat> formats = new ArrayList<>(List.of(
                new PerfettoFormat(), new GpuStatsFormat(List.of(vendor)), new GpuCounterFormat(List.of(vendor))));
        formats.addAll(List.of(more));
        formats.add(new RocpdFormat(name -> null));
        return formats;
    }

    /**
     * A session directory the target's agent writes its rings into; {@link #collect} runs them.
     * (Only exported types in its signatures: the plugin modules' tests read this test-jar from
     * the class path.)
     */
    public static final class Session implements AutoCloseable {
        private final SessionDirectory directory;

        private Session(SessionDirectory directory) {
            this.directory = directory;
        }

        /** A fresh session directory ({@code dir} if no other is set). */
        public static Session create(Path dir) throws IOException {
            return new Session(SessionDirectory.create(dir));
        }

        public Path path() {
            return directory.path();
        }

        /**
         * Places a recorded ring file ({@code gzipped}, as the fixtures keep them) in the session as
         * its process's first ring, named by the pid its header holds; returns that pid.
         */
        public int placeRing(InputStream gzipped) throws IOException, WireException {
            Path ring = path().resolve("ring.tmp");
            try (InputStream in = new GZIPInputStream(gzipped)) {
                Files.copy(in, ring);
            }
            int pid;
            try (RingFile f = RingFile.open(ring)) {
                pid = f.pid();
            }
            Files.move(ring, path().resolve(pid + ".0.ring"));
            return pid;
        }

        /**
         * @param dir the test's folder: the outputs go to {@code dir}/out
         * @param command the target's command (the output names' {@code %argv0%})
         * @param name the run's command line in the summary and metadata
         * @param parts session parts whose intercept stages see the events first (a filter), or none
         * @param end how the root process ended, with {@code status} (its exit code or signal)
         */
        public CollectedRun collect(
                Settings settings,
                Path dir,
                int pid,
                String command,
                String name,
                PrintStream log,
                List<OutputFormat> formats,
                List<BackendRecords.Factory> backends,
                List<? extends org.rocprofsys.core.spi.SessionPart> parts,
                ProcessEnd end,
                int status)
                throws Exception {
            OutputPaths paths = RunFiles.paths(dir, pid, command, LAUNCHED);
            RunOutputs outputs = RunOutputs.open(formats, new OutputContext(settings, paths, pid, name, 0, log, log));
            Pipeline pipeline = new Pipeline(TraceWindows.from(settings), true, parts, outputs.writers());
            Collector collector = new Collector(directory, pipeline.head(), log, backends);
            collector.setRootPid(pid);
            collector.targetReaped(new Collector.RootEnd(end, status, 0));
            collector.run(1_000_000_000L);
            RunSummary summary = new RunSummary(System.nanoTime(), 0, pid, name, collector.drops());
            pipeline.finish(summary.endNs());
            outputs.finish(summary, List.of(name), LAUNCHED, Map.of());
            return new CollectedRun(
                    paths,
                    DecodedTrace.read(paths.perfettoFile()),
                    new ObjectMapper().readTree(paths.file("metadata", "json").toFile()));
        }

        @Override
        public void close() throws IOException {
            directory.close();
        }
    }
}
