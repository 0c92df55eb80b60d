package org.rocprofsys.core.rocpd;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.gpu.GpuPageFault;

/**
 * Writes the normalised event stream into a rocpd database as it arrives: regions (user API,
 * instrumented functions, the main region, marks as zero-length regions) with their category and
 * annotations as arguments, call-stack samples on a {@code Thread N} track of each thread with the
 * stack as JSON, counter series (and the unified-memory page-fault counts) as rocpd_info_pmc +
 * rocpd_pmc_event + rocpd_sample, and GPU activity through {@link GpuRows}. Rows are committed every {@link #COMMIT_ROWS} rows or
 * {@link #COMMIT_NANOS} of run time, so the file holds the run so far and memory does not grow
 * with the run's length.
 */
public final class RocpdSink implements EventSink, AutoCloseable {
    static final long COMMIT_ROWS = 200_000;
    static final long COMMIT_NANOS = 500_000_000L;
    private static final int CHECK_EVERY = 4096;

    private final RocpdDatabase db;
    private final RocpdRows rows;
    private final ProcessRows processes;
    private final GpuRows gpu;
    /** The category of the profiler's own instants (fork, records dropped), as in the trace. */
    static final String PROFILER_CATEGORY = "rocprof-sys";

    /** The event row of the regions of a category that carry no arguments (they share it). */
    private final Map<String, Long> plainEvents = new HashMap<>();
    /** Unified-memory page faults so far per process and device (the trace's running count). */
    private final Map<String, Long> pageFaults = new HashMap<>();
    /** Counter series by process row and name: [track id, pmc id]. */
    private final Map<String, long[]> counters = new HashMap<>();

    /** ROCPROFSYS_PAPI_EVENTS when regions carry them, in the order of their readings. */
    private final List<String> cpuCounters;
    /** rocpd_info_pmc ids of the CPU counters by process row and counter index. */
    private final Map<String, Long> cpuPmc = new HashMap<>();

    private int sinceCheck;
    private long lastCommit = System.nanoTime();
    private boolean closed;

    private RocpdSink(RocpdDatabase db, NodeInfo node, int rootPid, List<String> cpuCounters) throws SQLException {
        this.db = db;
        this.cpuCounters = List.copyOf(cpuCounters);
        this.rows = new RocpdRows(db, node);
        this.processes = new ProcessRows(rows, node, rootPid);
        this.gpu = new GpuRows(rows, processes);
    }

    /** Creates the database file {@code file} for a run whose target is {@code rootPid}. */
    public static RocpdSink create(java.nio.file.Path file, int rootPid) throws IOException {
        return create(file, rootPid, List.of());
    }

