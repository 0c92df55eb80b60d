package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.WireException;

/**
 * How a drain gathers plain regions into {@link RegionRun}s, on a ring file written here in the
 * wire layout (docs/wire-protocol.md): runs are split at their capacity and at every other kind of
 * record, a region that annotations follow (in the same drain or the next) leaves its run with
 * them, a region with readings goes on as its own event, and the order of the records is kept.
 */
class RingDrainRunsTest {
    private static final int PID = 77;
    private static final int TID = 78;
    private static final int DATA = 1 << 20;

    @TempDir
    Path dir;

    private Arena arena;
    private MemorySegment file;
    private MemorySegment data;
    private long head;
    private long time = 1_000;
    private RingFile ring;
    private final List<TraceEvent> seen = new ArrayList<>();
    private RingDrain drain;

    @BeforeEach
    void ringFile() throws IOException, WireException {
        Path path = dir.resolve(PID + ".0.ring");
        long size = WireFormat.FILE_HEADER_SIZE + WireFormat.RING_HEADER_SIZE + DATA;
        arena = Arena.ofShared();
        try (FileChannel ch =
                FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            file = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        }
        file.set(JAVA_LONG, WireFormat.H_MAGIC, WireFormat.MAGIC);
        file.set(JAVA_INT, WireFormat.H_VERSION, WireFormat.VERSION);
        file.set(JAVA_INT, WireFormat.H_HEADER_SIZE, WireFormat.FILE_HEADER_SIZE);
        file.set(JAVA_INT, WireFormat.H_RING_HEADER_SIZE, WireFormat.RING_HEADER_SIZE);
        file.set(JAVA_INT, WireFormat.H_MAX_RINGS, 1);
        file.set(JAVA_LONG, WireFormat.H_RING_DATA_SIZE, DATA);
        file.set(JAVA_INT, WireFormat.H_PID, PID);
        file.set(JAVA_INT, WireFormat.H_CLOCK_KIND, WireFormat.CLOCK_MONOTONIC_NS);
        file.set(JAVA_INT, WireFormat.H_RINGS_CLAIMED, 1);
        file.set(JAVA_INT, WireFormat.H_STATE, WireFormat.STATE_RUNNING);
        long ringHeader = WireFormat.FILE_HEADER_SIZE;
        file.set(JAVA_INT, ringHeader + WireFormat.R_STATE, WireFormat.RING_ACTIVE);
        file.set(JAVA_INT, ringHeader + WireFormat.R_TID, TID);
        data = file.asSlice(ringHeader + WireFormat.RING_HEADER_SIZE, DATA);
        ring = RingFile.open(path);
        drain = new RingDrain(PID, ring.rings().getFirst(), seen::add);
    }

    @AfterEach
    void close() {
        ring.close();
        arena.close();
    }

    @Test
    void plainRegionsComeInRunsSplitAtTheirCapacityAndAtOtherRecords() throws WireException {
        int n = 2 * RingDrain.RUN_CAPACITY + 100;
        List<TraceEvent> expected = new ArrayList<>();
        for (int i = 0; i < n / 2; i++) {
            expected.add(begin("f"));
            expected.add(end());
        }
        expected.add(mark("between"));
        expected.add(begin("after"));
        publish();
        assertEquals(n + 2, drain.drain());
        drain.flushPending();
        List<Integer> sizes = new ArrayList<>();
        for (TraceEvent e : seen) {
            sizes.add(e instanceof RegionRun r ? r.size() : -1);
        }
        // the last user region waits for annotations: it comes alone, at the flush
        assertEquals(
                List.of(RingDrain.RUN_CAPACITY, RingDrain.RUN_CAPACITY, n - 2 * RingDrain.RUN_CAPACITY, -1, -1), sizes);
        assertEquals(expected, expanded());
    }

    @Test
    void anAnnotatedRegionLeavesItsRunWithItsAnnotationsAlsoWhenTheyComeInTheNextDrain() throws WireException {
        List<TraceEvent> expected = new ArrayList<>();
        expected.add(begin("a"));
        RegionBegin annotated = begin("annotated");
        annotation("size", 42);
        expected.add(new RegionBegin(
                annotated.timestampNs(),
                PID,
                TID,
                "annotated",
                Category.USER,
                List.of(new Annotation("size", new AnnotationValue.Signed(42))),
                RegionMetrics.NONE));
        expected.add(begin("b"));
        expected.add(end());
        RegionEnd lastEnd = end();
        publish();
        drain.drain(); // the end may still get annotations: held back
        functionDefinition(7, "defined"); // no event: the end is still the last region
        annotation("result", -1);
        publish();
        drain.drain();
        expected.add(new RegionEnd(
                lastEnd.timestampNs(),
                PID,
                TID,
                Category.USER,
                List.of(new Annotation("result", new AnnotationValue.Signed(-1))),
                RegionMetrics.NONE,
                false));
        expected.add(functionEnter(7, "defined"));
        annotation("ignored", 1); // an instrumented function's region takes no annotation
        expected.add(functionExit());
        assertDrained(expected);
        assertTrue(seen.stream().anyMatch(e -> e instanceof RegionRun r && r.size() == 2), "runs: " + seen);
    }

