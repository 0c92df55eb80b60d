package org.rocprofsys.sampler.source;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.tracker.ThreadTable;
import org.rocprofsys.core.wire.WireFormat;
import org.rocprofsys.sampler.symbols.ProcessMaps;
import org.rocprofsys.sampler.symbols.Symbolizer;
import org.rocprofsys.sampler.unwind.AddressSpace;
import org.rocprofsys.sampler.unwind.RegisterSet;
import org.rocprofsys.sampler.unwind.UnwindResult;
import org.rocprofsys.sampler.unwind.Unwinder;

/**
 * Turns the agent's raw STACK_SAMPLE records ({@link AgentStackSample}) into {@link StackSample}s
 * exactly as perf samples are made, on a worker thread of its own, in order: DWARF CFI unwinding
 * over the copied stack (kept when it gets at least as deep as the agent's frame-pointer walk), then
 * the same {@link StackResolver}. The collector thread only submits records and takes the resolved
 * samples, so a slow first parse of a module never leaves a ring full.
 *
 * <p>The mappings come from {@code /proc/<pid>/maps}, read when a process image starts and again
 * when a pc falls outside them (at most every {@value #MAPS_RELOAD_MS} ms per process), or, once the
 * process is gone, from the copy its agent wrote at init and at exit.
 *
 * <p>Each sample stands for the wall time since the thread's previous sample (the timer period for
 * its first) and for the thread's CPU time since then, so realtime samples of a sleeping thread fill
 * sampling_wall_clock while adding next to nothing to sampling_cpu_clock.
 */
final class AgentSampleResolver {
    static final long MAPS_RELOAD_MS = 100;

    private final AgentTimers timers;
    private final Path procRoot;
    private final Symbolizer symbolizer;
    private final StackResolver frames;
    private final Unwinder unwinder = new Unwinder();
    private final UnwindSpaces spaces = new UnwindSpaces();
    /** Touched by the collector thread (new images) and the worker (reloads). */
    private final Map<Integer, Long> mapsLoadedNs = new ConcurrentHashMap<>();
    /** (pid, tid) -> {time, thread CPU ns} of its previous sample; the worker's. */
    private final Map<Long, long[]> previous = new HashMap<>();

    private final BlockingQueue<Runnable> work = new LinkedBlockingQueue<>();
    private final AtomicLong pending = new AtomicLong();
    private final Queue<StackSample> resolved = new ConcurrentLinkedQueue<>();
    private Thread worker;
    /** Where the agents also leave a copy of their mappings ({@code <pid>.<generation>.maps}). */
    private volatile Path sessionDirectory;
    /** pid -> exec generation of its latest image. */
    private final Map<Integer, Integer> generations = new ConcurrentHashMap<>();

    private volatile boolean stopped;
    private volatile long samples;
    private volatile long unwoundByCfi;
    private volatile long failures;

    /**
     * @param timers       the timers whose samples these are (a first sample's interval is its period)
     * @param inlines      SAMPLING_INCLUDE_INLINES
     * @param keepInternal SAMPLING_KEEP_INTERNAL
     * @param procRoot     {@code /proc}, but in tests
     */
    AgentSampleResolver(AgentTimers timers, boolean inlines, boolean keepInternal, Path procRoot) {
        this.timers = timers;
        this.procRoot = procRoot;
        this.symbolizer = StackResolver.symbolizer(inlines);
        this.frames = new StackResolver(symbolizer, inlines, keepInternal);
    }

    /** Where the agents leave their copies of the mappings. */
    void sessionDirectory(Path dir) {
        this.sessionDirectory = dir;
    }

    /** A process image starts: its mappings, read now while it surely lives, and its modules parsed ahead. */
    void imageStarted(ProcessStarted p) {
        generations.put(p.pid(), p.execGeneration());
        // an exec'd pid's old image has ended already
        loadMaps(p.pid(), true);
        if (!timers.isEmpty()) {
            prewarm(symbolizer.maps().mappings(p.pid()));
        }
    }

    /** Resolves {@code a} on the worker; the result (if any frame is left) comes out of {@link #drainTo}. */
    void submit(AgentStackSample a) {
        if (worker == null) {
            worker = Thread.ofPlatform()
                    .daemon()
                    .name("rocprof-sys-agent-samples")
                    .start(this::work);
        }
        pending.incrementAndGet();
        work.add(() -> {
            StackSample s = resolve(a);
            if (s != null) {
                resolved.add(s);
            }
        });
    }

    /** Hands on the samples resolved so far, in submission order. */
    void drainTo(Consumer<? super StackSample> out) {
        for (StackSample s; (s = resolved.poll()) != null; ) {
            out.accept(s);
        }
    }

    /**
     * Waits until every submitted sample is resolved: the worker runs tasks in order, so a last
     * task that completes a future marks the point.
     */
    void awaitIdle() {
        if (pending.get() == 0) {
            return;
        }
        CompletableFuture<Void> drained = new CompletableFuture<>();
        pending.incrementAndGet();
        work.add(() -> drained.complete(null));
        drained.join();
    }

    /** Forgets an ended process (after {@link #awaitIdle}). */
    void processEnded(int pid) {
        symbolizer.maps().remove(pid);
        spaces.forget(pid);
        mapsLoadedNs.remove(pid);
        generations.remove(pid);
        previous.keySet().removeIf(k -> (int) (k >>> 32) == pid);
    }

    /** No more modules are parsed ahead. */
    void stop() {
        stopped = true;
    }

    /** Samples resolved so far. */
    long samples() {
        return samples;
    }

    /** How many of them the DWARF unwinder gave their stack. */
    long unwoundByCfi() {
        return unwoundByCfi;
    }

    /** Samples whose resolution failed. */
    long failures() {
        return failures;
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

    private StackSample resolve(AgentStackSample a) {
        long k = ThreadTable.key(a.pid(), a.tid());
        long[] prev = previous.get(k);
        long period = timers.periodNs(a.kind());
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

    /** The sample's pcs, leaf first: DWARF unwinding when it gets at least as far as the frame-pointer walk. */
    private List<Long> unwind(AgentStackSample a) {
        List<Long> walk = new ArrayList<>(a.pcs().length);
        for (long pc : a.pcs()) {
            walk.add(pc);
        }
        if (a.regs().length != WireFormat.SAMPLE_NREGS || a.stack().length == 0) {
            return walk;
        }
        UnwindResult r = unwinder.unwind(RegisterSet.ofColumns(a.regs()), a.stack(), a.stackPointer(), space(a.pid()));
        if (r.depth() >= walk.size()) {
            unwoundByCfi++;
            return r.pcs();
        }
        return walk;
    }

    /**
     * Loads the symbols and CFI of a new image's modules on a background thread, so that the first
     * samples do not wait for the first parse of libc. Both caches are thread-safe; a module the
     * worker needs first is simply loaded there.
     */
    private void prewarm(List<ProcessMaps.Mapping> mappings) {
        Set<String> seen = new HashSet<>();
        List<ProcessMaps.Mapping> files = mappings.stream()
                .filter(m -> m.executable() && m.path().startsWith("/") && seen.add(m.path()))
                .toList();
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
}
