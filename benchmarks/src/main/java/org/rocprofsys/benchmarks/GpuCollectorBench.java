package org.rocprofsys.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.gpu.stats.GpuStatsFormat;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.RunOutputs;
import org.rocprofsys.core.perfetto.PerfettoFormat;
import org.rocprofsys.core.pipeline.Collector;
import org.rocprofsys.core.pipeline.Pipeline;
import org.rocprofsys.core.pipeline.SessionDirectory;
import org.rocprofsys.core.pipeline.TraceWindows;
import org.rocprofsys.core.wire.RingFile;
import org.rocprofsys.cuda.source.CudaTracing;

/**
 * The collector's CPU time per GPU activity record: a ring file recorded on the GPU machine
 * ({@code launch-loop 100000} with only kernels traced: 100 001 CUPTI kernel records) drained by
 * the real {@link Collector} with {@link CudaTracing}'s decoder, through the {@link Pipeline} into
 * the Perfetto trace and the GPU stats, several rounds in one JVM (the first one cold, as in a
 * fresh {@code rocprof-sys-run}; later ones with the decoder compiled). Prints the process CPU time
 * and the wall time of each round, and per 100 000 activity records.
 *
 * <pre>
 * java -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED \
 *     -cp benchmarks/target/classes:benchmarks/target/lib/* \
 *     org.rocprofsys.benchmarks.GpuCollectorBench &lt;ring.gz&gt; [rounds] [activity records]
 * </pre>
 */
public final class GpuCollectorBench {
    private GpuCollectorBench() {}

    public static void main(String[] args) throws Exception {
        Path ring = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long records = args.length > 2 ? Long.parseLong(args[2]) : 100_001;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int round = 1; round <= rounds; round++) {
            Path dir = Files.createTempDirectory("rocprofsys-gpu-bench-");
            long cpu0 = os.getProcessCpuTime();
            long wall0 = System.nanoTime();
            String log = once(ring, dir);
            long cpu = os.getProcessCpuTime() - cpu0;
            long wall = System.nanoTime() - wall0;
            System.out.printf(
                    Locale.ROOT,
                    "round %d: %d activity records, process CPU %.1f ms (%.1f ms per 100 000), wall %.1f ms%s%n",
                    round,
                    records,
                    cpu / 1e6,
                    cpu / 1e6 * 100_000 / records,
                    wall / 1e6,
                    log.isBlank() ? "" : " | " + log.strip().replace('\n', ' '));
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private static String once(Path ringGz, Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Settings settings = new SettingsLoader(
                        SettingsRegistry.standard(), Map.of("HOME", dir.toString(), "ROCPROFSYS_TRACE", "true"), dir)
                .load();
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
        try (SessionDirectory session = SessionDirectory.create(dir)) {
            Path ring = session.path().resolve("ring.tmp");
            try (InputStream in = new GZIPInputStream(Files.newInputStream(ringGz))) {
                Files.copy(in, ring);
            }
            int pid;
            try (RingFile f = RingFile.open(ring)) {
                pid = f.pid();
            }
            Files.move(ring, session.path().resolve(pid + ".0.ring"));
            ZonedDateTime launched = ZonedDateTime.of(2026, 11, 24, 0, 0, 0, 0, ZoneOffset.UTC);
            OutputPaths paths = BenchPaths.of(out, dir, "./launch-loop", pid, launched);
            RunOutputs outputs = RunOutputs.open(
                    List.of(new PerfettoFormat(), new GpuStatsFormat(CudaTracing.PLUGIN.gpuVendors())),
                    new OutputContext(settings, paths, pid, "launch-loop", 0, log, log));
            Pipeline pipeline = new Pipeline(TraceWindows.from(settings), true, List.of(), outputs.writers());
            Collector collector = new Collector(session, pipeline.head(), log, List.of(CudaTracing::records));
            collector.setRootPid(pid);
            collector.targetReaped(new Collector.RootEnd(ProcessEnd.EXITED, 0, 0));
            collector.run(1_000_000_000L);
            RunSummary summary = new RunSummary(System.nanoTime(), 0, pid, "launch-loop", collector.drops());
            pipeline.finish(summary.endNs());
            outputs.finish(summary, List.of("launch-loop"), launched, Map.of());
        }
        return logBytes.toString(StandardCharsets.UTF_8);
    }
}
