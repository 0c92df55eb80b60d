package org.rocprofsys.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.processsampling.ProcessSampling;

/**
 * Collector CPU time per second of process sampling (issue 5), at 50 Hz and at 1 kHz: the real
 * sampler built from settings (-H with every CPU's frequency, plus the GPU backends the machine
 * has) on a sleeping target, against the same wall time with no sampler (the baseline).
 */
final class ProcessSamplingBench {
    private ProcessSamplingBench() {}

    static List<Result> run(Env env) throws Exception {
        long seconds = env.size(10, 2);
        Process target = new ProcessBuilder("sleep", Long.toString(seconds * 3 + 10)).start();
        try {
            // warm-up: the sampler's code is compiled before anything is measured (JIT threads'
            // CPU time counts in the process's)
            cpuMsPerSecond(Math.max(1, seconds / 2), sampler(1000), target);
            double idle = cpuMsPerSecond(seconds, null, target);
            List<Result> out = new ArrayList<>();
            for (double hz : new double[] {50, 1000}) {
                AtomicLong samples = new AtomicLong();
                AtomicLong threadCpuNs = new AtomicLong();
                EventSource sampler = sampler(hz);
                double busy = cpuMsPerSecond(seconds, sampler, target, samples, threadCpuNs);
                double thread = threadCpuNs.get() / 1e6 / seconds;
                System.out.printf(
                        java.util.Locale.ROOT,
                        "procsampling: %.0f Hz: sampler thread %.3f ms CPU per second"
                                + " (%.1f us per tick); whole collector JVM %.3f ms/s (idle %.3f); %d samples%n",
                        hz,
                        thread,
                        thread * 1000.0 / hz,
                        busy,
                        idle,
                        samples.get());
                out.add(new Result(
                        "process sampling thread CPU at " + (int) hz + " Hz",
                        thread,
                        "ms/s",
                        "one second of wall time",
                        1000,
                        "ms/s",
                        thread / 1000,
                        Double.NaN,
                        false));
                out.add(new Result(
                        "  collector JVM CPU at " + (int) hz + " Hz",
                        busy,
                        "ms/s",
                        "one second of wall time (idle JVM: " + Main.number(idle) + " ms/s)",
                        1000,
                        "ms/s",
                        busy / 1000,
                        Double.NaN,
                        false));
            }
            return out;
        } finally {
            target.destroy();
        }
    }

    private static EventSource sampler(double hz) throws Exception {
        Map<String, String> envVars = new HashMap<>(System.getenv());
        envVars.keySet().removeIf(k -> k.startsWith("ROCPROFSYS_"));
        envVars.put("ROCPROFSYS_CPU_FREQ_ENABLED", "ON");
        envVars.put("ROCPROFSYS_SAMPLING_CPUS", "all");
        envVars.put("ROCPROFSYS_PROCESS_SAMPLING_FREQ", Double.toString(hz));
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), envVars, Path.of(".")).load();
        List<EventSource> sources = ProcessSampling.sources(settings, new PrintStream(PrintStream.nullOutputStream()));
        return sources.getFirst();
    }

    private static double cpuMsPerSecond(long seconds, EventSource sampler, Process target) throws Exception {
        return cpuMsPerSecond(seconds, sampler, target, new AtomicLong(), new AtomicLong());
    }

    private static double cpuMsPerSecond(
            long seconds, EventSource sampler, Process target, AtomicLong samples, AtomicLong threadCpuNs)
            throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        if (sampler != null) {
            sampler.start((int) target.pid(), e -> {
                if (e instanceof CounterSample) {
                    samples.incrementAndGet();
                }
            });
        }
        Thread.sleep(seconds * 1000);
        var threads = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("rocprof-sys-process-sampler")) {
                threadCpuNs.set(threads.getThreadCpuTime(t.threadId()));
            }
        }
        if (sampler != null) {
            sampler.stop(System.nanoTime());
        }
        long cpu = os.getProcessCpuTime() - cpu0;
        double wall = (System.nanoTime() - t0) / 1e9;
        return cpu / 1e6 / wall;
    }
}
