package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.pipeline.BackgroundSource;
import org.rocprofsys.core.wire.WireFormat;
import org.rocprofsys.sampler.symbols.ProcessMaps;
import org.rocprofsys.sampler.symbols.Symbolizer;
import org.rocprofsys.sampler.unwind.AddressSpace;
import org.rocprofsys.sampler.unwind.RegisterSet;
import org.rocprofsys.sampler.unwind.UnwindResult;
import org.rocprofsys.sampler.unwind.Unwinder;

/**
 * The collector's half of the agent's timer sampler (agent_timer.c): configures the agent's
 * timers through the target's environment, and, as a stage in front of the sinks, turns the raw
 * STACK_SAMPLE records ({@link AgentStackSample}) into {@link StackSample}s exactly as perf
 * samples are made: DWARF CFI unwinding over the copied stack (kept when it gets at least as deep
 * as the agent's frame-pointer walk), then the same {@link Symbolizer}. The mappings come from
 * {@code /proc/<pid>/maps}, read when a process image starts and again when a pc falls outside
 * them (at most every {@value #MAPS_RELOAD_MS} ms per process), or, once the process is gone,
 * from the copy its agent wrote at init and at exit. That work runs on a worker thread
 * of its own, so that the collector thread keeps the rings drained.
 *
 * <p>Each sample stands for the wall time since the thread's previous sample (the timer period for
 * its first) and for the thread's CPU time since then, so realtime samples of a sleeping thread
 * fill sampling_wall_clock while adding next to nothing to sampling_cpu_clock.
 *
 * <p>The same stage applies the thread filter of perf's CPU-time samples (SAMPLING_TIDS and
 * SAMPLING_CPUTIME_TIDS), using the thread numbers the agent reports, and prints upstream's
 * verbose lines for every sampled thread.
 */
public final class AgentSampling implements BackgroundSource {
    static final long MAPS_RELOAD_MS = 100;

    /**
     * One timer of the agent.
     *
     * @param kind    CPU: thread CPU time (CLOCK_THREAD_CPUTIME_ID), WALL: wall clock
     * @param signal  the signal it raises
     * @param hz      samples per second of its clock
     * @param delayNs first sample after this much of its clock on each thread
     * @param threads the thread numbers it samples
     */
    public record Timer(StackSample.Kind kind, int signal, double hz, long delayNs, ThreadFilter threads) {
        public Timer {
            if (!(hz > 0)) {
                throw new IllegalArgumentException("sampling frequency must be above 0, not " + hz);
            }
        }

        long periodNs() {
            return Math.max(1000, Math.round(1e9 / hz));
        }

        String agentSpec() {
            return (kind == StackSample.Kind.CPU ? "cputime" : "realtime") + ":" + signal + ":" + periodNs() + ":"
                    + delayNs + ":" + threads.agentSpec();
        }
    }

    /** Bytes of stack the agent copies per sample (its default, ROCPROFSYS_AGENT_SAMPLE_STACK). */
    static final int STACK_BYTES = 8192;
    /** A ring holds at least this much of a thread's samples, so that a busy collector loses none. */
    static final double RING_SECONDS = 0.25;

    private final List<Timer> timers;
    private final ThreadFilter perfThreads;
    private long ringKb;
    private final long durationNs;
    private final int verbose;
    private final PrintStream log;
    private final Path procRoot;
    private Symbolizer symbolizer = StackResolver.symbolizer(false);
    private StackResolver frames = new StackResolver(symbolizer, false, true);
    private final Unwinder unwinder = new Unwinder();
    private final UnwindSpaces spaces = new UnwindSpaces();
    /** Touched by the collector thread (new images) and the worker (reloads). */
    private final Map<Integer, Long> mapsLoadedNs = new ConcurrentHashMap<>();
    /** (pid, tid) -> thread number, from the agent's THREAD_START records. */
    private final Map<Long, Integer> threadNumbers = new HashMap<>();
    /** perf samples of threads whose number is not known yet, by (pid, tid); bounded. */
    private final Map<Long, List<StackSample>> held = new HashMap<>();
    private long heldCount;
    private static final long MAX_HELD = 200_000;
    /** (pid, tid) -> {time, thread CPU ns} of its previous agent sample. */
    private final Map<Long, long[]> previous = new HashMap<>();
    private volatile boolean stopped;
    private volatile long samples;
    private volatile long unwoundByCfi;
    private volatile long failures;
    private final BlockingQueue<Runnable> work = new LinkedBlockingQueue<>();
    private final AtomicLong pending = new AtomicLong();
    private final Queue<StackSample> resolved = new ConcurrentLinkedQueue<>();
    private Thread worker;
    /** Where the agents also leave a copy of their mappings ({@code <pid>.<generation>.maps}). */
    private volatile Path sessionDirectory;
    /** pid -> exec generation of its latest image. */
    private final Map<Integer, Integer> generations = new ConcurrentHashMap<>();

