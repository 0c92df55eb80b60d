package org.rocprofsys.core.timemory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.UnwrittenFile;
import org.rocprofsys.core.output.WrittenFile;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The sampled profiles (inventory §5): {@code sampling_wall_clock}, {@code sampling_cpu_clock} and
 * {@code sampling_percent}, in the layout of the instrumented ones. Each sample adds its interval to
 * every frame of its stack, nested main -> leaf; the percentages are flat: timemory's
 * {@code sampling_percent} as rocprof-sys computes it ({@code post_process_timemory} in
 * {@code source/lib/rocprof-sys/library/sampling.cpp}, per thread): each frame of each sample of a
 * thread adds {@code 100 / (frames of all that thread's samples)} to its function, so a thread's
 * percentages add up to 100 and a function on every sample of the thread has the share and the
 * COUNT of the thread's outermost frame ({@code main}), {@code 100 / mean stack depth}. The wall time of a sample is the time since the
 * thread's previous sample (upstream's {@code [prev_ts, ts]}); its CPU time is
 * {@link StackSample#cpuNs()} (perf: its interval; the agent's timers: the thread's CPU time since
 * its previous sample).
 *
 * <p>The existing call-graph builder does the folding: a sample becomes nested region begins and
 * ends on a per-thread virtual clock that advances by the sample's interval, so each frame's
 * value is exactly the sum of the intervals of the samples it appears in. Real timestamps are not
 * needed for a profile and would overlap (samples of one thread are instants, not regions).
 */
public final class SamplingProfileSink implements OutputWriter {
    /**
     * Where the main thread's virtual clocks start. The call-graph builder places a worker thread's
     * graph below the main thread's position at the worker's first region; worker clocks start at 0,
     * before anything of the main thread, so each sampled thread gets a tree of its own (rooted at
     * its start routine), as upstream shows them.
     */
    static final long MAIN_EPOCH = 1L << 50;

    private final TimemorySink wall;
    private final TimemorySink cpu;
    private final TimemorySink percent;
    /** Per thread: the virtual clocks of the wall and CPU profiles, and the last sample's time. */
    private final Map<Long, long[]> clocks = new HashMap<>();

    private final Map<Long, Long> lastSample = new HashMap<>();
    /** pid -> (tid -> (function -> frames)), for the flat percentages written at the end. */
    private final Map<Integer, Map<Integer, Map<String, Long>>> counts = new LinkedHashMap<>();

    private final Map<Long, Long> framesPerThread = new HashMap<>();

    public SamplingProfileSink(TimemoryOptions options, OutputPaths paths, PrintStream log, PrintStream cout) {
        this.wall = new TimemorySink(options.withComponents(List.of(Component.WALL_CLOCK)), paths, log, cout)
                .withLabel("sampling_wall_clock")
                .withThreadsAtRoot();
        this.cpu = new TimemorySink(options.withComponents(List.of(Component.CPU_CLOCK)), paths, log, cout)
                .withLabel("sampling_cpu_clock")
                .withThreadsAtRoot();
        this.percent = new TimemorySink(
                        options.withComponents(List.of(Component.WALL_CLOCK))
                                .withFlat(true)
                                .withPercentUnit(),
                        paths,
                        log,
                        cout)
                .withLabel("sampling_percent");
    }

    @Override
    public boolean readsRegions() {
        return false; // stack samples and thread starts only
    }

    @Override
    public void accept(SinkEvent event) {
        if (event instanceof ThreadStarted t) {
            wall.accept(t); // thread numbers for the "|N>>>" labels
            cpu.accept(t);
            percent.accept(t);
            return;
        }
        if (!(event instanceof StackSample s) || s.frames().isEmpty()) {
            return;
        }
        long key = ThreadTable.key(s.pid(), s.tid());
        Long previous = lastSample.put(key, s.timestampNs());
        long wallNs = previous == null || s.timestampNs() <= previous ? s.intervalNs() : s.timestampNs() - previous;
        fold(wall, s, key, 0, wallNs);
        fold(cpu, s, key, 1, s.cpuNs());
        Map<String, Long> perThread = counts.computeIfAbsent(s.pid(), k -> new LinkedHashMap<>())
                .computeIfAbsent(s.tid(), k -> new LinkedHashMap<>());
        // upstream: each frame of each sample adds 100 / (frames of all the thread's samples)
        s.frames().forEach(f -> perThread.merge(f.symbol(), 1L, Long::sum));
        framesPerThread.merge(key, (long) s.frames().size(), Long::sum);
    }

    /** One sample as nested regions on the thread's virtual clock {@code clock}. */
    private void fold(TimemorySink sink, StackSample s, long thread, int clock, long intervalNs) {
        long[] c = clocks.computeIfAbsent(
                thread, k -> s.tid() == s.pid() ? new long[] {MAIN_EPOCH, MAIN_EPOCH} : new long[2]);
        long begin = c[clock];
        long end = begin + Math.max(1, intervalNs);
        c[clock] = end;
        // the virtual clock is both the region's time and its thread CPU time (cpu_clock reads the latter)
        RegionMetrics atBegin = new RegionMetrics(begin, RegionMetrics.ABSENT, RegionMetrics.ABSENT);
        RegionMetrics atEnd = new RegionMetrics(end, RegionMetrics.ABSENT, RegionMetrics.ABSENT);
        for (StackFrame f : s.frames()) {
            sink.accept(new RegionBegin(begin, s.pid(), s.tid(), f.symbol(), Category.SAMPLING, List.of(), atBegin));
        }
        for (int i = 0; i < s.frames().size(); i++) {
            sink.accept(new RegionEnd(end, s.pid(), s.tid(), Category.SAMPLING, List.of(), atEnd, false));
        }
    }

    /**
     * The percentages go through the same writer: every frame of every sample adds one region of
     * (100 / frames of all samples) x 1 s, so the value columns show the percent and COUNT the
     * number of samples the function is in, as upstream's data tracker.
     */
    private void foldPercentages() {
        counts.forEach((pid, threads) -> {
            threads.forEach((tid, functions) -> {
                double total = framesPerThread.get(ThreadTable.key(pid, tid));
                long share = Math.round(100 / total * 1e9);
                long t = 0;
                for (Map.Entry<String, Long> e : functions.entrySet()) {
                    for (long i = 0; i < e.getValue(); i++) {
                        percent.accept(new RegionBegin(t, pid, tid, e.getKey(), Category.SAMPLING, List.of(), null));
                        percent.accept(new RegionEnd(t + share, pid, tid, Category.SAMPLING, List.of(), null, false));
                        t += share;
                    }
                }
            });
        });
    }

    @Override
    public void finish(RunSummary summary) throws IOException {
        foldPercentages();
        // upstream's order of the "Outputting" lines: percent, cpu clock, wall clock
        percent.finish(summary);
        cpu.finish(summary);
        wall.finish(summary);
    }

    @Override
    public List<UnwrittenFile> unwritten() {
        List<UnwrittenFile> all = new ArrayList<>();
        for (TimemorySink s : List.of(percent, cpu, wall)) {
            all.addAll(s.unwritten());
        }
        return all;
    }

    /** The files were announced as they were written, as timemory does. */
    @Override
    public List<WrittenFile> report() {
        return WrittenFiles.of(outputsByLabel());
    }

    /** The files written by kind and then label, as metadata.json groups them. */
    public Map<String, Map<String, List<Path>>> outputsByLabel() {
        Map<String, Map<String, List<Path>>> out = new LinkedHashMap<>();
        for (TimemorySink s : List.of(wall, cpu, percent)) {
            s.outputsByLabel()
                    .forEach((kind, byLabel) -> out.computeIfAbsent(kind, k -> new LinkedHashMap<>())
                            .putAll(byLabel));
        }
        return out;
    }
}
