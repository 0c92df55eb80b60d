package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.pipeline.HeldRecords;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.core.spi.ExecGateAttacher;
import org.rocprofsys.core.spi.InterceptStage;
import org.rocprofsys.ffm.ThreadNice;
import org.rocprofsys.ffm.WakePipe;
import org.rocprofsys.sampler.counters.PerfCounter;
import org.rocprofsys.sampler.perf.PerfEventAttr;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfException;
import org.rocprofsys.sampler.perf.PerfRecord;
import org.rocprofsys.sampler.perf.PerfUnavailableException;
import org.rocprofsys.sampler.perf.RingCopies;
import org.rocprofsys.sampler.symbols.Symbolizer;
import org.rocprofsys.sampler.unwind.AddressSpace;
import org.rocprofsys.sampler.unwind.RegisterSet;
import org.rocprofsys.sampler.unwind.UnwindResult;
import org.rocprofsys.sampler.unwind.Unwinder;
import org.rocprofsys.sampler.unwind.X86Regs;

/**
 * Call-stack sampling of the target and its descendants with cpu-clock perf events, outside the
 * target: the events are attached right after the spawn, the rings are drained on this source's
 * thread, and each user-mode sample is unwound (DWARF CFI over the copied user stack, so code
 * without frame pointers unwinds), symbolized and handed on as a {@link StackSample}. Samples
 * outside the SAMPLING_DELAY / SAMPLING_DURATION window are dropped here rather than by timers
 * in the target.
 *
 * <p>With CPU counters (ROCPROFSYS_PAPI_EVENTS), each CPU's sampling event leads a group of them
 * and every sample carries their counts ({@link PerfSampleCounts}); the changes become the
 * {@code Thread <event> [<n>] (S)} tracks of {@link SampleCounters}, named in this source's
 * intercept stage once THREAD_START has numbered the thread. A kernel before Linux 6.12 refuses
 * such samples of inherited events: the source then says so once and samples without counters
 * ({@link CallStackSampling} normally sees that before the launch and picks the agent's timers).
 *
 * <p>While the target runs, only the reader works: it copies the rings' records into memory, and
 * the unwinder waits. Unwinding, symbolizing and writing the samples is CPU time, and on a machine
 * whose CPUs the target fills every CPU-second of the collector is one the target loses
 * (docs/benchmarks.md, "Analysis after the run"). The held records are analysed when sampling
 * stops, or, in long runs, whenever they exceed {@link #holdBytes} (then down to half of it).
 */
public final class PerfSamplingSource implements EventSource, ExecGateAttacher, InterceptStage {
    /** Bytes of user stack copied per sample: deep enough for ordinary call chains. */
    static final int STACK_BYTES = 8192;
    /**
     * 1 + 1024 pages per CPU (about 500 samples of 8 KiB stack: half a second at 1 kHz while a busy
     * target keeps the reader off the CPU); smaller where the locked-memory limit refuses it.
     */
    static final int RING_PAGES_LOG2 = 10;

    static final int MIN_RING_PAGES_LOG2 = 7;
    /**
     * The reader's longest sleep: the rings' watermark and {@link #stop} wake it before that. Each
     * wake-up of a thread costs 50-250 µs of CPU time on a small virtual machine, taken from the
     * target.
     */
    private static final int POLL_MS = 1000;
    /** How long the reader naps when the target's ended events leave its rings readable. */
    private static final int HUNG_UP_NAP_MS = 10;
    /** The reader is woken when a ring is half full: a few times a second at 1 kHz, leaving it a quarter second to come. */
    private static final int WAKEUP_RING_FRACTION = 2;
    /** About what one sample takes in a ring: its 8 KiB of stack, registers, callchain and header. */
    private static final long SAMPLE_BYTES = STACK_BYTES + 256;
    /** Copies made room for before the target starts: this many seconds of one thread's samples... */
    private static final long RESERVE_SECONDS = 8;
    /** ...but no more than this. */
    private static final long MAX_RESERVE_BYTES = 64L << 20;