    /**
     * With the CPU counters the regions' readings carry ({@code CpuEvents.names()} when
     * {@code withRegions}): each region's change of each is a rocpd_pmc_event on its event.
     */
    public static RocpdSink create(java.nio.file.Path file, int rootPid, List<String> cpuCounters) throws IOException {
        RocpdDatabase db = RocpdDatabase.create(
                file,
                new RocpdSchema(
                        java.util.UUID.randomUUID().toString(),
                        java.util.UUID.randomUUID().toString()));
        try {
            RocpdSink sink = new RocpdSink(db, NodeInfo.ofThisMachine(), rootPid, cpuCounters);
            db.commit();
            return sink;
        } catch (SQLException e) {
            throw new IOException("cannot write the rocpd database " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void accept(SinkEvent event) throws IOException {
        try {
            switch (event) {
                case ProcessStarted p -> processes.started(p);
                case ProcessEnded p -> processes.ended(p.pid(), p.timestampNs());
                case ThreadStarted t -> processes.threadStarted(t.pid(), t.tid(), t.sequence(), t.timestampNs());
                case ThreadEnded t -> processes.threadEnded(t.pid(), t.tid(), t.timestampNs());
                case RegionBegin b -> begin(b);
                case RegionEnd e -> end(e);
                case Mark m -> mark(m);
                case CounterSample c -> counter(c);
                case StackSample s -> sample(s);
                case GpuActivity g -> {
                    gpu.accept(g.event());
                    if (g.event() instanceof GpuPageFault f) {
                        pageFaults(f);
                    }
                }
                case Fork f ->
                    instant(
                            f.pid(),
                            f.tid(),
                            f.timestampNs(),
                            "fork",
                            new Annotation("child_pid", new AnnotationValue.Signed(f.childPid())));
                case RecordsDropped r ->
                    instant(
                            r.pid(),
                            r.tid(),
                            r.timestampNs(),
                            "records dropped",
                            new Annotation("count", new AnnotationValue.Unsigned(r.count())));
            }
            if (++sinceCheck >= CHECK_EVERY) {
                sinceCheck = 0;
                long now = System.nanoTime();
                if (db.pending() >= COMMIT_ROWS || now - lastCommit >= COMMIT_NANOS) {
                    db.commit();
                    lastCommit = now;
                }
            }
        } catch (SQLException e) {
            throw new IOException("rocpd: " + e.getMessage(), e);
        }
    }

    private void begin(RegionBegin b) throws SQLException {
        ProcessRows.ThreadRows t = processes.thread(b.pid(), b.tid(), b.timestampNs());
        String name = b.name() == null ? "" : b.name();
        t.open.push(new OpenRegion(rows.string(name), b.timestampNs(), b.category(), b.annotations(), b.metrics()));
    }

    private void end(RegionEnd e) throws SQLException {
        ProcessRows.ThreadRows t = processes.thread(e.pid(), e.tid(), e.timestampNs());
        OpenRegion open = t.open.poll();
        if (open == null) {
            return;
        }
        List<Annotation> args = open.annotations();
        if (!e.annotations().isEmpty() || e.forced()) {
            args = new ArrayList<>(args);
            args.addAll(e.annotations());
            if (e.forced()) {
                args.add(new Annotation("closed_by_profiler", new AnnotationValue.Bool(true)));
            }
        }
        ProcessRows.ProcessImage image = processes.process(e.pid(), e.timestampNs());
        long[] changes = counterChanges(open.metrics(), e.metrics());
        long eventId = changes == null ? event(label(open.category()), args) : ownEvent(label(open.category()), args);
        rows.region(image.id, t.id, open.start(), e.timestampNs(), open.nameId(), eventId);
        if (changes != null) {
            for (int k = 0; k < changes.length; k++) {
                if (changes[k] != RegionMetrics.ABSENT) {
                    rows.pmcEvent(eventId, cpuPmc(image, k), changes[k]);
                }
            }
        }
    }

    /**
     * Each CPU counter's change over a region (ABSENT where a reading is missing), or null when
     * none was read (no counters, a forced end).
     */
    private long[] counterChanges(RegionMetrics begin, RegionMetrics end) {
        if (cpuCounters.isEmpty() || begin == null || end == null) {
            return null;
        }
        long[] out = new long[cpuCounters.size()];
        boolean any = false;
        for (int k = 0; k < out.length; k++) {
            long b = begin.counters().get(k);
            long e = end.counters().get(k);
            boolean read = b != RegionMetrics.ABSENT && e != RegionMetrics.ABSENT;
            out[k] = read ? e - b : RegionMetrics.ABSENT;
            any |= read;
        }
        return any ? out : null;
    }

    /**
     * A CPU counter's description in a process: target_arch CPU, the process's first CPU agent
     * (the counters follow the thread, not a CPU), component {@code papi} (PAPI's event names),
     * value_type RELATIVE (each value is the change over one region).
     */
    private long cpuPmc(ProcessRows.ProcessImage image, int k) throws SQLException {
        String key = image.id + "/" + k;
        Long id = cpuPmc.get(key);
        if (id == null) {
            String name = cpuCounters.get(k);
            id = rows.pmc(image.id, processes.cpuAgent(image), "CPU", name, name, "papi", "", "RELATIVE");
            cpuPmc.put(key, id);
        }
        return id;
    }

    private void mark(Mark m) throws SQLException {
        ProcessRows.ThreadRows t = processes.thread(m.pid(), m.tid(), m.timestampNs());
        ProcessRows.ProcessImage image = processes.process(m.pid(), m.timestampNs());
        rows.region(
                image.id,
                t.id,
                m.timestampNs(),
                m.timestampNs(),
                rows.string(m.name() == null ? "" : m.name()),
                event(label(m.category()), List.of()));
    }

    /** The profiler's own instants on a thread: a zero-length region with one argument. */
    private void instant(int pid, int tid, long time, String name, Annotation arg) throws SQLException {
        ProcessRows.ThreadRows t = processes.thread(pid, tid, time);
        ProcessRows.ProcessImage image = processes.process(pid, time);
        rows.region(image.id, t.id, time, time, rows.string(name), event(PROFILER_CATEGORY, List.of(arg)));
    }

    private static String label(Category category) {
        return (category == null ? Category.NONE : category).label();
    }

    /** The event of a region: the category's shared one, or its own with the arguments. */
    private long event(String category, List<Annotation> args) throws SQLException {
        if (args.isEmpty()) {
            Long shared = plainEvents.get(category);
            if (shared == null) {
                shared = rows.event(rows.string(category), 0, null, null, null);
                plainEvents.put(category, shared);
            }
            return shared;
        }
        return ownEvent(category, args);
    }

    /** An event of the region's own (its arguments, or rows that refer to it: counter values). */
    private long ownEvent(String category, List<Annotation> args) throws SQLException {
        long id = rows.event(rows.string(category), 0, null, null, null);
        int position = 0;
        for (Annotation a : args) {
            rows.arg(id, position++, type(a.value()), a.name(), value(a.value()));
        }
        return id;
    }

    static String type(AnnotationValue v) {
        return switch (v) {
            case AnnotationValue.Text t -> "string";
            case AnnotationValue.Signed s -> "int64";
            case AnnotationValue.Unsigned u -> "uint64";
            case AnnotationValue.Real r -> "double";
            case AnnotationValue.Pointer p -> "pointer";
            case AnnotationValue.Bool b -> "bool";
        };
    }

    static String value(AnnotationValue v) {
        return switch (v) {
            case AnnotationValue.Text t -> t.value();
            case AnnotationValue.Signed s -> Long.toString(s.value());
            case AnnotationValue.Unsigned u -> Long.toUnsignedString(u.value());
            case AnnotationValue.Real r -> Double.toString(r.value());
            case AnnotationValue.Pointer p -> "0x" + Long.toHexString(p.address());
            case AnnotationValue.Bool b -> Boolean.toString(b.value());
        };
    }

    private void counter(CounterSample c) throws SQLException {
        CounterTrack track = c.track();
        ProcessRows.ProcessImage image = processes.process(track.pid(), c.timestampNs());
        String key = image.id + "/" + track.name();
        long[] ids = counters.get(key);
        if (ids == null) {
            long trackId = rows.track(image.id, 0, rows.string(track.name()));
            long pmcId = rows.pmc(
                    image.id,
                    processes.cpuAgent(image),
                    "CPU",
                    track.name(),
                    track.name() + (track.unit().isEmpty() ? "" : " [" + track.unit() + "]"),
                    label(track.category()),
                    track.unit());
            ids = new long[] {trackId, pmcId};
            counters.put(key, ids);
        }
        long eventId = rows.event(rows.string(label(track.category())), 0, null, null, null);
        rows.pmcEvent(eventId, ids[1], c.value());
        rows.sample(ids[0], c.timestampNs(), eventId);
    }

    /**
     * Unified-memory page faults: the running count per device as a counter series named like
     * the trace's ({@code Unified Memory Page Faults [Device N]}; CPU faults that name no device
     * on {@code [Host]}).
     */
    private void pageFaults(GpuPageFault f) throws SQLException {
        String device = f.device() < 0 ? "Host" : "Device " + f.device();
        long total = pageFaults.merge(f.pid() + "/" + device, f.count(), Long::sum);
        counter(new CounterSample(
                f.beginNs(),
                new CounterTrack(
                        "Unified Memory Page Faults [" + device + "]", "", Category.ROCM_PAGE_MIGRATION, f.pid()),
                total));
    }

    private void sample(StackSample s) throws SQLException {
        ProcessRows.ThreadRows t = processes.thread(s.pid(), s.tid(), s.timestampNs());
        boolean overflow = s.kind() == StackSample.Kind.OVERFLOW;
        if (overflow ? t.overflowTrack == 0 : t.sampleTrack == 0) {
            ProcessRows.ProcessImage image = processes.process(s.pid(), s.timestampNs());
            String name = "Thread " + (t.sequence >= 0 ? t.sequence : s.tid());
            if (overflow) {
                // upstream's rocpd track of overflow samples
                t.overflowTrack = rows.track(image.id, t.id, rows.string(name + " Overflow (S) " + s.tid()));
            } else {
                t.sampleTrack = rows.track(image.id, t.id, rows.string(name));
            }
        }
        StringBuilder stack = new StringBuilder("[");
        StringBuilder lines = new StringBuilder("[");
        for (StackFrame f : s.frames()) {
            if (stack.length() > 1) {
                stack.append(',');
                lines.append(',');
            }
            stack.append("{\"name\":")
                    .append(Json.quote(f.symbol()))
                    .append(",\"module\":")
                    .append(Json.quote(f.module()))
                    .append(",\"pc\":\"0x")
                    .append(Long.toHexString(f.pc()))
                    .append("\"}");
            lines.append("{\"file\":")
                    .append(Json.quote(f.file()))
                    .append(",\"line\":")
                    .append(f.line())
                    .append('}');
        }
        stack.append(']');
        lines.append(']');
        // the trace's category for either timer (the kind is in extdata), overflow_sampling for overflows
        Category category = overflow ? Category.OVERFLOW_SAMPLING : Category.SAMPLING;
        String extdata = "{\"kind\":\"" + s.kind() + "\",\"interval_ns\":" + s.intervalNs() + ",\"cpu_ns\":" + s.cpuNs()
                + (overflow ? ",\"event\":" + Json.quote(s.event()) : "") + "}";
        long eventId = rows.event(rows.string(category.label()), 0, stack.toString(), lines.toString(), extdata);
        rows.sample(overflow ? t.overflowTrack : t.sampleTrack, s.timestampNs(), eventId);
    }

    /** Commits what is left and closes the file (a complete, stand-alone database). */
    @Override
    public void finish(RunSummary summary) throws IOException {
        close();
    }

    /** Waits until the writer thread has run what this sink gave it so far, without a commit (tests). */
    void awaitWriter() throws IOException {
        try {
            db.awaitWriter();
        } catch (SQLException e) {
            throw new IOException("rocpd: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            try {
                gpu.finish();
            } finally {
                db.close();
            }
        } catch (SQLException e) {
            throw new IOException("rocpd: " + e.getMessage(), e);
        }
    }
}
