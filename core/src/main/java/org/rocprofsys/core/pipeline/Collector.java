package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.WireException;
import org.rocprofsys.core.wire.FunctionNames;
import org.rocprofsys.core.wire.RingDrain;
import org.rocprofsys.core.wire.RingFile;
import org.rocprofsys.core.wire.WireFormat;

/**
 * Drains every agent ring file of a session into the event stream, on one thread: finds new
 * process images (launched target, fork children, exec'd images), reads their rings as they fill,
 * and ends each image when its agent says it exited, when it exec'd, or when its process is gone
 * (killed), closing its threads at that time.
 */
public final class Collector {
    private static final long LIVENESS_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** An idle collector looks at the rings at least this often (a waiting producer waits this long at most)... */
    private static final long IDLE_SLEEP_MAX_US = 5_000;
    /**
     * After a pass that read records but fewer than {@link #CAUGHT_UP_RECORDS} (it caught up with
     * the producers), the collector pauses this long before the next one: a drain that chases a
     * producer reads the cache lines it is still writing, and every line then moves between the two
     * cores; read in batches, each line moves once. An instrumented call cost its program 94 ns of CPU
     * with the chase and 84 ns with the pause, on the 16-core host (docs/benchmarks.md, thirteenth
     * session). A ring holds many times what producers write in a pause. 0 turns it off
     * (ROCPROFSYS_COLLECTOR_CAUGHT_UP_SLEEP_US, {@link PipelineTuning#caughtUpPauseNanos}).
     */
    private final long caughtUpPauseNs;

    private static final int CAUGHT_UP_RECORDS = 4096;
    /**
     * ...and, once nothing has come for {@link #LONG_IDLE_NS}, this often: the polls of a collector
     * beside a target that records nothing (a sampled program) took CPU the target could use.
     */
    private static final long LONG_IDLE_SLEEP_MAX_US = 20_000;
    /**
     * The same where the session directory is watched: a new ring file, a full ring (the agent
     * rings after its first spins) and an exit each wake the collector at once, so polls are only
     * for what no agent reports (a process killed, a background source's events).
     */
    private static final long WATCHED_LONG_IDLE_SLEEP_MAX_US = 250_000;

    private static final long LONG_IDLE_NS = TimeUnit.SECONDS.toNanos(1);
    /** The same where the directory is watched: a waiting producer rings, it need not be polled for. */
    private static final long WATCHED_LONG_IDLE_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final SessionDirectory directory;
    private final Consumer<TraceEvent> out;
    private final PrintStream log;
    private final Map<Path, Image> images = new LinkedHashMap<>();
    /** Files not to read again: broken ones, and images ended whose file is still there. */
    private final Set<Path> done = new HashSet<>();
    /**
     * Per pid, the files of its images that exec'd, kept until the process ends: an agent numbers its
     * image by the first free {@code <pid>.<generation>.ring} name, so a name freed while the process
     * lives would be taken again by its next image, which this collector, having read that path, would
     * never read (a 4-image chain lost its third image in most runs). Kept whole, not emptied: a child
     * that a raw clone made without the agent's fork handler still maps the old image's file, and
     * would die of SIGBUS on a page past the end of a shortened one.
     */
    private final Map<Integer, List<Path>> execdFiles = new HashMap<>();

    private final Map<String, Long> drops = new LinkedHashMap<>();
    private final Map<Integer, Long> ringShortage = new LinkedHashMap<>();
    private long lastLivenessCheck;
    /** Listing the directory costs tens of µs: while rings are busy it is done at most this often. */
    private static final long DISCOVERY_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(2);

    private long lastDiscovery;
    /** A ring file was found before its header was published: the next pass lists again. */
    private boolean unpublished;

    private int lastPassRecords;
    private long recordsRead;

    /**
     * While the target runs, the rings' records are copied out and held, not decoded, up to this
     * many bytes (0: never; see {@link HeldRecords#forRings}). The decoding, the outputs and their
     * compilation would otherwise take a CPU the target could use (docs/benchmarks.md, "Records held
     * while the target runs").
     */
    private final long holdBytes;

    /** Bytes the drains hold now. */
    private long held;