    /**
     * @param freqHz     samples per second of CPU time
     * @param delayNs    samples before this long after the start are dropped
     * @param durationNs samples after delay + this are dropped (0: until the end)
     * @param counterNames the run's CPU counters (ROCPROFSYS_PAPI_EVENTS), read with every sample
     * @param counterSlots per name, its event, or empty where it was refused
     *                     ({@link org.rocprofsys.sampler.counters.CpuEventResolver})
     */
    public record Config(
            long freqHz,
            long delayNs,
            long durationNs,
            boolean keepInternal,
            int verbose,
            PerfEventAttr event,
            boolean inlines,
            List<String> counterNames,
            List<Optional<PerfCounter>> counterSlots) {
        public Config {
            counterNames = List.copyOf(counterNames);
            counterSlots = List.copyOf(counterSlots);
        }

        public Config(long freqHz, long delayNs, long durationNs) {
            this(freqHz, delayNs, durationNs, false, 0, null, false, List.of(), List.of());
        }

        /** This configuration with the CPU counters read with every sample. */
        public Config withCounters(List<String> names, List<Optional<PerfCounter>> slots) {
            return new Config(freqHz, delayNs, durationNs, keepInternal, verbose, event, inlines, names, slots);
        }

        /** The sampled event: the cpu-clock at freqHz unless an overflow event was chosen. */
        PerfEventAttr base() {
            return event != null ? event : PerfEventAttr.clockSampling(false, freqHz);
        }

        /** How upstream words the trigger: "1000.0x per second of CPU-time (every 1.000 milliseconds)". */
        String trigger() {
            if (event != null && !event.has(PerfEventAttr.FLAG_FREQ)) {
                return "every " + event.samplePeriodOrFreq() + " events of " + PerfEvents.eventName(event);
            }
            return String.format(
                    java.util.Locale.ROOT,
                    "%.1fx per second of CPU-time (every %.3f milliseconds)",
                    (double) freqHz,
                    1000.0 / freqHz);
        }
    }

    private final Config config;
    private final PrintStream log;
    private final Symbolizer symbolizer;
    private final StackResolver frames;
    private final Unwinder unwinder = new Unwinder();
    private final UnwindSpaces spaces = new UnwindSpaces();
    /**
     * What sampling cost the collector (benchmarks): CPU time of the reader and unwinder threads,
     * and wall time spent unwinding and symbolizing, over {@code samples} samples.
     */
    public record Stats(long samples, long readerCpuNs, long unwinderCpuNs, long unwindNs, long symbolizeNs) {}

    private volatile long readerCpuNs;
    private volatile long unwinderCpuNs;
    private long unwindNs;
    private long symbolizeNs;

    /** Valid after {@link #stop}. */
    public Stats stats() {
        return new Stats(taken, readerCpuNs, unwinderCpuNs, unwindNs, symbolizeNs);
    }

    private volatile boolean stopping;
    private boolean durationOver;
    /** Off when the agent's timers print the duration lines, after their own trigger lines. */
    private boolean announcesDuration = true;

    private int rootPid;
    private final Map<Integer, Integer> threadsSeen = new HashMap<>();
    /** Samples waiting for their process's perf map, by pid (bounded: beyond it they go unnamed). */
    private final Map<Integer, List<Unresolved>> deferred = new HashMap<>();

    private long deferredCount;
    private static final long MAX_DEFERRED = 2_000_000;
    private PerfEvents events;
    private boolean attachedBeforeExec;
    private Thread thread;
    /** Woken by {@link #stop} to end the reader's sleep. */
    private WakePipe stopPipe;

    private Thread processor;
    /** What the reader copied from the rings at each wake-up, in order; an empty list ends it. */
    private final LinkedBlockingQueue<List<PerfEvents.Copy>> batches = new LinkedBlockingQueue<>();
    /** Bytes the reader copied and the unwinder has not analysed yet. */
    private final AtomicLong heldBytes = new AtomicLong();

    private final Object hold = new Object();
    /** Where the reader's copies wait; made with the events. */
    private RingCopies copies;