    @Test
    void aRegionWithReadingsIsAnEventOfItsOwnBetweenRuns() throws WireException {
        List<TraceEvent> expected = new ArrayList<>();
        expected.add(begin("a"));
        expected.add(begin("b"));
        expected.add(beginWithThreadCpu("measured", 5_000));
        expected.add(end());
        expected.add(end());
        assertDrained(expected);
        assertEquals(
                List.of(RegionRun.class, RegionBegin.class, RegionRun.class, RegionEnd.class),
                seen.stream().map(Object::getClass).toList());
    }

    @Test
    void aFunctionCallIsItsBeginAndEndInOneRunAndTheUnpublishedEnterOfAGoneProcessIsRecoveredOnce()
            throws WireException {
        List<TraceEvent> expected = new ArrayList<>();
        functionDefinition(3, "leaf");
        functionDefinition(4, "outer");
        expected.add(functionEnter(4, "outer"));
        expected.addAll(functionCall(3, "leaf"));
        expected.addAll(functionCall(3, "leaf"));
        expected.add(functionExit());
        assertDrained(expected);
        assertEquals(
                List.of(RegionRun.class), seen.stream().map(Object::getClass).toList());

        // written after head: recovered only where unpublished_head says head + 16
        long ringHeader = WireFormat.FILE_HEADER_SIZE;
        RegionBegin unpublished = functionEnter(3, "leaf");
        head -= 16;
        drain.recoverUnpublished();
        drain.flushPending();
        assertEquals(expected, expanded(), "no unpublished_head: nothing");
        file.set(JAVA_LONG, ringHeader + WireFormat.R_UNPUBLISHED_HEAD, head + 8);
        drain.recoverUnpublished();
        drain.flushPending();
        assertEquals(expected, expanded(), "not head + 16: nothing");
        file.set(JAVA_LONG, ringHeader + WireFormat.R_UNPUBLISHED_HEAD, head + 16);
        drain.recoverUnpublished();
        drain.recoverUnpublished();
        drain.flushPending();
        expected.add(unpublished);
        assertEquals(expected, expanded());
    }

    // ---- the ring, written as the agent writes it -----------------------------------------------

    /**
     * A slot serves one thread after another (docs/wire-protocol.md, "Ring slots"): each one's
     * records are its own, from its THREAD_START on, and a thread whose THREAD_END a full ring lost
     * ends where the next one starts.
     */
    @Test
    void aSlotsThreadsFollowOneAnotherEachUnderItsOwnTid() throws WireException {
        List<TraceEvent> expected = new ArrayList<>();
        expected.add(threadStart(TID, 1));
        expected.add(begin("first"));
        expected.add(end());
        long t = time += 10;
        record(WireFormat.REC_THREAD_END, 0, 0, t);
        expected.add(new ThreadEnded(t, PID, TID, false));
        expected.add(threadStart(TID + 1, 2));
        t = time += 10;
        string(record(WireFormat.REC_REGION_BEGIN, 7, Category.USER.code(), t) + 16, "second");
        expected.add(new RegionBegin(t, PID, TID + 1, "second", Category.USER, List.of(), RegionMetrics.NONE));
        t = time += 10;
        record(WireFormat.REC_REGION_END, 0, Category.USER.code(), t);
        expected.add(new RegionEnd(t, PID, TID + 1, Category.USER, List.of(), RegionMetrics.NONE, false));
        // TID + 1's THREAD_END was lost: it ends at the next thread's start
        t = time += 10;
        long at = record(WireFormat.REC_THREAD_START, 8, 0, t);
        data.set(JAVA_INT, at + 16, TID + 2);
        data.set(JAVA_INT, at + 20, 3);
        expected.add(new ThreadEnded(t, PID, TID + 1, true));
        expected.add(new ThreadStarted(t, PID, TID + 2, 3));
        assertDrained(expected);
        assertEquals(TID + 2, drain.tid());
    }