    /** What a pass does with the rings of a running image while the launched target runs. */
    private enum Holding {
        /** Copies their records into the hold (below the budget). */
        TAKING,
        /**
         * The held records reached {@link #holdBytes}: decodes a slice of each ring's held records
         * and, while that is below the budget, takes the ring's new records into the hold, so that its
         * thread does not stop behind them; a ring that holds nothing any more is read as it comes. A
         * target that writes slower than the collector decodes sees its rings read as they come within
         * seconds, without a pause.
         */
        SLICING,
        /**
         * Reads the rings as records come, each after all it holds (nothing is held, or held records
         * did not shrink within {@link #HELD_SHRINK_PERIOD_NS} of slicing: the target writes faster
         * than the collector decodes, and copying its records costs more than it saves; the rings'
         * threads wait for room while the rest is decoded, as they wait for a collector that falls
         * behind; or memory ran out).
         */
        READING
    }

    private Holding holding;

    private long shrinkCheckNs;
    private long shrinkCheckHeld;
    private static final long HELD_SHRINK_PERIOD_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * What one pass decodes of a ring's held records while {@link Holding#SLICING}: little, since the first
     * of them may be decoded by code not compiled yet, while the ring's thread fills its ring.
     */
    private static final long HELD_SLICE_BYTES = 256L << 10;

    /** Events of background sources (samplers), handed over from their threads. */
    private final java.util.concurrent.ConcurrentLinkedQueue<TraceEvent> external =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    private volatile RootEnd rootEnd;
    private int rootPid = -1;
    private ProcessEnded targetEnd;

    /** How the launched target ended, as its parent saw it. */
    public record RootEnd(ProcessEnd how, int status, long timestampNs) {}

    private static final class Image {
        final RingFile file;
        final int pid;
        /** One per ring slot; a slot's threads follow one another in its records. */
        final List<RingDrain> drains = new ArrayList<>();

        final FunctionNames functions;
        final BackendRecords backend;

        Image(RingFile file, BackendRecords backend) {
            this.file = file;
            this.pid = file.pid();
            this.functions = new FunctionNames(file);
            this.backend = backend;
        }
    }

    private final List<BackendRecords.Factory> backends;

    public Collector(SessionDirectory directory, Consumer<TraceEvent> out, PrintStream log) {
        this(directory, out, log, List.of());
    }

    /** @param backends the GPU backends whose ring records each image's drains hand over */
    public Collector(
            SessionDirectory directory,
            Consumer<TraceEvent> out,
            PrintStream log,
            List<? extends BackendRecords.Factory> backends) {
        this(directory, out, log, backends, PipelineTuning.machine());
    }

    /** @param tuning what is held while the target runs, and the pause after a pass that caught up */
    public Collector(
            SessionDirectory directory,
            Consumer<TraceEvent> out,
            PrintStream log,
            List<? extends BackendRecords.Factory> backends,
            PipelineTuning tuning) {
        this.directory = directory;
        this.out = out;
        this.log = log;
        this.backends = List.copyOf(backends);
        this.holdBytes = tuning.holdBytes();
        this.caughtUpPauseNs = tuning.caughtUpPauseNanos();
        this.holding = holdBytes > 0 ? Holding.TAKING : Holding.READING;
    }

    private BackendRecords backendRecords(int pid) {
        List<BackendRecords> opened =
                backends.stream().map(f -> f.open(pid, out)).toList();
        if (opened.isEmpty()) {
            return BackendRecords.NONE;
        }
        if (opened.size() == 1) {
            return opened.getFirst();
        }
        // owns() is asked for every record of the ring: answered from a table filled as types
        // are first seen (filling all 65536 at once took tens of ms of a start-up in the target's time)
        byte[] owned = new byte[1 << 16]; // 0 not asked yet, 1 owned, 2 not
        return new BackendRecords() {
            @Override
            public boolean owns(int type) {
                int t = type & 0xffff;
                if (owned[t] == 0) {
                    owned[t] = opened.stream().anyMatch(b -> b.owns(t)) ? (byte) 1 : (byte) 2;
                }
                return owned[t] == 1;
            }

            @Override
            public void accept(int tid, java.lang.foreign.MemorySegment record) throws WireException {
                for (BackendRecords b : opened) {
                    if (b.owns(record.get(java.lang.foreign.ValueLayout.JAVA_SHORT, 0))) {
                        b.accept(tid, record);
                        return;
                    }
                }
            }

            @Override
            public void finish(long endNs) {
                opened.forEach(b -> b.finish(endNs));
            }
        };
    }

