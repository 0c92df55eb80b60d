package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceControl;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.BackendRecords;
import org.rocprofsys.core.spi.WireException;

/**
 * Turns one ring's records into events. Plain regions (no readings: nearly all of a traced run's
 * records) are gathered into {@link RegionRun}s of up to {@value #RUN_CAPACITY}, handed on when
 * another kind of record comes, when the run is full, or at the end of a drain, so that no object is
 * made per region. A user region is held back until the record after it, because annotations
 * follow their region as separate records: a region that gets them leaves its run and goes on as
 * its own event. Record times become CLOCK_MONOTONIC ns through the file's
 * {@link ClockConversion}, never going backwards on one ring (a TSC file's conversion is refined
 * while its process runs).
 */
public final class RingDrain {
    private final int pid;
    private final RingFile.Ring ring;
    private final Consumer<TraceEvent> out;
    /** The thread whose records are being read: a slot serves one thread after another, each from its THREAD_START. */
    private int tid;
    /** A THREAD_START was read and its THREAD_END not yet. */
    private boolean threadOpen;

    private long tail;
    private long reportedDrops;
    /** A region held back for the annotations that may follow it; never set while {@link #run} holds regions. */
    private TraceEvent pendingRegion;

    static final int RUN_CAPACITY = 1024;
    /** Plain regions decoded and not yet handed on (null when none). */
    private RegionRun run;
    /** Whether the run's last region is a user region, which annotation records may still follow. */
    private boolean runEndsWithUserRegion;
    /** The size a new run starts with: what the bytes being drained can hold, so a trickle makes small runs. */
    private int runCapacity = RUN_CAPACITY;

    private final List<Annotation> pendingAnnotations = new ArrayList<>();
    private long lastTime;
    private long records;
    private final FunctionNames functions;
    private final BackendRecords backend;
    private final RecordStrings names = new RecordStrings();
    private RingSpool spool = new RingSpool();

    public RingDrain(int pid, RingFile.Ring ring, Consumer<TraceEvent> out) {
        this(pid, ring, out, new FunctionNames(null));
    }

    public RingDrain(int pid, RingFile.Ring ring, Consumer<TraceEvent> out, FunctionNames functions) {
        this(pid, ring, out, functions, BackendRecords.NONE);
    }

    /**
     * @param functions the image's instrumented-function names, shared by the drains of all its
     *                  rings (FUNC_DEF records fill it, FUNC_ENTER records name their regions by it)
     * @param backend   the image's GPU backend records (decoded by the backend, not here)
     */
    public RingDrain(
            int pid, RingFile.Ring ring, Consumer<TraceEvent> out, FunctionNames functions, BackendRecords backend) {
        this.pid = pid;
        this.ring = ring;
        this.out = out;
        this.tid = ring.tid();
        this.tail = ring.tail();
        this.functions = functions;
        this.backend = backend;
        functions.watch(spool); // a FUNC_DEF held here can name another ring's records
    }

    public int tid() {
        return tid;
    }

    /** Time of the latest record read, CLOCK_MONOTONIC ns (0 before any). */
    public long lastTime() {
        return lastTime;
    }

    public long records() {
        return records;
    }

    /**
     * Space is handed back to the producer at least this often while a drain reads (a full ring's
     * worth of records takes milliseconds through the writers, and a producer waiting for room
     * should not wait for all of it).
     */
    private static final long RELEASE_EVERY_BYTES = 16 * 1024;