    private long holdBytes;
    /** Batches the unwinder has taken up so far (tests). */
    private final AtomicInteger batchesAnalysed = new AtomicInteger();

    private long windowStartNs;
    private long windowEndNs;
    private long taken;
    /** The CPU counters in the samples (none when the kernel refused them); the unwinder's. */
    private PerfSampleCounts counts;
    /** Names the counter changes on their threads' tracks; the collector thread's. */
    private final SampleCounters counterTracks;
    /** Changes the unwinder made, for the intercept stage to name. */
    private final Queue<SampleCounters.Changes> counterChanges = new ConcurrentLinkedQueue<>();

    private Consumer<TraceEvent> out;
    /** The event whose overflows are sampled, or null for the CPU-time sampler. */
    private String overflowEvent;
    /** Whether the events sample kernel-mode time too (decided when they are opened). */
    private boolean kernel;
    /** Where {@link KernelSampling} reads this process's capabilities and the kernel's paranoia. */
    private ProcFs proc = ProcFs.system();

    private boolean kernelNamesChecked;

    public PerfSamplingSource(Config config, PrintStream log) {
        this.config = config;
        this.symbolizer = StackResolver.symbolizer(config.inlines());
        this.frames = new StackResolver(symbolizer, config.inlines(), config.keepInternal());
        this.log = log;
        this.counts = new PerfSampleCounts(config.counterNames(), config.counterSlots());
        this.counterTracks = new SampleCounters(config.counterNames());
        this.holdBytes = HeldRecords.defaultBytes();
    }

    /** The cpu-clock event this source opens by default (also the collector's perf probe). */
    static PerfEventAttr attr(long freqHz) {
        return sampling(PerfEventAttr.clockSampling(false, freqHz), RING_PAGES_LOG2, false);
    }

    /**
     * {@code base} with the user stack and registers of every sample, for rings of 2^log2 pages;
     * user-mode time only unless {@code kernel}.
     */
    private static PerfEventAttr sampling(PerfEventAttr base, int ringPagesLog2, boolean kernel) {
        return (kernel ? base : base.userOnly())
                .withUserStack(PerfEventAttr.X86_64_REGS_UNWIND, STACK_BYTES)
                .withWakeupWatermark((4096 << ringPagesLog2) / WAKEUP_RING_FRACTION);
    }

    /** Decides kernel sampling from {@code root}'s files instead of /proc's (tests). */
    PerfSamplingSource withProc(ProcFs root) {
        proc = root;
        return this;
    }

    /** The held records are analysed beyond {@code bytes} (tests; the default is {@link HeldRecords#defaultBytes}). */
    PerfSamplingSource withHoldBytes(long bytes) {
        holdBytes = bytes;
        return this;
    }

    int batchesAnalysed() {
        return batchesAnalysed.get();
    }

    /**
     * Makes this the overflow sampler (SAMPLING_OVERFLOW): its samples are {@link
     * StackSample.Kind#OVERFLOW} samples of {@code event}, upstream's name of the event.
     */
    PerfSamplingSource overflowSamples(String event) {
        overflowEvent = event;
        return this;
    }

    /** Leaves upstream's two duration lines to the agent's timers, which print them after their trigger lines. */
    PerfSamplingSource withoutDurationLines() {
        announcesDuration = false;
        return this;
    }

    private PerfEventAttr attr(int ringPagesLog2) {
        return sampling(config.base(), ringPagesLog2, kernel);
    }

    /** Events enabled by the kernel when the held process execs the command: no sample is missed. */
    @Override
    public void attachBeforeExec(int pid) {
        try {
            events = openEvents(pid, true);
        } catch (PerfException e) {
            refused(e);
            return;
        }
        attachedBeforeExec = true;
        // the target runs from its release, just after this, while the collector still opens its
        // outputs (long on a loaded machine): its samples are in the window and the rings are read
        // from now on, so neither the window nor the kernel's rings lose them
        openWindow(pid, System.nanoTime());
    }