    public void setRootPid(int pid) {
        this.rootPid = pid;
    }

    /** Called by the session when its child has been reaped. */
    public void targetReaped(RootEnd end) {
        this.rootEnd = end;
        directory.wake();
    }

    /** How the launched target's last image ended, as the collector reported it; empty before that. */
    public Optional<ProcessEnded> targetEnd() {
        return Optional.ofNullable(targetEnd);
    }

    /** Thread-safe: queues an event of a background source for the collector thread. */
    public void offer(TraceEvent event) {
        external.add(event);
    }

    public long recordsRead() {
        return recordsRead;
    }

    /** Records lost to full rings, by "pid/tid". */
    public Map<String, Long> drops() {
        return drops;
    }

    /**
     * Records lost by threads that found no ring slot, by pid (the collector has said so on its log,
     * naming ROCPROFSYS_RING_BUFFER_MAX_THREADS; {@link #drops} leaves them out, as no ring was full).
     */
    public Map<Integer, Long> ringShortage() {
        return ringShortage;
    }

    /**
     * Runs until the target has ended and every process image has ended (descendants still alive
     * {@code graceNs} after the target ended are cut off there), then returns.
     */
    public void run(long graceNs) throws IOException, WireException, InterruptedException {
        long idleSleepMicros = 200;
        long rootEndSeen = 0;
        long idleSince = System.nanoTime();
        while (true) {
            int n = pass();
            RootEnd end = rootEnd;
            if (end != null) {
                if (rootEndSeen == 0) {
                    rootEndSeen = System.nanoTime();
                }
                lastPassRecords = 0; // near the end, every pass looks for late images (fork children)
                if (images.isEmpty() && pass() == 0) {
                    return;
                }
                if (System.nanoTime() - rootEndSeen > graceNs) {
                    pass();
                    for (Image image : List.copyOf(images.values())) {
                        log.println("[rocprof-sys] process " + image.pid + " still runs after the target ended;"
                                + " its data ends here");
                        endImage(image, ProcessEnd.VANISHED, 0, System.nanoTime());
                    }
                    return;
                }
            }
            if (n == 0) {
                directory.awaitChange(idleSleepMicros);
                boolean longIdle = !unpublished // a header is published without a notification
                        && System.nanoTime() - idleSince > (directory.watched() ? WATCHED_LONG_IDLE_NS : LONG_IDLE_NS);
                long longIdleMax =
                        directory.watched() && end == null ? WATCHED_LONG_IDLE_SLEEP_MAX_US : LONG_IDLE_SLEEP_MAX_US;
                idleSleepMicros = Math.min(idleSleepMicros * 2, longIdle ? longIdleMax : IDLE_SLEEP_MAX_US);
            } else {
                idleSleepMicros = 200;
                idleSince = System.nanoTime();
                if (n < CAUGHT_UP_RECORDS && caughtUpPauseNs > 0) {
                    LockSupport.parkNanos(caughtUpPauseNs);
                }
            }
        }
    }