    /**
     * Reads every record held ({@link #hold}) and published so far and frees their space; returns
     * how many were read.
     */
    public int drain() throws WireException {
        long head = ring.head();
        if (head == tail && spool.isEmpty()) {
            // an idle ring (most of them, most passes) costs no clock derivation
            reportDrops();
            return 0;
        }
        ClockConversion clock = ring.clock(); // after head: pairs stored before those records are seen
        // the most elements the bytes can hold: a 24-byte FUNC_CALL is two
        runCapacity = (int) Math.min(RUN_CAPACITY, Math.max(8, (spool.bytes() + head - tail) / 12));
        int n = decodeHeld(Long.MAX_VALUE, clock);
        MemorySegment data = ring.data();
        long mask = ring.mask();
        while (tail < head) {
            // space goes back to the producer every RELEASE_EVERY_BYTES: nothing refers to decoded bytes
            long pos = tail & mask;
            long stretch = Math.min(data.byteSize(), pos + (head - tail));
            n += decode(data, pos, stretch, Math.min(stretch, pos + RELEASE_EVERY_BYTES), tail, clock);
            tail += decodedTo - pos;
            ring.release(tail);
        }
        records += n;
        handOn();
        reportDrops();
        return n;
    }

    /**
     * Reads the oldest held records ({@link #hold}), whole pieces (what one hold took of a stretch)
     * until at least {@code bytes} of them, leaving the rest held and the ring alone; returns how
     * many it read.
     */
    public int drainHeld(long bytes) throws WireException {
        if (spool.isEmpty()) {
            return 0;
        }
        runCapacity = RUN_CAPACITY;
        int n = decodeHeld(bytes, ring.clock());
        records += n;
        handOn();
        return n;
    }

    private int decodeHeld(long bytes, ClockConversion clock) throws WireException {
        if (spool.isEmpty()) {
            return 0;
        }
        int[] count = new int[1];
        spool.drainTo((data, from, to) -> count[0] += decode(data, from, to, to, -1, clock), bytes);
        return count[0];
    }

    /** Hands on the decoded regions, but a last user region, which annotations may still follow. */
    private void handOn() {
        if (run != null && runEndsWithUserRegion) {
            pendingRegion = run.removeLast(); // held back, as a region out of a run would be
        }
        emitRun();
    }

    /** Where the last {@link #decode} stopped (the offset after its last record, or the stretch's end at a PAD). */
    private long decodedTo;

    /**
     * Decodes the records of {@code data} from {@code from} on, up to the first record boundary at or
     * after {@code stop}, within a stretch that ends at {@code end} and does not wrap (a PAD skips to
     * {@code end}); sets {@link #decodedTo} and returns how many records it read. {@code offset} is
     * where {@code from} is in the ring's byte stream, for errors (-1: held bytes).
     */
    private int decode(MemorySegment data, long from, long end, long stop, long offset, ClockConversion clock)
            throws WireException {
        int n = 0;
        long pos = from;
        while (pos < stop) {
            // the header's type, size and aux in one read (little-endian: type in the low 16 bits)
            long header = data.get(JAVA_LONG_UNALIGNED, pos);
            int type = (int) header & 0xffff;
            int size = (int) (header >>> 16) & 0xffff;
            if (type == WireFormat.REC_PAD) {
                pos = end;
                break;
            }
            if (size < 8 || (size & 7) != 0 || pos + size > end) {
                throw new WireException("pid " + pid + " tid " + tid + ": corrupt record (type " + type + ", size "
                        + size + ")" + (offset < 0 ? " in its held records" : " at offset " + (offset + pos - from)));
            }
            int aux = (int) (header >>> 32);
            if (isPlainRegion(type, size, aux)) {
                plainRegion(data, pos, size, type, aux, clock); // nearly every record: no other test first
            } else {
                decode(data, pos, size, type, aux, clock);
            }
            pos += size;
            n++;
        }
        decodedTo = pos;
        return n;
    }

    /**
     * Copies every record published so far into this drain's spool and frees their space, decoding
     * nothing: the collector's work while the target runs is then a copy per record, and the
     * records are read by the next {@link #drain}. Returns how many bytes it took. Where memory runs
     * out it throws {@link OutOfMemoryError}, having taken only whole stretches: the rest stays in the
     * ring, for a drain to read after the held records.
     */
    public long hold() {
        long head = ring.head();
        if (head == tail) {
            return 0;
        }
        MemorySegment data = ring.data();
        long mask = ring.mask();
        long taken = head - tail;
        while (tail < head) {
            long pos = tail & mask;
            long length = Math.min(data.byteSize() - pos, head - tail);
            spool.take(data, pos, length);
            tail += length;
        }
        ring.release(tail);
        return taken;
    }