    private void openWindow(int pid, long startNs) {
        copies = new RingCopies(Math.max(events.ringDataBytes(), 1 << 20));
        // faulted in now, while the target still waits (about 30 ms for 64 MiB), rather than one
        // page at a time as the samples arrive, in the target's time
        copies.reserve(
                Math.min(Math.min(holdBytes, MAX_RESERVE_BYTES), config.freqHz() * RESERVE_SECONDS * SAMPLE_BYTES));
        rootPid = pid;
        windowStartNs = startNs + config.delayNs();
        windowEndNs = config.durationNs() > 0 ? windowStartNs + config.durationNs() : Long.MAX_VALUE;
        stopPipe = new WakePipe();
        thread = Thread.ofPlatform().daemon().name("rocprof-sys-sampler").start(this::read);
    }

    /**
     * The events with the counters in their group; where that group cannot be opened (a kernel
     * before Linux 6.12 refuses counts in the samples of inherited events), the events alone after
     * one warning: the samples matter more than their counters.
     */
    private PerfEvents openEvents(int pid, boolean onExec) throws PerfException {
        if (overflowEvent != null) {
            // upstream's overflow sampler counts user-mode events only (exclude_kernel, inventory §5)
            kernel = false;
            return openGroup(pid, onExec);
        }
        Optional<String> refusal = KernelSampling.refusal(proc);
        kernel = refusal.isEmpty();
        try {
            return openGroup(pid, onExec);
        } catch (PerfUnavailableException e) {
            if (!kernel || e.reason() != PerfUnavailableException.Reason.PERMISSION) {
                throw e;
            }
            // allowed on paper, refused in fact (a seccomp profile, a security module)
            refusal = Optional.of("perf_event_open refused them: " + e.getMessage());
            kernel = false;
            return openGroup(pid, onExec);
        } finally {
            refusal.ifPresent(why ->
                    log.println("[rocprof-sys] warning: kernel-mode CPU time is not sampled (user-mode only): " + why));
        }
    }

    private PerfEvents openGroup(int pid, boolean onExec) throws PerfException {
        if (counts.isEmpty()) {
            return openRings(pid, onExec);
        }
        try {
            return openRings(pid, onExec);
        } catch (PerfException e) {
            counts = PerfSampleCounts.none();
            PerfEvents alone = openRings(pid, onExec); // refused too: the sampler's own failure
            log.println("[rocprof-sys] warning: perf's samples carry no CPU counters: " + e.getMessage()
                    + (e instanceof PerfUnavailableException u
                                    && u.reason() == PerfUnavailableException.Reason.NO_SAMPLE_READ
                            ? "; the agent's timer sampler records them (" + CallStackSampling.USE_PERF_ENV + "=OFF)"
                            : ""));
            return alone;
        }
    }

    /** The largest rings the locked-memory limit allows (mmap EPERM/ENOMEM: try half the size). */
    private PerfEvents openRings(int pid, boolean onExec) throws PerfException {
        for (int log2 = RING_PAGES_LOG2; ; log2--) {
            try {
                return onExec
                        ? PerfEvents.openOnExec(pid, attr(log2), counts.members(), log2)
                        : PerfEvents.open(pid, attr(log2), counts.members(), log2);
            } catch (PerfException e) {
                boolean memory = e.errno() == 1 || e.errno() == 12;
                if (!memory || log2 == MIN_RING_PAGES_LOG2 || !e.getMessage().contains("mmap")) {
                    throw e;
                }
            }
        }
    }