    private int pass() throws IOException, WireException {
        long started = System.nanoTime();
        if (unpublished
                || ((lastPassRecords == 0 || started - lastDiscovery > DISCOVERY_PERIOD_NS)
                        && directory.changedSinceListing())) {
            discover();
            lastDiscovery = started;
        }
        int n = 0;
        for (TraceEvent e; (e = external.poll()) != null; n++) {
            out.accept(e);
        }
        long now = System.nanoTime();
        boolean checkLiveness = now - lastLivenessCheck > LIVENESS_PERIOD_NS;
        if (checkLiveness) {
            lastLivenessCheck = now;
        }
        // records are held only while the launched target runs: after it, nothing is gained by waiting
        boolean targetRuns = rootEnd == null;
        long taken = 0;
        for (Image image : List.copyOf(images.values())) {
            // the state is read before the rings: what the agent wrote before EXITED is then visible
            boolean exited = image.file.state() == WireFormat.STATE_EXITED;
            Holding stage = targetRuns ? holding : Holding.READING; // (memory may run out in the pass)
            if (exited || stage == Holding.READING) {
                n += drainAll(image);
            } else if (stage == Holding.SLICING) {
                n += drainHeldFirst(image);
            } else {
                taken += holdAll(image);
            }
            if (exited) {
                RootEnd end = image.pid == rootPid ? rootEnd : null;
                int code = image.file.exitCode();
                endImage(
                        image,
                        ProcessEnd.EXITED,
                        code >= 0 || end == null ? code : end.status(),
                        image.file.exitTimeNs());
            } else if (image.pid == rootPid) {
                RootEnd end = rootEnd;
                if (end != null && isLatestGeneration(image)) {
                    n += drainAll(image);
                    endImage(image, end.how(), end.status(), end.timestampNs());
                }
            } else if (checkLiveness && !ProcessLiveness.isAlive(image.pid)) {
                n += drainAll(image);
                endImage(image, ProcessEnd.KILLED_BY_SIGNAL, 0, System.nanoTime());
            }
        }
        if (targetRuns && holding != Holding.READING) {
            spendHolding(now);
        }
        recordsRead += n;
        // for the idle and caught-up decisions, bytes held count as FUNC_CALLs (24 bytes, the most common record)
        n = (int) Math.min(Integer.MAX_VALUE, n + (taken + 23) / 24);
        lastPassRecords = n;
        return n;
    }

    private boolean isLatestGeneration(Image image) {
        for (Image other : images.values()) {
            if (other.pid == image.pid && other.file.execGeneration() > image.file.execGeneration()) {
                return false;
            }
        }
        return true;
    }

    private void discover() throws IOException, WireException {
        unpublished = false;
        for (Path p : directory.ringFiles()) {
            if (images.containsKey(p) || done.contains(p)) {
                continue;
            }
            RingFile file;
            try {
                file = RingFile.open(p);
            } catch (NoSuchFileException e) {
                continue; // listed, then removed (an agent that could not size it)
            } catch (WireException e) {
                done.add(p);
                log.println("[rocprof-sys] warning: ignoring " + e.getMessage());
                continue;
            }
            if (file == null) {
                unpublished = true; // header not yet published: look again on the next pass
                continue;
            }
            Image image = new Image(file, backendRecords(file.pid()));
            for (Image older : List.copyOf(images.values())) {
                if (older.pid == image.pid && older.file.execGeneration() < file.execGeneration()) {
                    drainAll(older);
                    endImage(older, ProcessEnd.EXEC, 0, file.initTimeNs());
                }
            }
            images.put(p, image);
            out.accept(new ProcessStarted(
                    file.initTimeNs(),
                    file.pid(),
                    file.ppid(),
                    file.executable(),
                    file.commandLine(),
                    file.forkedFrom(),
                    file.execGeneration()));
        }
    }

    /** The image's drains, one for each ring slot its threads have claimed so far. */
    private List<RingDrain> drains(Image image) {
        List<RingFile.Ring> rings = image.file.rings();
        for (int i = image.drains.size(); i < rings.size(); i++) {
            image.drains.add(new RingDrain(image.pid, rings.get(i), out, image.functions, image.backend));
        }
        return image.drains;
    }

    private int drainAll(Image image) throws WireException {
        int n = 0;
        for (RingDrain d : drains(image)) {
            held -= d.heldBytes();
            n += d.drain();
        }
        return n;
    }

    /** Slices at the budget, and reads as records come where slicing does not shrink what is held. */
    private void spendHolding(long now) {
        if (holding == Holding.TAKING && held >= holdBytes) {
            holding = Holding.SLICING;
        } else if (holding != Holding.SLICING || now - shrinkCheckNs < HELD_SHRINK_PERIOD_NS) {
            return;
        } else if (held >= shrinkCheckHeld) {
            holding = Holding.READING;
        }
        shrinkCheckNs = now;
        shrinkCheckHeld = held;
    }

