package org.rocprofsys.processsampling.gpu;

import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;

/**
 * What every backend shares: the selected devices, which metric of which device is still read, the
 * one notice for a metric a device lacks, the tracks (made on a series' first value), and the 0
 * that ends each series at stop.
 */
abstract class AbstractGpuBackend implements GpuBackend {
    private static final GpuMetric[] METRICS = GpuMetric.values();

    private final String name;
    private final PrintStream log;
    private final List<GpuDevice> devices;
    /** [device slot][metric]: true once the metric is not read on that device (not selected or lacking). */
    private final boolean[][] off;
    /** [device slot][metric]: engines of a per-engine metric that the device lacks. */
    private final BitSet[][] engineOff;
    /** [device slot][metric][engine], made on the series' first value. */
    private final CounterTrack[][][] tracks;
    /** Every series that produced a value, in the order of their first value. */
    private final List<CounterTrack> produced = new ArrayList<>();

    private boolean closed;

    AbstractGpuBackend(String name, List<GpuDevice> devices, Set<GpuMetric> metrics, PrintStream log) {
        this.name = name;
        this.log = log;
        this.devices = List.copyOf(devices);
        int n = this.devices.size();
        this.off = new boolean[n][METRICS.length];
        this.engineOff = new BitSet[n][METRICS.length];
        this.tracks = new CounterTrack[n][METRICS.length][];
        for (int d = 0; d < n; d++) {
            for (GpuMetric m : METRICS) {
                off[d][m.ordinal()] = !metrics.contains(m);
                engineOff[d][m.ordinal()] = new BitSet();
                tracks[d][m.ordinal()] = new CounterTrack[m.perEngine() ? 4 : 1];
            }
        }
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<GpuDevice> devices() {
        return devices;
    }

    @Override
    public final void sample(long timestampNs, Consumer<CounterSample> out) {
        for (int d = 0; d < devices.size(); d++) {
            try {
                sampleDevice(d, timestampNs, out);
            } catch (RuntimeException e) {
                // A backend reads each metric defensively; anything that still escapes is a fault of
                // this device's reader: stop reading the device rather than the whole sampler.
                for (GpuMetric m : METRICS) {
                    if (!off[d][m.ordinal()]) {
                        off[d][m.ordinal()] = true;
                    }
                }
                log.println("[rocprof-sys] warning: " + describe(d) + ": reading its metrics failed (" + e
                        + "); no further samples of this GPU");
            }
        }
    }

    /** Reads the enabled metrics of the device in slot {@code d} (an index into {@link #devices()}). */
    abstract void sampleDevice(int d, long timestampNs, Consumer<CounterSample> out);

    @Override
    public final void stop(long timestampNs, Consumer<CounterSample> out) {
        for (CounterTrack t : produced) {
            out.accept(new CounterSample(timestampNs, t, 0));
        }
    }

    /** Whether metric {@code m} is still read on device slot {@code d}. */
    final boolean wants(int d, GpuMetric m) {
        return !off[d][m.ordinal()];
    }

    /** Whether engine {@code e} of per-engine metric {@code m} is still read on device slot {@code d}. */
    final boolean wants(int d, GpuMetric m, int e) {
        return !off[d][m.ordinal()] && !engineOff[d][m.ordinal()].get(e);
    }

    /** Stops reading metric {@code m} on device slot {@code d}, with one notice saying why. */
    final void unsupported(int d, GpuMetric m, String why) {
        if (!off[d][m.ordinal()]) {
            off[d][m.ordinal()] = true;
            log.println(
                    "[rocprof-sys] warning: " + describe(d) + ": " + m.label() + " " + why + "; skipping this metric");
        }
    }

    /** Stops reading engine {@code e} of metric {@code m} on device slot {@code d}, with one notice. */
    final void unsupported(int d, GpuMetric m, int e, String engineName, String why) {
        if (wants(d, m, e)) {
            engineOff[d][m.ordinal()].set(e);
            log.println("[rocprof-sys] warning: " + describe(d) + ": " + m.label() + " [" + (e < 10 ? "0" : "") + e
                    + "] (" + engineName + ") " + why + "; skipping this series");
        }
    }

    /** One value of a scalar metric. */
    final void emit(int d, GpuMetric m, long timestampNs, double value, Consumer<CounterSample> out) {
        emit(d, m, 0, timestampNs, value, out);
    }

    /** One value of engine {@code e} of a metric (0 for a scalar metric). */
    final void emit(int d, GpuMetric m, int e, long timestampNs, double value, Consumer<CounterSample> out) {
        CounterTrack[] row = tracks[d][m.ordinal()];
        if (e >= row.length) {
            row = Arrays.copyOf(row, Math.max(e + 1, row.length * 2));
            tracks[d][m.ordinal()] = row;
        }
        CounterTrack t = row[e];
        if (t == null) {
            t = m.track(devices.get(d).index(), e);
            row[e] = t;
            produced.add(t);
        }
        out.accept(new CounterSample(timestampNs, t, value));
    }

    final void notice(String line) {
        log.println("[rocprof-sys] " + line);
    }

    final String describe(int d) {
        GpuDevice g = devices.get(d);
        return "GPU " + g.index() + " (" + g.name() + ")";
    }

    /** Releases the backend once ({@link #release()}); later calls do nothing. */
    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        release();
    }

    /** Frees what the backend holds (files, the library's state and memory); called once. */
    abstract void release();

    /** Calls a GPU library's shut-down function, whatever its status, ignoring a failure. */
    static void shutDownQuietly(MethodHandle shutDown) {
        try {
            int ignored = (int) shutDown.invokeExact();
        } catch (Throwable ignored) {
            // the library is going away with its arena anyway
        }
    }
}