    /** Holds records in chunks of {@code bytes} from now on (tests); nothing may be held yet. */
    void holdInChunksOf(long bytes) {
        if (!spool.isEmpty()) {
            throw new IllegalStateException("records are held");
        }
        spool = new RingSpool(bytes);
        functions.watch(spool);
    }

    /** Bytes {@link #hold} has taken that no {@link #drain} has read yet. */
    public long heldBytes() {
        return spool.bytes();
    }

    private void reportDrops() {
        long dropped = ring.dropped();
        if (dropped != reportedDrops) {
            reportedDrops = dropped;
            flushPending();
            out.accept(new RecordsDropped(lastTime, pid, tid, dropped));
        }
    }

    /** Emits the held-back regions; called when the ring can have nothing more for them. */
    public void flushPending() {
        emitRun();
        emitPendingRegion();
    }

    private void emitRun() {
        if (run != null) {
            RegionRun r = run;
            run = null;
            if (!r.isEmpty()) {
                out.accept(r);
            }
        }
    }

    /** The run to add the next plain region to: a new one when there is none or it is full. */
    private RegionRun run(boolean userRegion) {
        return run(userRegion, 1);
    }

    /** The run to add the next {@code elements} plain regions to, which it holds without growing. */
    private RegionRun run(boolean userRegion, int elements) {
        if (run != null && run.size() + elements > RUN_CAPACITY) {
            emitRun();
        }
        if (run == null) {
            run = new RegionRun(pid, tid, runCapacity);
        }
        runEndsWithUserRegion = userRegion;
        return run;
    }

    private void emitPendingRegion() {
        if (pendingRegion == null) {
            return;
        }
        if (pendingAnnotations.isEmpty()) {
            TraceEvent e = pendingRegion;
            pendingRegion = null;
            out.accept(e);
            return;
        }
        List<Annotation> annotations = List.copyOf(pendingAnnotations);
        TraceEvent e = switch (pendingRegion) {
            case RegionBegin b ->
                new RegionBegin(b.timestampNs(), b.pid(), b.tid(), b.name(), b.category(), annotations, b.metrics());
            case RegionEnd en ->
                new RegionEnd(
                        en.timestampNs(), en.pid(), en.tid(), en.category(), annotations, en.metrics(), en.forced());
            default -> pendingRegion;
        };
        pendingRegion = null;
        pendingAnnotations.clear();
        out.accept(e);
    }

    /**
     * A region begin or end without readings, or an instrumented function's entry or exit without
     * metrics: what goes into a {@link RegionRun}.
     */
    private static boolean isPlainRegion(int type, int size, int aux) {
        return (type == WireFormat.REC_REGION_BEGIN || type == WireFormat.REC_REGION_END)
                        && WireFormat.metricFlags(aux) == 0
                || (type == WireFormat.REC_FUNC_ENTER || type == WireFormat.REC_FUNC_EXIT) && size <= 16
                || type == WireFormat.REC_FUNC_CALL && size == 24;
    }

