package org.rocprofsys.benchmarks;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.sampler.source.PerfSamplingSource;

/**
 * Call-stack sampling at 1 kHz (issue 4):
 * <ol>
 * <li>the slowdown of a CPU-bound -O2 -fomit-frame-pointer program under {@code rocprof-sys-sample
 * -f 1000}, measured inside the program (its own timing of the work) against unprofiled runs
 * interleaved with the profiled ones in the same benchmark run (median of each);</li>
 * <li>the collector's CPU time per 1000 samples (the perf reader and the unwinder threads);</li>
 * <li>unwinding and symbolization time per sample.</li>
 * </ol>
 */
final class CallStackSamplingBench {
    private CallStackSamplingBench() {}

    static List<Result> run(Env env) throws Exception {
        Path prog = env.nativeDir().resolve("sampled_work");
        String rounds = Long.toString(env.size(120, 20));
        int reps = (int) env.size(5, 2);
        Path out = env.scratch("sampling");
        try {
            Path sample = env.dist().resolve("bin/rocprof-sys-sample");
            Map<String, String> profiled =
                    env.profiledEnvironment(out, Map.of("ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON"));
            Map<String, String> plain = new java.util.HashMap<>(System.getenv());
            plain.keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
            double[] base = new double[reps];
            double[] prof = new double[reps];
            double[] baseWall = new double[reps];
            double[] profWall = new double[reps];
            Env.run(List.of(prog.toString(), rounds), plain, out, null, 0).check("warm-up");
            for (int i = 0; i < reps; i++) {
                Env.Outcome o = Env.run(List.of(prog.toString(), rounds), plain, out, null, 0)
                        .check("baseline");
                base[i] = field(o, "cpu_ns=");
                baseWall[i] = field(o, "work_ns=");
                o = Env.run(
                                List.of(sample.toString(), "-f", "1000", "-w", "0", "--", prog.toString(), rounds),
                                profiled,
                                out,
                                null,
                                0)
                        .check("rocprof-sys-sample");
                prof[i] = field(o, "cpu_ns=");
                profWall[i] = field(o, "work_ns=");
            }
            // the headline is the work's own CPU time (it includes the kernel's sample handling);
            // wall time is shown too, but a busy machine inflates it
            double b = Main.median(base);
            double p = Main.median(prof);
            double slowdown = (p / b - 1) * 100;
            double wallSlowdown = (Main.median(profWall) / Main.median(baseWall) - 1) * 100;
            System.out.printf(
                    Locale.ROOT,
                    "sampling: work CPU time %.1f ms unprofiled, %.1f ms at 1 kHz (medians of"
                            + " %d): %+.2f %%; wall time %+.2f %%%n  unprofiled CPU %s wall %s%n  profiled   CPU %s wall %s%n",
                    b / 1e6,
                    p / 1e6,
                    reps,
                    slowdown,
                    wallSlowdown,
                    Arrays.toString(ms(base)),
                    Arrays.toString(ms(baseWall)),
                    Arrays.toString(ms(prof)),
                    Arrays.toString(ms(profWall)));

            // the collector side, in this JVM: the real source on the same program
            PerfSamplingSource.Stats s = null;
            // a longer run: the symbol tables loaded once per run are spread over more samples
            String longRounds = Long.toString(env.size(480, 40));
            for (int i = 0; i < 2; i++) { // the first round warms the JIT up
                s = collectorCost(prog, longRounds);
            }
            double cpuPer1000 = (s.readerCpuNs() + s.unwinderCpuNs()) / 1e6 / s.samples() * 1000;
            double unwindUs = s.unwindNs() / 1e3 / s.samples();
            double symbolizeUs = s.symbolizeNs() / 1e3 / s.samples();
            System.out.printf(
                    Locale.ROOT,
                    "sampling: %d samples; collector CPU %.1f ms per 1000 samples (reader %.1f"
                            + " ms, unwinder %.1f ms in all); unwind %.1f us and symbolize %.1f us per sample%n",
                    s.samples(),
                    cpuPer1000,
                    s.readerCpuNs() / 1e6,
                    s.unwinderCpuNs() / 1e6,
                    unwindUs,
                    symbolizeUs);
            List<Result> r = new ArrayList<>();
            r.add(new Result(
                    "sampling slowdown at 1 kHz (in-program CPU time)",
                    slowdown,
                    "%",
                    "unprofiled run, same benchmark run (" + Main.number(b / 1e6) + " ms)",
                    b / 1e6,
                    "ms",
                    p / b,
                    1,
                    false));
            r.add(new Result(
                    "  collector CPU per 1000 samples",
                    cpuPer1000,
                    "ms",
                    "1000 samples at 1 kHz = 1 s",
                    1000,
                    "ms",
                    cpuPer1000 / 1000,
                    Double.NaN,
                    false));
            r.add(new Result(
                    "  unwind per sample (DWARF CFI, 8 KiB stack)",
                    unwindUs,
                    "us",
                    "1 ms between samples",
                    1000,
                    "us",
                    unwindUs / 1000,
                    Double.NaN,
                    false));
            r.add(new Result(
                    "  symbolize per sample (all frames)",
                    symbolizeUs,
                    "us",
                    "1 ms between samples",
                    1000,
                    "us",
                    symbolizeUs / 1000,
                    Double.NaN,
                    false));
            return r;
        } finally {
            Main.deleteTree(out);
        }
    }

    private static PerfSamplingSource.Stats collectorCost(Path prog, String rounds) throws Exception {
        PerfSamplingSource src = new PerfSamplingSource(
                new PerfSamplingSource.Config(1000, 0, 0), new PrintStream(PrintStream.nullOutputStream()));
        ProcessBuilder pb = new ProcessBuilder(prog.toString(), rounds).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process target = pb.start();
        AtomicLong n = new AtomicLong();
        src.start((int) target.pid(), e -> {
            if (e instanceof StackSample) {
                n.incrementAndGet();
            }
        });
        target.waitFor();
        src.stop(System.nanoTime());
        return src.stats();
    }

    static double field(Env.Outcome o, String key) {
        for (String line : o.stdout().lines().toList()) {
            int at = line.indexOf(key);
            if (at >= 0) {
                return Double.parseDouble(line.substring(at + key.length()).split(" ")[0]);
            }
        }
        throw new IllegalStateException("no " + key + " in:\n" + o.stdout() + o.stderr());
    }

    private static double[] ms(double[] ns) {
        return Arrays.stream(ns).map(x -> Math.round(x / 1e4) / 100.0).toArray();
    }
}
