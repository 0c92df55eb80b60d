package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.session.BackgroundSource;
import org.rocprofsys.sampler.perf.PerfEventAttr;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfException;
import org.rocprofsys.sampler.perf.PerfRecord;
import org.rocprofsys.sampler.symbols.Frame;
import org.rocprofsys.sampler.symbols.ProcessMaps;
import org.rocprofsys.sampler.symbols.Symbolizer;
import org.rocprofsys.sampler.unwind.AddressSpace;
import org.rocprofsys.sampler.unwind.UnwindResult;
import org.rocprofsys.sampler.unwind.Unwinder;

/**
 * Call-stack sampling of the target and its descendants with cpu-clock perf events, outside the
 * target: the events are attached right after the spawn, the rings are drained on this source's
 * thread, and each user-mode sample is unwound (DWARF CFI over the copied user stack, so code
 * without frame pointers unwinds), symbolized and handed on as a {@link StackSample}. Samples
 * outside the SAMPLING_DELAY / SAMPLING_DURATION window are dropped here rather than by timers
 * in the target.
 */
public final class PerfSamplingSource implements BackgroundSource {
    /** Bytes of user stack copied per sample: deep enough for ordinary call chains. */
    static final int STACK_BYTES = 8192;
    /** 1 + 256 pages per CPU: about 30 samples of 8 KiB stack between wakeups, with room to spare. */
    static final int RING_PAGES_LOG2 = 8;
    private static final int POLL_MS = 50;

    /**
     * @param freqHz     samples per second of CPU time
     * @param delayNs    samples before this long after the start are dropped
     * @param durationNs samples after delay + this are dropped (0: until the end)
     */
    public record Config(long freqHz, long delayNs, long durationNs) {
    }

    private final Config config;
    private final PrintStream log;
    private final Symbolizer symbolizer = new Symbolizer();
    private final Unwinder unwinder = new Unwinder();
    private final Map<Integer, AddressSpace> spaces = new HashMap<>();
    private final Set<Integer> changed = new HashSet<>();
    private volatile boolean stopping;
    private PerfEvents events;
    private Thread thread;
    private long windowStartNs;
    private long windowEndNs;
    private long taken;

    public PerfSamplingSource(Config config, PrintStream log) {
        this.config = config;
        this.log = log;
    }

    /** The event this source opens on the target. */
    static PerfEventAttr attr(long freqHz) {
        return PerfEventAttr.clockSampling(false, freqHz).userOnly()
                .withUserStack(PerfEventAttr.X86_64_REGS_UNWIND, STACK_BYTES).withWakeupEvents(16);
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {
        PerfEventAttr attr = attr(config.freqHz());
        try {
            events = PerfEvents.open(targetPid, attr, RING_PAGES_LOG2);
            events.enable();
        } catch (PerfException e) {
            log.println("[rocprof-sys] warning: call-stack sampling is off: " + e.getMessage());
            if (events != null) {
                events.close();
                events = null;
            }
            return;
        }
        // what the target mapped before the events existed is not reported by the kernel
        ProcMapsSeed.load(Path.of("/proc"), targetPid, symbolizer.maps());
        changed.add(targetPid);
        long now = System.nanoTime();
        windowStartNs = now + config.delayNs();
        windowEndNs = config.durationNs() > 0 ? windowStartNs + config.durationNs() : Long.MAX_VALUE;
        thread = Thread.ofPlatform().daemon().name("rocprof-sys-sampler").start(() -> loop(out));
    }

    private void loop(Consumer<TraceEvent> out) {
        while (!stopping) {
            events.await(POLL_MS);
            if (drain(out) == 0 && !stopping) {
                // an ended target leaves its events readable (hung up): do not spin on them
                sleep();
            }
        }
        drain(out);
    }

    /** One pass over the rings, in time order so mappings precede the samples that need them. */
    private int drain(Consumer<TraceEvent> out) {
        List<PerfRecord> batch = new ArrayList<>();
        events.drain(batch::add);
        batch.sort(Comparator.comparingLong(PerfRecord::time));
        for (PerfRecord r : batch) {
            switch (r) {
                case PerfRecord.Sample s -> sample(s, out);
                case PerfRecord.Mmap m -> mapsChanged(r, m.pid());
                case PerfRecord.Fork f -> mapsChanged(r, f.pid());
                case PerfRecord.Comm c -> mapsChanged(r, c.pid());
                default -> {
                }
            }
        }
        return batch.size();
    }

    private void mapsChanged(PerfRecord r, int pid) {
        symbolizer.accept(r);
        changed.add(pid);
    }

    private void sample(PerfRecord.Sample s, Consumer<TraceEvent> out) {
        if (s.time() < windowStartNs || s.time() > windowEndNs || !s.userMode()) {
            return;
        }
        List<Long> pcs = unwind(s);
        List<StackFrame> frames = new ArrayList<>(pcs.size());
        for (int i = pcs.size() - 1; i >= 0; i--) {
            Frame f = symbolizer.symbolize(s.pid(), pcs.get(i), i > 0);
            frames.add(new StackFrame(f.symbol(), f.module(), f.pc(), f.file(), f.line()));
        }
        if (frames.isEmpty()) {
            return;
        }
        taken++;
        out.accept(new StackSample(s.time(), s.pid(), s.tid(), StackFilter.fromMain(frames), StackSample.Kind.CPU,
                s.period()));
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
        UnwindResult r = unwinder.unwind(s, events.attr().sampleRegsUser(), space(s.pid()));
        return r.depth() >= callchain.size() ? r.pcs() : callchain;
    }

    /** The unwinder's view of a process's executable mappings, rebuilt when they changed. */
    private AddressSpace space(int pid) {
        AddressSpace a = spaces.get(pid);
        if (a == null || changed.remove(pid)) {
            a = new AddressSpace();
            for (ProcessMaps.Mapping m : symbolizer.maps().mappings(pid)) {
                if (m.executable()) {
                    a.add(new AddressSpace.Mapping(m.start(), m.end(), m.pgoff(), m.path()));
                }
            }
            spaces.put(pid, a);
        }
        return a;
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MS / 5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop(long timestampNs) {
        if (events == null) {
            return;
        }
        stopping = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long lost = events.lostRecords();
        events.close();
        symbolizer.close();
        if (lost > 0) {
            log.println("[rocprof-sys] warning: the kernel dropped " + lost + " sampling records (" + taken
                    + " samples kept)");
        }
    }
}
