package org.rocprofsys.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.perfetto.PerfettoSink;
import org.rocprofsys.core.wire.RingDrain;
import org.rocprofsys.core.wire.RingFile;
import org.rocprofsys.core.wire.WireFormat;

/**
 * Benchmark 2: collector ingest, records turned into events per second.
 *
 * <ol>
 * <li>In process (JMH, {@link IngestBenchmark}): {@code region_stream} runs with the agent
 * preloaded and a session directory but no collector, so its main thread fills one 128 MiB ring
 * with region records written by the agent's own writer; the benchmark maps that file with
 * {@link RingFile} and drains it with {@link RingDrain} into a no-op consumer. Baseline: a walk of
 * the same records' headers. Budget: 20 M records/s on one core.</li>
 * <li>End to end: {@code region_stream} under {@code rocprof-sys-run} with
 * {@code ROCPROFSYS_RING_BUFFER_LOSSLESS=ON} (the producer waits for the collector, so its rate is
 * the collector's), Perfetto trace and wall_clock profile on. Reported: records/s, and the CPU
 * time of the collector's draining thread per record (read from /proc by the producer), whose
 * inverse is what one core could ingest.</li>
 * </ol>
 */
final class IngestBench {
    static final double GOAL_RECORDS_PER_S = 20e6;

    private IngestBench() {}

    /** The ring with the most bytes written: the filler's main thread. */
    static RingFile.Ring fullestRing(RingFile file) {
        RingFile.Ring best = null;
        for (RingFile.Ring r : file.rings()) {
            if (best == null || r.head() > best.head()) {
                best = r;
            }
        }
        if (best == null) {
            throw new IllegalStateException(file.path() + " has no ring");
        }
        return best;
    }