    /**
     * @param timers      the agent's timers (may be empty: then only the perf thread filter applies)
     * @param perfThreads the threads whose perf samples are kept
     * @param durationNs  > 0: timers stop this long after their delay
     * @param verbose     ROCPROFSYS_VERBOSE
     */
    public AgentSampling(List<Timer> timers, ThreadFilter perfThreads, long durationNs, int verbose, PrintStream log) {
        this(timers, perfThreads, durationNs, verbose, log, Path.of("/proc"));
    }

    AgentSampling(List<Timer> timers, ThreadFilter perfThreads, long durationNs, int verbose, PrintStream log,
            Path procRoot) {
        this.timers = List.copyOf(timers);
        this.perfThreads = perfThreads;
        this.durationNs = durationNs;
        this.verbose = verbose;
        this.log = log;
        this.procRoot = procRoot;
    }

    public List<Timer> timers() {
        return timers;
    }

    /**
     * Rings of at least {@code configuredKb}, raised to hold {@value #RING_SECONDS} s of a thread's
     * samples at the timers' rates (about 8.4 KB a sample with its stack copy): 1 MiB covers the
     * default 300 Hz, 2000 Hz of wall-clock samples asks for 4 MiB.
     */
    public AgentSampling withRingKb(long configuredKb) {
        double hz = timers.stream().mapToDouble(Timer::hz).sum();
        long needed = (long) Math.ceil(hz * (STACK_BYTES + 256) * RING_SECONDS / 1024);
        this.ringKb = needed > configuredKb ? needed : 0;
        return this;
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        this.sessionDirectory = sessionDirectory;
        if (timers.isEmpty()) {
            return Map.of();
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put(WireFormat.ENV_TIMERS, String.join(";", timers.stream().map(Timer::agentSpec).toList()));
        if (durationNs > 0) {
            env.put(WireFormat.ENV_TIMER_DURATION_NS, Long.toString(durationNs));
        }
        if (ringKb > 0) {
            env.put(WireFormat.ENV_RING_KB, Long.toString(ringKb));
        }
        return env;
    }

    private boolean announcesDuration = true;

    /** SAMPLING_INCLUDE_INLINES and SAMPLING_KEEP_INTERNAL, as the perf sampler applies them. */
    AgentSampling withFrames(boolean inlines, boolean keepInternal) {
        symbolizer = StackResolver.symbolizer(inlines);
        frames = new StackResolver(symbolizer, inlines, keepInternal);
        return this;
    }

    /** Leaves the sampling-duration lines to the perf sampler running beside (one pair per run). */
    AgentSampling withoutDurationLines() {
        announcesDuration = false;
        return this;
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {
        if (durationNs > 0 && !timers.isEmpty() && verbose >= 1 && announcesDuration) {
            String d = String.format(Locale.ROOT, "%f", durationNs / 1e9);
            log.println("[rocprof-sys] Sampling will be disabled after " + d + " seconds...");
            long delay = timers.stream().mapToLong(Timer::delayNs).max().orElse(0);
            Thread.ofVirtual().name("rocprof-sys-sampling-duration").start(() -> {
                try {
                    TimeUnit.NANOSECONDS.sleep(delay + durationNs);
                } catch (InterruptedException e) {
                    return;
                }
                if (!stopped) {
                    log.println("[rocprof-sys] Sampling duration of " + d
                            + " seconds has elapsed. Shutting down sampling...");
                }
            });
        }
    }

    @Override
    public void stop(long timestampNs) {
        stopped = true;
        if (failures > 0) {
            log.println("[rocprof-sys] warning: " + failures + " of the agent's stack samples could not be resolved");
        }
    }

    /** Samples resolved so far, and how many of them the DWARF unwinder gave their stack. */
    long samples() {
        return samples;
    }

    long unwoundByCfi() {
        return unwoundByCfi;
    }

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return e -> {
            flush(downstream);
            switch (e) {
                case AgentStackSample a -> submit(() -> {
                    StackSample s = resolve(a);
                    if (s != null) {
                        resolved.add(s);
                    }
                });
                case StackSample s -> {
                    if (perfThreads.isAll()) {
                        downstream.accept(s);
                    } else if (threadNumbers.containsKey(key(s.pid(), s.tid()))) {
                        if (selected(perfThreads, s.pid(), s.tid())) {
                            downstream.accept(s);
                        }
                    } else if (heldCount < MAX_HELD) {
                        // perf's samples can come before the thread's ring says its number
                        held.computeIfAbsent(key(s.pid(), s.tid()), k -> new ArrayList<>()).add(s);
                        heldCount++;
                    }
                }
                case ProcessStarted p -> {
                    generations.put(p.pid(), p.execGeneration());
                    // now, while the process surely lives; an exec'd pid's old image has ended already
                    loadMaps(p.pid(), true);
                    if (!timers.isEmpty()) {
                        prewarm(symbolizer.maps().mappings(p.pid()));
                    }
                    downstream.accept(e);
                }
                case ThreadStarted t -> {
                    threadNumbers.put(key(t.pid(), t.tid()), t.sequence());
                    announce(t);
                    downstream.accept(e);
                    List<StackSample> waiting = held.remove(key(t.pid(), t.tid()));
                    if (waiting != null) {
                        heldCount -= waiting.size();
                        if (perfThreads.selects(t.sequence())) {
                            waiting.forEach(downstream);
                        }
                    }
                }
                case ProcessEnded p -> {
                    // every sample of the image is drained by now: resolved and handed on before its end
                    awaitIdle();
                    flush(downstream);
                    // samples of threads that never said their number (no ring): not selectable
                    held.keySet().removeIf(k -> (int) (k >>> 32) == p.pid());
                    heldCount = held.values().stream().mapToLong(List::size).sum();
                    forget(p.pid());
                    downstream.accept(e);
                }
                default -> downstream.accept(e);
            }
        };
    }

    /**
     * Resolving (unwinding, symbolizing) runs on a worker thread, in order: the collector thread
     * only copies the records out of the rings, so a slow first parse of a module never leaves a
     * ring full. Resolved samples go downstream, on the collector thread, with the next event.
     */
    private void submit(Runnable task) {
        if (worker == null) {
            worker = Thread.ofPlatform().daemon().name("rocprof-sys-agent-samples").start(this::work);
        }
        pending.incrementAndGet();
        work.add(task);
    }

    private void work() {
        while (true) {
            Runnable task;
            try {
                task = work.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                task.run();
            } catch (RuntimeException | LinkageError e) {
                failures++;
            } finally {
                pending.decrementAndGet();
            }
        }
    }

    /**
     * Waits until every task submitted so far has run: the worker runs tasks in order, so a last
     * task that completes a future marks the point.
     */
    private void awaitIdle() {
        if (pending.get() == 0) {
            return;
        }
        CompletableFuture<Void> drained = new CompletableFuture<>();
        submit(() -> drained.complete(null));
        drained.join();
    }

    private void flush(Consumer<TraceEvent> downstream) {
        for (StackSample s; (s = resolved.poll()) != null;) {
            downstream.accept(s);
        }
    }

    private boolean selected(ThreadFilter filter, int pid, int tid) {
        Integer seq = threadNumbers.get(key(pid, tid));
        return seq != null && filter.selects(seq);
    }

    /** Upstream's line per sampled thread and timer (VERBOSE >= 1). */
    private void announce(ThreadStarted t) {
        if (verbose < 1) {
            return;
        }
        for (Timer timer : timers) {
            if (timer.threads().selects(t.sequence())) {
                log.println(String.format(Locale.ROOT,
                        "[rocprof-sys][%d][SIG%d] Sampler for thread %d will be triggered %.1fx per second of "
                                + "%s-time (every %.3f milliseconds)...",
                        t.pid(), timer.signal(), t.sequence(), timer.hz(),
                        timer.kind() == StackSample.Kind.CPU ? "CPU" : "wall", 1e3 / timer.hz()));
            }
        }
    }

    private StackSample resolve(AgentStackSample a) {
        long k = key(a.pid(), a.tid());
        long[] prev = previous.get(k);
        long period = periodOf(a.kind());
        long wallNs;
        long cpuNs;
        if (prev == null) {
            wallNs = period;
            cpuNs = Math.min(a.threadCpuNs(), period);
            previous.put(k, new long[] {a.timestampNs(), a.threadCpuNs()});
        } else {
            wallNs = Math.max(0, a.timestampNs() - prev[0]);
            cpuNs = Math.max(0, a.threadCpuNs() - prev[1]);
            prev[0] = a.timestampNs();
            prev[1] = a.threadCpuNs();
        }
        List<Long> pcs = unwind(a);
        if (!pcs.isEmpty() && symbolizer.maps().find(a.pid(), pcs.getFirst()) == null && loadMaps(a.pid(), false)) {
            pcs = unwind(a); // the maps were stale (dlopen): the unwinder needs them too
        }
        List<StackFrame> kept = frames.resolve(a.pid(), pcs, true);
        if (kept.isEmpty()) {
            return null;
        }
        samples++;
        return new StackSample(a.timestampNs(), a.pid(), a.tid(), kept, a.kind(), wallNs, cpuNs);
    }

    private long periodOf(StackSample.Kind kind) {
        for (Timer t : timers) {
            if (t.kind() == kind) {
                return t.periodNs();
            }
        }
        return 1;
    }

    /** The sample's pcs, leaf first: DWARF unwinding when it gets at least as far as the frame-pointer walk. */
    private List<Long> unwind(AgentStackSample a) {
        List<Long> walk = new ArrayList<>(a.pcs().length);
        for (long pc : a.pcs()) {
            walk.add(pc);
        }
        if (a.regs().length != WireFormat.SAMPLE_NREGS || a.stack().length == 0) {
            return walk;
        }
        RegisterSet regs = new RegisterSet();
        for (int col = 0; col < a.regs().length; col++) {
            regs.set(col, a.regs()[col]);
        }
        UnwindResult r = unwinder.unwind(regs, a.stack(), a.stackPointer(), space(a.pid()));
        if (r.depth() >= walk.size()) {
            unwoundByCfi++;
            return r.pcs();
        }
        return walk;
    }

    /**
     * Loads the symbols and CFI of a new image's modules on a background thread, so that the first
     * samples do not hold the collector thread (and the rings it drains) for the first parse of libc.
     * Both caches are thread-safe; a module the collector thread needs first is simply loaded there.
     */
    private void prewarm(List<ProcessMaps.Mapping> mappings) {
        Set<String> seen = new HashSet<>();
        List<ProcessMaps.Mapping> files = mappings.stream()
                .filter(m -> m.executable() && m.path().startsWith("/") && seen.add(m.path())).toList();
        if (files.isEmpty()) {
            return;
        }
        Thread.ofVirtual().name("rocprof-sys-symbols-prewarm").start(() -> {
            for (ProcessMaps.Mapping m : files) {
                if (stopped) {
                    return;
                }
                try {
                    symbolizer.symbols(m);
                    unwinder.modules().get(m.path());
                } catch (RuntimeException e) {
                    // unreadable module: the resolver reports nothing for it either
                }
            }
        });
    }

    /** Reads /proc/pid/maps (again); returns whether it did. */
    private boolean loadMaps(int pid, boolean newImage) {
        long now = System.nanoTime();
        Long last = mapsLoadedNs.get(pid);
        if (!newImage && last != null && now - last < TimeUnit.MILLISECONDS.toNanos(MAPS_RELOAD_MS)) {
            return false;
        }
        mapsLoadedNs.put(pid, now);
        ProcessMaps maps = symbolizer.maps();
        ProcessMaps fresh = new ProcessMaps();
        ProcMapsSeed.load(procRoot, pid, fresh);
        List<ProcessMaps.Mapping> found = fresh.mappings(pid);
        Path dir = sessionDirectory;
        if (found.isEmpty() && dir != null) {
            // gone already (a short process, or a collector slow to start): the agent's copy
            ProcMapsSeed.loadFile(dir.resolve(pid + "." + generations.getOrDefault(pid, 0) + ".maps"), pid, fresh);
            found = fresh.mappings(pid);
        }
        if (found.isEmpty() && !newImage) {
            return false; // the process is gone: keep what was known
        }
        maps.exec(pid);
        found.forEach(m -> maps.add(pid, m));
        spaces.changed(pid);
        return !newImage;
    }

    /** The unwinder's view of a process's executable mappings, rebuilt when they changed. */
    private AddressSpace space(int pid) {
        return spaces.of(pid, symbolizer.maps());
    }

    private void forget(int pid) {
        symbolizer.maps().remove(pid);
        spaces.forget(pid);
        mapsLoadedNs.remove(pid);
        generations.remove(pid);
        previous.keySet().removeIf(k -> (int) (k >>> 32) == pid);
        // thread numbers stay: perf's samples of an ended process can still be on their way
    }

    private static long key(int pid, int tid) {
        return ((long) pid << 32) | (tid & 0xffffffffL);
    }
}

