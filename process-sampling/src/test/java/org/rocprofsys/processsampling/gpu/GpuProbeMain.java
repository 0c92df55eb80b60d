package org.rocprofsys.processsampling.gpu;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.core.event.CounterSample;

/**
 * A hand-run check on a GPU machine: detects the backends, samples every {@code period} ms for
 * {@code seconds}, prints each sample, then the 0s of stop, the per-series maxima and the cost of a
 * {@code sample()} call.
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -cp ... GpuProbeMain [metrics] [gpus]
 * [seconds] [periodMs] [costCalls]}, e.g. {@code all all 2 100 20000}.
 */
public final class GpuProbeMain {
    private GpuProbeMain() {}

    public static void main(String[] args) throws Exception {
        String metrics = args.length > 0 ? args[0] : GpuMetric.DEFAULT_SPEC;
        String gpus = args.length > 1 ? args[1] : "all";
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 2;
        long periodMs = args.length > 3 ? Long.parseLong(args[3]) : 100;
        GpuOptions o =
                GpuOptions.defaults().withMetrics(GpuMetric.parse(metrics)).withDevices(GpuDeviceSelection.parse(gpus));

        long t0 = System.nanoTime();
        List<GpuBackend> backends = GpuBackends.detect(o, System.out);
        System.out.printf(
                Locale.ROOT, "detect: %.1f ms, %d backend(s)%n", (System.nanoTime() - t0) / 1e6, backends.size());
        for (GpuBackend b : backends) {
            System.out.println("backend " + b.name() + ": " + b.devices());
        }
        Map<String, Double> max = new LinkedHashMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        long periodic = 0;
        long callNs = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        int tick = 0;
        while (System.nanoTime() < end) {
            for (GpuBackend b : backends) {
                long a = System.nanoTime();
                b.sample(a - start, s -> {
                    print(s);
                    max.merge(s.track().name(), s.value(), Math::max);
                    units.put(s.track().name(), s.track().unit());
                });
                callNs += System.nanoTime() - a;
                periodic++;
            }
            tick++;
            Thread.sleep(periodMs);
        }
        // the cost of one tick without printing, cold (interpreted, first calls) to warm (compiled):
        // wall and CPU time per sample() call in windows of back-to-back calls
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        int calls = args.length > 4 ? Integer.parseInt(args[4]) : 2000;
        for (GpuBackend b : backends) {
            int window = Math.max(1, calls / 5);
            StringBuilder line = new StringBuilder();
            for (int w = 0; w < calls / window; w++) {
                long cpu0 = mx.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                for (int i = 0; i < window; i++) {
                    b.sample(i, s -> {});
                }
                long wall = System.nanoTime() - w0;
                long cpu = mx.getCurrentThreadCpuTime() - cpu0;
                line.append(String.format(
                        Locale.ROOT,
                        " [%d-%d] %.2f/%.2f",
                        w * window,
                        (w + 1) * window - 1,
                        wall / 1e3 / window,
                        cpu / 1e3 / window));
            }
            System.out.println(b.name() + " sample() over " + b.devices().size()
                    + " device(s), us wall/CPU per call, by call window:" + line);
        }
        long stopTs = System.nanoTime() - start;
        for (GpuBackend b : backends) {
            b.stop(stopTs, GpuProbeMain::print);
        }
        GpuBackends.closeAll(backends);
        System.out.println("ticks: " + tick);
        for (var e : max.entrySet()) {
            System.out.printf(Locale.ROOT, "max %-32s %10.3f %s%n", e.getKey(), e.getValue(), units.get(e.getKey()));
        }
        System.out.printf(
                Locale.ROOT,
                "periodic sample() calls: %d, mean %.1f us each (first-call warm-up and" + " printing included)%n",
                periodic,
                periodic == 0 ? 0 : callNs / 1e3 / periodic);
    }

    private static void print(CounterSample s) {
        System.out.printf(
                Locale.ROOT,
                "%10.3f ms  %-32s %10.3f %s  [%s]%n",
                s.timestampNs() / 1e6,
                s.track().name(),
                s.value(),
                s.track().unit(),
                s.track().category().label());
    }
}