    private ThreadStarted threadStart(int tid, int seq) {
        long t = time += 10;
        long at = record(WireFormat.REC_THREAD_START, 8, 0, t);
        data.set(JAVA_INT, at + 16, tid);
        data.set(JAVA_INT, at + 20, seq);
        return new ThreadStarted(t, PID, tid, seq);
    }

    private List<TraceEvent> expanded() {
        List<TraceEvent> out = new ArrayList<>();
        seen.forEach(RegionRun.expanding(out::add));
        return out;
    }

    /** Publishes what was written, drains it all and checks the events, run-length expanded. */
    private void assertDrained(List<?> expected) throws WireException {
        publish();
        drain.drain();
        drain.flushPending();
        assertEquals(expected, expanded());
    }

    private void publish() {
        file.set(JAVA_LONG, WireFormat.FILE_HEADER_SIZE + WireFormat.R_HEAD, head);
    }

    private long record(int type, int payload, int aux, long t) {
        int size = (16 + payload + 7) & ~7;
        long at = head;
        data.set(JAVA_SHORT, at, (short) type);
        data.set(JAVA_SHORT, at + 2, (short) size);
        data.set(JAVA_INT, at + 4, aux);
        data.set(JAVA_LONG, at + 8, t);
        head += size;
        return at;
    }

    private void string(long at, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(b, 0, data, JAVA_BYTE, at, b.length);
        data.set(JAVA_BYTE, at + b.length, (byte) 0);
    }

    private RegionBegin begin(String name) {
        long t = time += 10;
        string(record(WireFormat.REC_REGION_BEGIN, name.length() + 1, Category.USER.code(), t) + 16, name);
        return new RegionBegin(t, PID, TID, name, Category.USER, List.of(), RegionMetrics.NONE);
    }

    private RegionBegin beginWithThreadCpu(String name, long cpuNs) {
        long t = time += 10;
        int aux = Category.USER.code() | WireFormat.METRIC_THREAD_CPU << 8;
        long at = record(WireFormat.REC_REGION_BEGIN, 8 + name.length() + 1, aux, t);
        data.set(JAVA_LONG, at + 16, cpuNs);
        string(at + 24, name);
        RegionMetrics m = RingDrain.metrics(data.asSlice(at, 16 + 8), WireFormat.METRIC_THREAD_CPU);
        assertEquals(cpuNs, m.threadCpuNs());
        return new RegionBegin(t, PID, TID, name, Category.USER, List.of(), m);
    }

    private RegionEnd end() {
        long t = time += 10;
        record(WireFormat.REC_REGION_END, 0, Category.USER.code(), t);
        return new RegionEnd(t, PID, TID, Category.USER, List.of(), RegionMetrics.NONE, false);
    }

    private Mark mark(String name) {
        long t = time += 10;
        string(record(WireFormat.REC_MARK, name.length() + 1, Category.USER.code(), t) + 16, name);
        return new Mark(t, PID, TID, name, Category.USER);
    }

    /** A signed 64-bit annotation (type 3) of the region before it. */
    private void annotation(String name, long value) {
        long at = record(WireFormat.REC_ANNOTATION, name.length() + 1, 3, value);
        string(at + 16, name);
    }

    private void functionDefinition(int id, String name) {
        long at = head;
        int size = (8 + name.length() + 1 + 7) & ~7;
        data.set(JAVA_SHORT, at, (short) WireFormat.REC_FUNC_DEF);
        data.set(JAVA_SHORT, at + 2, (short) size);
        data.set(JAVA_INT, at + 4, id);
        string(at + 8, name);
        head += size;
    }

    private RegionBegin functionEnter(int id, String name) {
        long t = time += 10;
        record(WireFormat.REC_FUNC_ENTER, 0, id, t);
        return new RegionBegin(t, PID, TID, name, Category.HOST, List.of(), RegionMetrics.NONE);
    }

    /** A FUNC_CALL: the begin and the end it stands for. */
    private List<TraceEvent> functionCall(int id, String name) {
        long t = time += 10;
        long t2 = time += 10;
        long at = record(WireFormat.REC_FUNC_CALL, 8, id, t);
        data.set(JAVA_LONG, at + 16, t2);
        return List.of(
                new RegionBegin(t, PID, TID, name, Category.HOST, List.of(), RegionMetrics.NONE),
                new RegionEnd(t2, PID, TID, Category.HOST, List.of(), RegionMetrics.NONE, false));
    }

    private RegionEnd functionExit() {
        long t = time += 10;
        record(WireFormat.REC_FUNC_EXIT, 0, 0, t);
        return new RegionEnd(t, PID, TID, Category.HOST, List.of(), RegionMetrics.NONE, false);
    }
}