    static List<Result> run(Env env) throws Exception {
        List<Result> results = new ArrayList<>();
        Path dir = Files.createTempDirectory(
                Path.of("/dev/shm").toFile().isDirectory()
                        ? Path.of("/dev/shm")
                        : Path.of(System.getProperty("java.io.tmpdir")),
                "rocprofsys-bench-ring-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        double drainRate;
        try {
            long events = env.size(3_000_000, 600_000);
            Map<String, String> e = new HashMap<>(System.getenv());
            e.keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
            e.put("LD_PRELOAD", env.agentLibrary().toString());
            e.put(WireFormat.ENV_SESSION_DIR, dir.toString());
            e.put(WireFormat.ENV_RING_KB, Long.toString(128 * 1024));
            e.put(WireFormat.ENV_MAX_THREADS, "2");
            e.put(WireFormat.ENV_LOSSLESS, "0");
            e.put(WireFormat.ENV_METRICS, "0");
            Env.Outcome fill = Env.run(
                            List.of(env.nativeProgram("region_stream").toString(), Long.toString(events)),
                            e,
                            dir,
                            null,
                            0)
                    .check("region_stream (ring filler)");
            Map<String, String> kv = Main.keyValues(fill.stdout());
            if (!"1".equals(kv.get("bound")) || Main.number(kv, "records_dropped") != 0) {
                throw new IllegalStateException("the ring filler did not record everything:\n" + fill.stdout());
            }
            Path ringFile;
            try (Stream<Path> s = Files.list(dir)) {
                ringFile = s.filter(p -> p.toString().endsWith(".ring"))
                        .findFirst()
                        .orElseThrow(() -> new IllegalStateException("no ring file in " + dir));
            }
            long records;
            long bytes;
            long[] events2 = new long[1];
            try (RingFile f = RingFile.open(ringFile)) {
                RingFile.Ring ring = fullestRing(f);
                bytes = ring.head();
                RingDrain d =
                        new RingDrain(f.pid(), ring, ev -> events2[0] += ev instanceof RegionRun r ? r.size() : 1);
                records = d.drain();
                d.flushPending();
                ring.release(0);
            }
            System.out.printf(
                    Locale.ROOT,
                    "ring filled by the agent: %d records (%d events), %.1f MB, %.1f B/record%n",
                    records,
                    events2[0],
                    bytes / 1e6,
                    (double) bytes / records);

            Options opt = new OptionsBuilder()
                    .include(IngestBenchmark.class.getName() + "\\.")
                    .forks(1)
                    .warmupIterations(env.quick() ? 1 : 4)
                    .warmupTime(TimeValue.seconds(env.quick() ? 1 : 2))
                    .measurementIterations(env.quick() ? 2 : 8)
                    .measurementTime(TimeValue.seconds(env.quick() ? 1 : 2))
                    // the collector's JVM runs with the serial collector (libexec/launch)
                    .jvmArgsAppend(
                            "-D" + IngestBenchmark.RING_PROPERTY + "=" + ringFile,
                            "-XX:+UseSerialGC",
                            "--enable-native-access=ALL-UNNAMED",
                            "--sun-misc-unsafe-memory-access=allow")
                    .shouldFailOnError(true)
                    .verbosity(VerboseMode.SILENT)
                    .build();
            System.out.printf(
                    Locale.ROOT,
                    "running JMH (IngestBenchmark: drain, scanRecords, scanBytes; about %d s)...%n",
                    env.quick() ? 20 : 100);
            Collection<RunResult> run = new Runner(opt).run();
            Map<String, Double> msPerOp = new HashMap<>();
            Map<String, Double> error = new HashMap<>();
            Map<String, Double> best = new HashMap<>();
            for (RunResult r : run) {
                String b = r.getParams().getBenchmark();
                String m = b.substring(b.lastIndexOf('.') + 1);
                msPerOp.put(m, r.getPrimaryResult().getScore());
                error.put(m, r.getPrimaryResult().getScoreError());
                best.put(
                        m,
                        r.getBenchmarkResults().stream()
                                .flatMap(br -> br.getIterationResults().stream())
                                .mapToDouble(ir -> ir.getPrimaryResult().getScore())
                                .min()
                                .orElse(Double.NaN));
            }
            drainRate = records / (msPerOp.get("drain") / 1e3);
            double scanRate = records / (msPerOp.get("scanRecords") / 1e3);
            double byteRate = records / (msPerOp.get("scanBytes") / 1e3);
            System.out.printf(
                    Locale.ROOT,
                    "in-process: RingDrain %.2f +- %.2f ms per ring = %.1f M records/s; header walk %.2f +- %.2f ms ="
                            + " %.1f M records/s; word scan %.1f M records/s (%.2f GB/s)%n",
                    msPerOp.get("drain"),
                    error.get("drain"),
                    drainRate / 1e6,
                    msPerOp.get("scanRecords"),
                    error.get("scanRecords"),
                    scanRate / 1e6,
                    byteRate / 1e6,
                    bytes / (msPerOp.get("scanBytes") / 1e3) / 1e9);
            double bestDrain = records / (best.get("drain") / 1e3);
            double bestScan = records / (best.get("scanRecords") / 1e3);
            System.out.printf(
                    Locale.ROOT,
                    "in-process, best iterations: RingDrain %.1f M records/s, header walk %.1f M" + " records/s%n",
                    bestDrain / 1e6,
                    bestScan / 1e6);
            results.add(new Result(
                    "ingest, RingDrain in process",
                    drainRate / 1e6,
                    "M rec/s",
                    "header walk, same bytes",
                    scanRate / 1e6,
                    "M rec/s",
                    drainRate / scanRate,
                    GOAL_RECORDS_PER_S / 1e6,
                    true));
            results.add(new Result(
                    "  same, best iteration",
                    bestDrain / 1e6,
                    "M rec/s",
                    "header walk, best iteration",
                    bestScan / 1e6,
                    "M rec/s",
                    bestDrain / bestScan,
                    GOAL_RECORDS_PER_S / 1e6,
                    true));
        } finally {
            Main.deleteTree(dir);
        }
        results.addAll(endToEnd(env, drainRate));
        return results;
    }

    /** The steady state of one end-to-end run: records/s and CPU per record. */
    private record Steady(double rate, double cpuNs, double processCpuNs) {}

    private static List<Result> endToEnd(Env env, double drainRate) throws Exception {
        int encoders = PerfettoSink.Options.encoderThreadsHere();
        Steady s = steady(env, Map.of());
        List<Result> r = new ArrayList<>();
        r.add(new Result(
                "ingest, end to end (lossless)",
                s.rate() / 1e6,
                "M rec/s",
                "RingDrain in process",
                drainRate / 1e6,
                "M rec/s",
                s.rate() / drainRate,
                GOAL_RECORDS_PER_S / 1e6,
                true));
        r.add(perCpuSecond("  whole collector, per CPU-second", s.processCpuNs(), drainRate));
        r.add(perCpuSecond("  collector thread, per CPU-second", s.cpuNs(), drainRate));
        if (encoders > 0) {
            // the same run with every slice encoded on the trace writer's thread: what the
            // segment encoders give on this machine, in the same run
            Steady serial = steady(env, Map.of("ROCPROFSYS_PERFETTO_ENCODERS", "0"));
            r.add(new Result(
                    "  with " + encoders + " segment encoders",
                    s.rate() / 1e6,
                    "M rec/s",
                    "no segment encoder",
                    serial.rate() / 1e6,
                    "M rec/s",
                    s.rate() / serial.rate(),
                    GOAL_RECORDS_PER_S / 1e6,
                    true));
        } else {
            System.out.printf(
                    Locale.ROOT,
                    "no segment encoder on this machine (%d CPUs): the trace writer's thread encodes every slice%n",
                    Runtime.getRuntime().availableProcessors());
        }
        return r;
    }

    /** Records per CPU-second of {@code cpuNsPerRecord}, against the in-process drain's rate. */
    private static Result perCpuSecond(String name, double cpuNsPerRecord, double drainRate) {
        return new Result(
                name,
                1e3 / cpuNsPerRecord,
                "M rec/s",
                "RingDrain in process",
                drainRate / 1e6,
                "M rec/s",
                1e9 / cpuNsPerRecord / drainRate,
                GOAL_RECORDS_PER_S / 1e6,
                true);
    }

    /**
     * {@code region_stream} under rocprof-sys-run, lossless, trace and profile on, records decoded as
     * they come, with {@code more} settings.
     */
    private static Steady steady(Env env, Map<String, String> more) throws Exception {
        long events = env.size(24_000_000, 3_000_000);
        long first = events / 6;
        Path out = env.scratch("ingest");
        try {
            Map<String, String> settings = new HashMap<>(Map.of(
                    "ROCPROFSYS_TRACE", "ON",
                    "ROCPROFSYS_PROFILE", "ON",
                    "ROCPROFSYS_RING_BUFFER_LOSSLESS", "ON"));
            // records decoded as they come: on machines of up to 3 CPUs the collector would otherwise
            // hold them while the target runs, and the producer's windows would time copies, not the
            // decoding (the stall benchmark measures holding)
            settings.put("ROCPROFSYS_COLLECTOR_HOLD_BYTES", "0");
            settings.putAll(more);
            Map<String, String> e = env.profiledEnvironment(out, settings);
            Env.Outcome o = Env.run(
                            env.underRun("region_stream", Long.toString(events), first + "," + events), e, out, null, 0)
                    .check("rocprof-sys-run -- region_stream");
            List<Map<String, String>> cps = checkpoints(o.stdout());
            if (cps.size() != 2) {
                throw new IllegalStateException("expected 2 checkpoints:\n" + o.stdout());
            }
            double dEvents = Main.number(cps.get(1), "events") - Main.number(cps.get(0), "events");
            double dWall = Main.number(cps.get(1), "wall_s") - Main.number(cps.get(0), "wall_s");
            double dCpu = Main.number(cps.get(1), "collector_cpu_s") - Main.number(cps.get(0), "collector_cpu_s");
            double dProcessCpu = Main.number(cps.get(1), "collector_process_cpu_s")
                    - Main.number(cps.get(0), "collector_process_cpu_s");
            Steady s = new Steady(dEvents / dWall, dCpu / dEvents * 1e9, dProcessCpu / dEvents * 1e9);
            System.out.printf(
                    Locale.ROOT,
                    "end to end (lossless, trace + profile%s): %d events in %.2f s; steady state after %d: %.2f M"
                            + " records/s, collector thread %.1f ns CPU per record (%.1f M records per CPU-second),"
                            + " whole collector (every thread: drain, outputs, JIT, GC) %.1f ns CPU per record; run"
                            + " took %.1f s%n",
                    more.isEmpty()
                            ? ""
                            : ", "
                                    + more.entrySet().stream()
                                            .map(kv -> kv.getKey() + "=" + kv.getValue())
                                            .collect(java.util.stream.Collectors.joining(" ")),
                    events,
                    Main.number(Main.keyValues(o.stdout()), "wall_s"),
                    first,
                    s.rate() / 1e6,
                    s.cpuNs(),
                    1e3 / s.cpuNs(),
                    s.processCpuNs(),
                    o.wallSeconds());
            return s;
        } finally {
            Main.deleteTree(out);
        }
    }

    static List<Map<String, String>> checkpoints(String stdout) {
        List<Map<String, String>> cps = new ArrayList<>();
        for (String l : stdout.split("\n")) {
            if (l.startsWith("checkpoint ")) {
                cps.add(Main.fields(l));
            }
        }
        return cps;
    }
}