    /** Adds a plain region ({@link #isPlainRegion}) to the run. */
    private void plainRegion(MemorySegment data, long at, int size, int type, int aux, ClockConversion clock) {
        if (pendingRegion != null) {
            emitPendingRegion();
        }
        long time = recordTime(data, at, clock);
        switch (type) {
            case WireFormat.REC_REGION_BEGIN -> {
                long end = at + size;
                run(true)
                        .addBegin(
                                time,
                                at + 16 < end ? names.get(data, at + 16, end) : "",
                                Category.fromCode(aux & 0xff));
            }
            case WireFormat.REC_REGION_END -> run(true).addEnd(time, Category.fromCode(aux & 0xff));
            case WireFormat.REC_FUNC_ENTER -> run(false).addBegin(time, functions.name(aux), Category.HOST);
            case WireFormat.REC_FUNC_CALL -> {
                RegionRun r = run(false, 2);
                r.addBegin(time, functions.name(aux), Category.HOST);
                r.addEnd(timeAt(data, at + 16, clock), Category.HOST);
            }
            default -> run(false).addEnd(time, Category.HOST);
        }
    }

    /**
     * Once the ring's process is gone and every published record is read: the FUNC_ENTER its thread
     * had written but not yet published ({@link WireFormat#REC_FUNC_CALL}), the call it died in, as
     * the region it opened. Nothing when the ring header's unpublished head says there is none.
     */
    public void recoverUnpublished() {
        long head = ring.head();
        if (tail != head || ring.unpublishedHead() != head + 16) {
            return;
        }
        MemorySegment data = ring.data();
        long pos = head & ring.mask();
        if (pos + 16 > data.byteSize()) {
            return;
        }
        long header = data.get(JAVA_LONG_UNALIGNED, pos);
        int type = (int) header & 0xffff;
        int size = (int) (header >>> 16) & 0xffff;
        // a FUNC_CALL: the process died in the exit hook after the record was complete
        boolean enter = type == WireFormat.REC_FUNC_ENTER && size == 16;
        boolean call = type == WireFormat.REC_FUNC_CALL && size == 24 && pos + 24 <= data.byteSize();
        if (enter || call) {
            plainRegion(data, pos, size, type, (int) (header >>> 32), ring.clock());
            tail = head + size;
            records++;
        }
    }

    /** The record's time as CLOCK_MONOTONIC ns, never before the ring's previous record's. */
    private long recordTime(MemorySegment data, long at, ClockConversion clock) {
        return timeAt(data, at + 8, clock);
    }

    /** The record clock value at {@code at} as CLOCK_MONOTONIC ns, never before the ring's previous record's. */
    private long timeAt(MemorySegment data, long at, ClockConversion clock) {
        long time = Math.max(clock.toMonotonicNs(data.get(JAVA_LONG_UNALIGNED, at)), lastTime);
        lastTime = time;
        return time;
    }

