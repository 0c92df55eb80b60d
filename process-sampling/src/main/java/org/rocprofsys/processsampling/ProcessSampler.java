package org.rocprofsys.processsampling;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.EventSource;

/**
 * The background process sampler: a thread of the collector that reads its metric readers at
 * PROCESS_SAMPLING_FREQ for PROCESS_SAMPLING_DURATION and ends every series with a 0 at stop, as
 * upstream. It runs in the collector, never in the target.
 *
 * <p>The values wait in this sampler until it stops (up to {@value #MAX_HELD}, then they go on
 * together and the next ones wait again): handing each on as it came took the collector thread's
 * CPU while the target ran, which a target that fills the machine's CPUs pays for
 * (docs/benchmarks.md, "Analysis after the run").
 */
final class ProcessSampler implements EventSource {
    private final long periodNs;
    private final long durationNs;
    private final IntFunction<List<MetricReader>> readers;
    private final PrintStream log;
    private final Runnable release;
    static final int MAX_HELD = 200_000;

    private final Map<CounterTrack, Boolean> seen = new LinkedHashMap<>();
    /** Values not handed on yet; the sampling thread's until it has ended. */
    private final List<CounterSample> held = new ArrayList<>();

    private static final int MAKING_READERS = 0;
    private static final int SAMPLING = 1;
    private static final int CANCELLED = 2;
    /** Whether the sampling thread got past making its readers, or was stopped before. */
    private final AtomicInteger phase = new AtomicInteger(MAKING_READERS);

    private volatile boolean running;
    private Thread thread;
    private Consumer<TraceEvent> out;

    /**
     * @param readers the readers for a target pid
     */
    ProcessSampler(
            double frequencyHz,
            double durationSeconds,
            IntFunction<List<MetricReader>> readers,
            PrintStream log,
            Runnable release) {
        this.periodNs = Math.round(1e9 / frequencyHz);
        this.durationNs = durationSeconds > 0 ? Math.round(durationSeconds * 1e9) : Long.MAX_VALUE;
        this.readers = readers;
        this.log = log;
        this.release = release;
    }

    long periodNs() {
        return periodNs;
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> sink) {
        this.out = sink;
        running = true;
        // the readers are made on the sampling thread: making them may wait for the GPUs' detection
        thread = Thread.ofPlatform()
                .daemon()
                .name("rocprof-sys-process-sampler")
                .start(() -> {
                    List<MetricReader> list = new ArrayList<>(readers.apply(targetPid));
                    if (phase.compareAndSet(MAKING_READERS, SAMPLING)) {
                        loop(list);
                    }
                });
    }

    private void loop(List<MetricReader> list) {
        if (list.isEmpty()) {
            return; // nothing to read: no wake-ups for nothing
        }
        long start = System.nanoTime();
        long next = start;
        Consumer<CounterSample> record = s -> {
            seen.put(s.track(), Boolean.TRUE);
            if (held.size() == MAX_HELD) {
                handOn();
            }
            held.add(s);
        };
        while (running) {
            if (next - start > durationNs) {
                log.printf(
                        java.util.Locale.ROOT,
                        "[rocprof-sys] Background process sampling duration of %f seconds"
                                + " has elapsed. Shutting down process sampling...%n",
                        durationNs / 1e9);
                return;
            }
            long now = System.nanoTime();
            for (MetricReader r : list) {
                r.read(now, record);
            }
            next += periodNs;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else {
                next = System.nanoTime(); // fell behind: skip the missed ticks rather than burst
            }
        }
    }

    private void handOn() {
        held.forEach(out);
        held.clear();
    }

    @Override
    public void stop(long timestampNs) {
        running = false;
        // a sampler still making its readers (the GPUs' detection, which took 100 ms and more on two
        // busy CPUs of the GPU host) has sampled nothing: the run does not wait for it
        if (thread != null && !phase.compareAndSet(MAKING_READERS, CANCELLED)) {
            LockSupport.unpark(thread);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        handOn();
        for (CounterTrack track : seen.keySet()) {
            out.accept(new CounterSample(timestampNs, track, 0));
        }
        release.run();
    }
}