    /**
     * Reads a slice of each ring's held records, then takes its new ones into the hold while that is
     * below the budget; a ring that holds nothing is read as it comes.
     */
    private int drainHeldFirst(Image image) throws WireException {
        int n = 0;
        for (RingDrain d : drains(image)) {
            long before = d.heldBytes();
            if (before == 0) {
                n += d.drain();
                continue;
            }
            n += d.drainHeld(HELD_SLICE_BYTES);
            held -= before - d.heldBytes();
            if (holding == Holding.SLICING && held < holdBytes) { // (not after memory ran out)
                held += holdRing(d);
            }
        }
        return n;
    }

    /** Copies the image's published records into its drains' spools; returns the bytes taken. */
    private long holdAll(Image image) {
        long bytes = 0;
        for (RingDrain d : drains(image)) {
            bytes += holdRing(d);
            if (holding == Holding.READING) {
                break; // memory ran out
            }
        }
        held += bytes;
        return bytes;
    }

    /** {@link RingDrain#hold}; where memory runs out, says so and reads the rings as they come from the next pass on. */
    private long holdRing(RingDrain d) {
        long before = d.heldBytes();
        try {
            return d.hold();
        } catch (OutOfMemoryError e) {
            holding = Holding.READING;
            log.println("[rocprof-sys] warning: no memory to hold records while the target runs (" + e.getMessage()
                    + "); decoding them as they come");
            return d.heldBytes() - before;
        }
    }

    private void endImage(Image image, ProcessEnd how, int status, long timestampNs) {
        long end = timestampNs;
        for (RingDrain d : image.drains) {
            d.recoverUnpublished(); // the calls its threads died in
            d.flushPending();
            end = Math.max(end, d.lastTime());
        }
        image.backend.finish(end); // before the threads end: open marker ranges close on their tracks
        for (int i = 0; i < image.drains.size(); i++) {
            RingDrain d = image.drains.get(i);
            RingFile.Ring ring = image.file.rings().get(i);
            // the slot's last thread; a thread that ended itself is ended once: the pipeline's
            // normaliser drops this one
            out.accept(new ThreadEnded(end, image.pid, d.tid(), true));
            if (ring.dropped() > 0) {
                drops.merge(image.pid + "/" + d.tid(), ring.dropped(), Long::sum);
            }
        }
        reportRingShortage(image);
        ProcessEnded ended = new ProcessEnded(end, image.pid, how, status);
        if (image.pid == rootPid) {
            targetEnd = ended;
        }
        out.accept(ended);
        images.remove(image.file.path());
        image.file.close();
        if (how == ProcessEnd.EXEC) {
            done.add(image.file.path());
            execdFiles.computeIfAbsent(image.pid, k -> new ArrayList<>()).add(image.file.path());
        } else {
            // the process is gone: its pid, and so these names, may be taken by a new process
            remove(image.file.path());
            for (Path execd : execdFiles.getOrDefault(image.pid, List.of())) {
                remove(execd);
            }
            execdFiles.remove(image.pid);
        }
    }

    /** Threads that found no ring slot: a new thread takes an ended one's, so only more threads alive at once than slots. */
    private void reportRingShortage(Image image) {
        long lost = image.file.unringedDrops();
        int threads = image.file.unringedThreads();
        if (lost == 0 && threads == 0) {
            return;
        }
        ringShortage.merge(image.pid, lost, Long::sum);
        log.println(
                "[rocprof-sys] warning: process " + image.pid + ": " + threads + " thread(s) found every one of its "
                        + image.file.maxRings() + " ring slots held by a thread alive at that moment"
                        + " and recorded nothing (" + lost + " records lost); set"
                        + " ROCPROFSYS_RING_BUFFER_MAX_THREADS above the most threads the program has alive at once");
    }

    /** Removes an ended image's file; a new file of that name is a new image. */
    private void remove(Path path) {
        try {
            Files.deleteIfExists(path);
            done.remove(path);
        } catch (IOException e) {
            done.add(path);
            log.println("[rocprof-sys] warning: cannot remove " + path + ": " + e.getMessage());
        }
    }
}