    /** Decodes a record that is not a plain region, of {@code size} bytes at offset {@code at} of the ring's data. */
    private void decode(MemorySegment data, long at, int size, int type, int aux, ClockConversion clock)
            throws WireException {
        long end = at + size;
        if (type == WireFormat.REC_ANNOTATION) {
            if (pendingRegion == null && run != null && runEndsWithUserRegion) {
                // the run's last region is annotated: it goes on as an event of its own, after the rest
                pendingRegion = run.removeLast();
                emitRun();
            }
            if (pendingRegion != null) {
                pendingAnnotations.add(annotation(data.asSlice(at, size), aux));
            }
            return;
        }
        if (backend.owns(type)) {
            // GPU records carry CLOCK_MONOTONIC times of their own (GPU activity arrives late and
            // out of order), so they neither move nor follow the ring's clock
            flushPending();
            backend.accept(tid, data.asSlice(at, size));
            return;
        }
        if (type == WireFormat.REC_FUNC_DEF) {
            functions.define(aux, string(data.asSlice(at, size), 8)); // no event: annotations may still follow a region
            return;
        }
        flushPending(); // the drain loop decodes plain regions itself
        long time = recordTime(data, at, clock);
        switch (type) {
            case WireFormat.REC_THREAD_START -> {
                if (threadOpen) {
                    // the slot's last thread lost its THREAD_END to a full ring: it ended before this one
                    out.accept(new ThreadEnded(time, pid, tid, true));
                }
                tid = data.get(JAVA_INT_UNALIGNED, at + 16); // what was held back went out above, under the last one's
                threadOpen = true;
                out.accept(new ThreadStarted(time, pid, tid, data.get(JAVA_INT_UNALIGNED, at + 20)));
            }
            case WireFormat.REC_THREAD_END -> {
                threadOpen = false;
                out.accept(new ThreadEnded(time, pid, tid, false));
            }
            case WireFormat.REC_REGION_BEGIN -> {
                int flags = WireFormat.metricFlags(aux);
                long nameAt = at + 16 + 8L * Integer.bitCount(flags);
                pendingRegion = new RegionBegin(
                        time,
                        pid,
                        tid,
                        nameAt < end ? names.get(data, nameAt, end) : "",
                        Category.fromCode(aux & 0xff),
                        List.of(),
                        metrics(data, at, size, flags));
            }
            case WireFormat.REC_REGION_END -> {
                int flags = WireFormat.metricFlags(aux);
                pendingRegion = new RegionEnd(
                        time,
                        pid,
                        tid,
                        Category.fromCode(aux & 0xff),
                        List.of(),
                        metrics(data, at, size, flags),
                        false);
            }
            case WireFormat.REC_FUNC_ENTER ->
                out.accept(new RegionBegin(
                        time,
                        pid,
                        tid,
                        functions.name(aux),
                        Category.HOST,
                        List.of(),
                        functionMetrics(data, at, size)));
            case WireFormat.REC_FUNC_EXIT ->
                out.accept(new RegionEnd(
                        time, pid, tid, Category.HOST, List.of(), functionMetrics(data, at, size), false));
            case WireFormat.REC_MARK ->
                out.accept(new Mark(
                        time,
                        pid,
                        tid,
                        at + 16 < end ? names.get(data, at + 16, end) : "",
                        Category.fromCode(aux & 0xff)));
            case WireFormat.REC_FORK -> out.accept(new Fork(time, pid, tid, data.get(JAVA_INT_UNALIGNED, at + 16)));
            case WireFormat.REC_TRACE_CONTROL ->
                out.accept(new TraceControl(time, pid, tid, (aux & 1) != 0, (aux & 2) != 0));
            case WireFormat.REC_STACK_SAMPLE -> out.accept(stackSample(data.asSlice(at, size), aux, time));
            default -> throw new WireException("pid " + pid + " tid " + tid + ": unknown record type " + type);
        }
    }

    private AgentStackSample stackSample(MemorySegment r, int aux, long time) throws WireException {
        long counts = r.get(JAVA_LONG, 24);
        int npcs = (int) (counts & 0xffff);
        int nregs = (int) ((counts >>> 16) & 0xffff);
        long stackSize = counts >>> 32;
        long regsAt = 32;
        long pcsAt = regsAt + 8L * nregs;
        long stackAt = pcsAt + 8L * npcs;
        if (npcs > WireFormat.SAMPLE_MAX_PCS
                || (nregs != 0 && nregs != WireFormat.SAMPLE_NREGS)
                || stackAt + stackSize > r.byteSize()) {
            throw new WireException("pid " + pid + " tid " + tid + ": corrupt stack sample (" + npcs + " pcs, " + nregs
                    + " registers, " + stackSize + " stack bytes in " + r.byteSize() + ")");
        }
        long[] regs = r.asSlice(regsAt, 8L * nregs).toArray(JAVA_LONG);
        long[] pcs = r.asSlice(pcsAt, 8L * npcs).toArray(JAVA_LONG);
        byte[] stack = r.asSlice(stackAt, stackSize).toArray(JAVA_BYTE);
        StackSample.Kind kind = aux == WireFormat.TIMER_REALTIME ? StackSample.Kind.WALL : StackSample.Kind.CPU;
        // the thread's counters follow the padded stack (docs/wire-protocol.md)
        long countersAt = (stackAt + stackSize + 7) & ~7L;
        long[] counters = countersAt < r.byteSize()
                ? r.asSlice(countersAt, (r.byteSize() - countersAt) & ~7L).toArray(JAVA_LONG)
                : new long[0];
        return new AgentStackSample(time, pid, tid, kind, r.get(JAVA_LONG, 16), pcs, regs, stack, counters);
    }