    private void refused(PerfException e) {
        log.println("[rocprof-sys] warning: call-stack sampling is off: " + e.getMessage());
        if (events != null) {
            events.close();
            events = null;
        }
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {
        this.out = out;
        if (!attachedBeforeExec) {
            try {
                events = openEvents(targetPid, false);
                events.enable();
            } catch (PerfException e) {
                refused(e);
                return;
            }
            // what the target mapped before the events existed is not reported by the kernel
            ProcMapsSeed.load(Path.of("/proc"), targetPid, symbolizer.maps());
            spaces.changed(targetPid);
            openWindow(targetPid, System.nanoTime());
        } else if (events == null) {
            return;
        }
        announceThread(targetPid);
        if (announcesDuration && config.verbose() >= 1 && config.durationNs() > 0) {
            log.printf(
                    java.util.Locale.ROOT,
                    "[rocprof-sys][%d] Sampling will be disabled after %f seconds...%n",
                    targetPid,
                    config.durationNs() / 1e9);
        }
        processor = Thread.ofPlatform().daemon().name("rocprof-sys-unwinder").start(() -> process(out));
    }

    /**
     * Empties the kernel's rings as fast as it can (copying their bytes only), so a busy or
     * waiting unwinder never makes the kernel drop records; batches go to the unwinder in order.
     */
    private void read() {
        try {
            readUntilStopped();
        } catch (RuntimeException | Error e) {
            // e.g. no memory left for the copies: what was read is still analysed, and nothing waits for more
            log.println("[rocprof-sys] warning: call-stack sampling stopped early: " + e);
        } finally {
            readerCpuNs = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            batches.add(List.of()); // end of stream
        }
    }

    private void readUntilStopped() {
        while (!stopping) {
            events.await(pollMs(), stopPipe.readFd());
            if (!durationOver && System.nanoTime() > windowEndNs) {
                durationOver = true;
                try {
                    events.disable();
                } catch (PerfException e) {
                    // samples after the window are dropped anyway
                }
                if (announcesDuration && config.verbose() >= 1) {
                    log.printf(
                            java.util.Locale.ROOT,
                            "[rocprof-sys][%d] Sampling duration of %f seconds has elapsed."
                                    + " Shutting down sampling...%n",
                            rootPid,
                            config.durationNs() / 1e9);
                }
            }
            if (readBatch() == 0 && !stopping) {
                // an ended target leaves its events readable (hung up): do not spin on them
                sleep();
            }
        }
        readBatch();
    }

    /** Until the sampling window ends, or the longest sleep. */
    private int pollMs() {
        if (durationOver || windowEndNs == Long.MAX_VALUE) {
            return POLL_MS;
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(windowEndNs - System.nanoTime()) + 1;
        return (int) Math.clamp(ms, 1, POLL_MS);
    }

    /** Copies what the rings hold (decoding waits for the unwinder); returns how many bytes. */
    private long readBatch() {
        List<PerfEvents.Copy> batch = events.copyPending(copies);
        long n = bytes(batch);
        if (n > 0) {
            batches.add(batch);
            if (heldBytes.addAndGet(n) >= holdBytes) {
                synchronized (hold) {
                    hold.notifyAll();
                }
            }
        }
        return n;
    }

    private static long bytes(List<PerfEvents.Copy> batch) {
        long n = 0;
        for (PerfEvents.Copy c : batch) {
            n += c.bytes().byteSize();
        }
        return n;
    }

    /** Waits while sampling goes on and the held records fit in {@link #holdBytes}. */
    private void holdWhileSampling() throws InterruptedException {
        synchronized (hold) {
            while (!stopping && heldBytes.get() < holdBytes) {
                hold.wait();
            }
        }
    }

    private void process(Consumer<TraceEvent> out) {
        // unwinding can wait for an idle CPU: its input queue holds what the reader copied
        ThreadNice.lowerCurrentThread();
        try {
            holdWhileSampling();
            for (List<PerfEvents.Copy> b; !(b = batches.take()).isEmpty(); ) {
                batchesAnalysed.incrementAndGet();
                List<PerfRecord> records = new ArrayList<>();
                events.decode(b, records::add);
                b.forEach(c -> copies.consumed()); // decoded records hold copies of their own
                handle(records, out);
                if (heldBytes.addAndGet(-bytes(b)) < holdBytes / 2) {
                    holdWhileSampling();
                }
            }
            for (Integer pid : List.copyOf(deferred.keySet())) {
                flushDeferred(pid, out);
            }
            unwinderCpuNs = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One batch, in time order so mappings precede the samples that need them. */
    private void handle(List<PerfRecord> batch, Consumer<TraceEvent> out) {
        batch.sort(Comparator.comparingLong(PerfRecord::time));
        for (PerfRecord r : batch) {
            switch (r) {
                case PerfRecord.Sample s -> sample(s, out);
                case PerfRecord.Mmap m -> mapsChanged(r, m.pid());
                case PerfRecord.Fork f -> {
                    mapsChanged(r, f.pid());
                    announceThread(f.pid());
                }
                case PerfRecord.Comm c -> mapsChanged(r, c.pid());
                case PerfRecord.Exit e -> {
                    counts.threadEnded(e.tid());
                    if (e.pid() == e.tid()) {
                        flushDeferred(e.pid(), out);
                    }
                }
                default -> {}
            }
        }
    }

    /** Upstream's per-thread line at VERBOSE >= 1, numbering each process's threads from 0. */
    private void announceThread(int pid) {
        int n = threadsSeen.merge(pid, 1, Integer::sum) - 1;
        if (config.verbose() >= 1) {
            log.println("[rocprof-sys][" + pid + "][perf] Sampler for thread " + n + " will be triggered "
                    + config.trigger() + "...");
        }
    }

    private void mapsChanged(PerfRecord r, int pid) {
        symbolizer.accept(r);
        spaces.changed(pid);
    }

    private void sample(PerfRecord.Sample s, Consumer<TraceEvent> out) {
        // every sample moves its thread's counter baseline, those in the window give changes
        long[] changes = counts.changes(s, events::member);
        if (s.time() < windowStartNs || s.time() > windowEndNs) {
            return;
        }
        if (changes != null) {
            counterChanges.add(new SampleCounters.Changes(s.time(), s.pid(), s.tid(), changes));
        }
        boolean inKernel = s.cpumode() == PerfRecord.CPUMODE_KERNEL;
        if (!s.userMode() && !inKernel) {
            return;
        }
        long t0 = System.nanoTime();
        List<Long> pcs = mapped(s.pid(), unwind(s));
        if (inKernel) {
            pcs = withKernelFrames(s, pcs);
        }
        Unresolved u = new Unresolved(s.time(), s.pid(), s.tid(), s.period(), pcs);
        unwindNs += System.nanoTime() - t0;
        if (!emit(u, out, false) && deferredCount < MAX_DEFERRED) {
            deferred.computeIfAbsent(s.pid(), k -> new ArrayList<>()).add(u);
            deferredCount++;
        }
    }

    /**
     * The kernel's frames (innermost first) in front of the user-mode stack that made the system
     * call: perf's view of a kernel sample. Said once when the kernel's frames cannot be named.
     */
    private List<Long> withKernelFrames(PerfRecord.Sample s, List<Long> user) {
        long[] k = s.kernelFrames();
        if (k.length == 0) {
            return user;
        }
        if (!kernelNamesChecked) {
            kernelNamesChecked = true;
            String why = symbolizer.kernelSymbols().unavailableReason();
            if (why != null) {
                log.println("[rocprof-sys] warning: kernel frames are shown as [unknown]: " + why);
            }
        }
        List<Long> pcs = new ArrayList<>(k.length + user.size());
        for (long pc : k) {
            pcs.add(pc);
        }
        pcs.addAll(user);
        return pcs;
    }

    /**
     * The pcs up to the first caller that lies in no mapping: an unwinder that lost its way (a
     * frame-pointer walk through code that uses rbp otherwise) only finds garbage beyond it.
     */
    private List<Long> mapped(int pid, List<Long> pcs) {
        for (int i = 1; i < pcs.size(); i++) {
            if (symbolizer.maps().find(pid, pcs.get(i) - 1) == null) {
                return pcs.subList(0, i);
            }
        }
        return pcs;
    }

    /** A sample whose JIT frames may be named later, when its process has written its perf map. */
    private record Unresolved(long time, int pid, int tid, long period, List<Long> pcs) {}

    /**
     * Symbolizes and hands on a sample; returns false (and emits nothing) when a frame lies in
     * anonymous executable memory that no perf map names yet, unless {@code force}: a JVM started
     * with -XX:+DumpPerfMapAtExit writes its map only when it exits.
     */
    private boolean emit(Unresolved u, Consumer<TraceEvent> out, boolean force) {
        long t0 = System.nanoTime();
        try {
            return symbolizeAndEmit(u, out, force);
        } finally {
            symbolizeNs += System.nanoTime() - t0;
        }
    }

    private boolean symbolizeAndEmit(Unresolved u, Consumer<TraceEvent> out, boolean force) {
        List<StackFrame> kept = frames.resolve(u.pid(), u.pcs(), force);
        if (kept == null) {
            return false;
        }
        if (kept.isEmpty()) {
            return true;
        }
        taken++;
        out.accept(
                overflowEvent != null
                        ? StackSample.overflow(u.time(), u.pid(), u.tid(), kept, overflowEvent, u.period())
                        : new StackSample(u.time(), u.pid(), u.tid(), kept, StackSample.Kind.CPU, u.period()));
        return true;
    }

    /** The held samples of a process that ended (its perf map, if any, is complete now). */
    private void flushDeferred(int pid, Consumer<TraceEvent> out) {
        List<Unresolved> held = deferred.remove(pid);
        if (held == null) {
            return;
        }
        symbolizer.reloadPerfMap(pid);
        for (Unresolved u : held) {
            emit(u, out, true);
        }
        deferredCount -= held.size();
    }

    /** The sample's pcs, leaf first: DWARF unwinding when it gets further than the kernel's callchain. */
    private List<Long> unwind(PerfRecord.Sample s) {
        List<Long> callchain = new ArrayList<>();
        for (long pc : s.userFrames()) {
            callchain.add(pc);
        }
        if (s.userRegsAbi() == 0 || s.userRegs().length == 0) {
            return callchain;
        }
        RegisterSet regs = X86Regs.fromPerf(events.attr().sampleRegsUser(), s.userRegs());
        UnwindResult r = unwinder.unwind(regs, s.userStack(), regs.sp(), space(s.pid()));
        return r.depth() >= callchain.size() ? r.pcs() : callchain;
    }

    /** The unwinder's view of a process's executable mappings, rebuilt when they changed. */
    private AddressSpace space(int pid) {
        return spaces.of(pid, symbolizer.maps());
    }

    private static void sleep() {
        try {
            Thread.sleep(HUNG_UP_NAP_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Names the counter changes on the collector thread, where THREAD_START gives each thread its
     * number: at every event, the changes made since go on (or wait for their thread's number).
     */
    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        if (counterTracks.isEmpty()) {
            return downstream;
        }
        return e -> {
            nameChanges(downstream);
            switch (e) {
                case ThreadStarted t -> {
                    downstream.accept(t);
                    counterTracks.started(t, downstream);
                }
                case ProcessEnded p -> {
                    counterTracks.ended(p.pid(), downstream);
                    downstream.accept(p);
                }
                default -> downstream.accept(e);
            }
        };
    }

    private void nameChanges(Consumer<? super TraceEvent> to) {
        for (SampleCounters.Changes c; (c = counterChanges.poll()) != null; ) {
            counterTracks.offer(c, to);
        }
    }

    @Override
    public void stop(long timestampNs) {
        if (events == null) {
            return;
        }
        stopping = true;
        synchronized (hold) {
            hold.notifyAll();
        }
        try {
            if (thread != null) {
                stopPipe.wake();
                thread.join();
            }
            if (processor != null) {
                processor.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the last changes, through the collector (its thread may be past its last event of ours)
        nameChanges(out);
        counterTracks.flush(out);
        long lost = events.lostRecords();
        events.close();
        if (stopPipe != null) {
            stopPipe.close();
        }
        if (copies != null) {
            copies.close();
        }
        symbolizer.close();
        if (lost > 0) {
            log.println("[rocprof-sys] warning: the kernel dropped " + lost + " sampling records (" + taken
                    + " samples kept)");
        }
    }
}