    /** A FUNC_ENTER/EXIT longer than time alone carries the file's metrics. */
    private RegionMetrics functionMetrics(MemorySegment data, long at, int size) {
        return size > 16 ? metrics(data, at, size, ring.metrics()) : RegionMetrics.NONE;
    }

    /** The metrics of the record at {@code at}, sliced only when it has any (most have none). */
    private static RegionMetrics metrics(MemorySegment data, long at, int size, int flags) {
        return flags == 0 ? RegionMetrics.NONE : metrics(data.asSlice(at, size), flags);
    }

    private static final int USAGE_FLAGS = WireFormat.METRIC_VIRTUAL
            | WireFormat.METRIC_USER_TIME
            | WireFormat.METRIC_KERNEL_TIME
            | WireFormat.METRIC_MAJOR_FAULTS
            | WireFormat.METRIC_MINOR_FAULTS
            | WireFormat.METRIC_VOLUNTARY_CSW
            | WireFormat.METRIC_PRIORITY_CSW;

    /** The u64 after the time per flag set, in bit order (docs/wire-protocol.md). */
    static RegionMetrics metrics(MemorySegment r, int flags) {
        if (flags == 0) {
            return RegionMetrics.NONE;
        }
        long[] v = new long[24];
        java.util.Arrays.fill(v, RegionMetrics.ABSENT);
        long offset = 16;
        for (int bit = 0; bit < 24; bit++) {
            if ((flags & (1 << bit)) != 0 && offset + 8 <= r.byteSize()) {
                v[bit] = r.get(JAVA_LONG, offset);
                offset += 8;
            }
        }
        RegionMetrics.ResourceUsage usage = (flags & USAGE_FLAGS) == 0
                ? RegionMetrics.ResourceUsage.NONE
                : new RegionMetrics.ResourceUsage(v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
        RegionMetrics.CounterValues counters = RegionMetrics.CounterValues.NONE;
        int counterBits = (flags & WireFormat.METRIC_COUNTERS) >>> 16;
        if (counterBits != 0) {
            int n = 32 - Integer.numberOfLeadingZeros(counterBits);
            counters = new RegionMetrics.CounterValues(java.util.Arrays.copyOfRange(v, 16, 16 + n));
        }
        return new RegionMetrics(v[0], v[1], v[2], usage, counters);
    }

    private static Annotation annotation(MemorySegment r, int type) {
        long raw = r.get(JAVA_LONG, 8);
        String name = string(r, 16);
        AnnotationValue value = switch (type) {
            case 1 -> new AnnotationValue.Text(string(r, 16 + utf8Length(r, 16) + 1));
            case 3, 7, 10 -> new AnnotationValue.Signed(raw);
            case 2, 4, 8, 11 -> new AnnotationValue.Unsigned(raw);
            case 5, 9 -> new AnnotationValue.Real(Double.longBitsToDouble(raw));
            case 6 -> new AnnotationValue.Pointer(raw);
            default -> new AnnotationValue.Unsigned(raw);
        };
        return new Annotation(name, value);
    }

    private static int utf8Length(MemorySegment r, long offset) {
        int len = 0;
        while (offset + len < r.byteSize() && r.get(JAVA_BYTE, offset + len) != 0) {
            len++;
        }
        return len;
    }

    /** The NUL-terminated UTF-8 string at {@code offset} of record {@code r}. */
    static String string(MemorySegment r, long offset) {
        if (offset >= r.byteSize()) {
            return "";
        }
        int len = utf8Length(r, offset);
        return new String(r.asSlice(offset, len).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
    }
}
