package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.Trace;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackEvent;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.DecodedTrace.Slice;
import org.rocprofsys.tracetest.DecodedTrace.Track;

class PerfettoSinkTest {
    /** A realistic CLOCK_MONOTONIC origin (about 1.4 days of uptime), so deltas matter. */
    static final long T0 = 123_456_789_012_345L;

    static final long REALTIME_OFFSET = 1_700_000_000_000_000_000L - T0;
    static final int PID = 4242;

    @TempDir
    Path dir;

    // ---- helpers ---------------------------------------------------------------------------

    static RegionBegin begin(long t, int tid, String name, Category c, Annotation... a) {
        return new RegionBegin(T0 + t, PID, tid, name, c, List.of(a), RegionMetrics.NONE);
    }

    static RegionEnd end(long t, int tid, Category c, Annotation... a) {
        return new RegionEnd(T0 + t, PID, tid, c, List.of(a), RegionMetrics.NONE, false);
    }

    static RegionEnd forcedEnd(long t, int tid) {
        return new RegionEnd(T0 + t, PID, tid, Category.HOST, List.of(), RegionMetrics.NONE, true);
    }

    static RunSummary summary(long t) {
        return new RunSummary(T0 + t, REALTIME_OFFSET, PID, "app", Map.of());
    }

    static ProcessStarted processStarted(long t, int pid, String exe) {
        return new ProcessStarted(T0 + t, pid, 1, exe, List.of(exe, "--size", "8"), 0, 0);
    }

    Path write(PerfettoSink.Options options, long endT, TraceEvent... events) throws IOException {
        Path out = dir.resolve("perfetto-trace.proto");
        SinkFeed.run(new PerfettoSink(out, options), List.of(events), summary(endT));
        return out;
    }

    /** Writes process PID ({@code exe}) with its main thread started at T0 + {@code threadT}, then {@code events}. */
    Path writeStarted(PerfettoSink.Options options, long endT, String exe, long threadT, TraceEvent... events)
            throws IOException {
        List<TraceEvent> all = new ArrayList<>();
        all.add(processStarted(0, PID, exe));
        all.add(new ThreadStarted(T0 + threadT, PID, PID, 0));
        all.addAll(List.of(events));
        return write(options, endT, all.toArray(TraceEvent[]::new));
    }

    Path writeApp(PerfettoSink.Options options, long endT, TraceEvent... events) throws IOException {
        return writeStarted(options, endT, "app", 0, events);
    }

    /** The stack of the sampling tests: main without a source file, heavy at a.c:7. */
    static final List<StackFrame> MAIN_HEAVY =
            List.of(new StackFrame("main", "/app", 0x1000, null, 0), new StackFrame("heavy", "/app", 0x2000, "a.c", 7));

    static StackSample cpuSample(long t, List<StackFrame> stack) {
        return new StackSample(T0 + t, PID, PID, stack, StackSample.Kind.CPU, 1_000_000);
    }

    /** The sampling tests' run: /usr/local/bin/app, its main thread from T0 + 10, then {@code events}. */
    DecodedTrace writeSampled(PerfettoSink.Options options, TraceEvent... events) throws IOException {
        return DecodedTrace.read(writeStarted(options, 10_000_000, "/usr/local/bin/app", 10, events));
    }

    static List<Track> sampledTracks(DecodedTrace trace) {
        return trace.tracks.values().stream()
                .filter(t -> t.descriptor().getName().equals("Thread 0 (S) " + PID))
                .toList();
    }

    static Slice firstSlice(DecodedTrace trace, String name) {
        return trace.slices.stream()
                .filter(s -> s.name.equals(name))
                .findFirst()
                .orElseThrow();
    }

    static PerfettoSink.Options annotated() {
        return new PerfettoSink.Options(true, REALTIME_OFFSET, "app");
    }

    static PerfettoSink.Options plain() {
        return new PerfettoSink.Options(false, REALTIME_OFFSET, "app");
    }

    // ---- tests -----------------------------------------------------------------------------

    @Test
    void sampledStacksGoOnTheirOwnTrackNestedMainToLeaf() throws IOException {
        DecodedTrace trace =
                writeSampled(plain(), cpuSample(2_000_000, MAIN_HEAVY), cpuSample(3_000_000, MAIN_HEAVY.subList(0, 1)));
        Track track = sampledTracks(trace).getFirst();
        List<String> slices = trace.slices.stream()
                .filter(s -> s.trackUuid == track.uuid())
                .map(s -> s.depth + ":" + s.name + "@" + (s.beginNs - T0) + ".." + (s.endNs - T0))
                .toList();
        assertEquals(
                List.of(
                        "0:samples [rocprof-sys]@1000000..2000000",
                        "1:main@1000000..2000000",
                        "2:heavy@1000000..2000000",
                        "0:samples [rocprof-sys]@2000000..3000000",
                        "1:main@2000000..3000000"),
                slices);
    }

    @Test
    void sampledFramesCarryFilePcAndLine() throws IOException {
        DecodedTrace trace = writeSampled(annotated(), cpuSample(2_000_000, MAIN_HEAVY));
        Slice heavy = firstSlice(trace, "heavy");
        assertEquals("a.c", heavy.args.get("file"));
        assertEquals(7L, ((Number) heavy.args.get("line")).longValue());
        assertEquals("ptr:2000", String.valueOf(heavy.args.get("pc")));
        Slice main = firstSlice(trace, "main");
        assertEquals("/app", main.args.get("file"), "the module where DWARF names no file");
        assertFalse(main.args.containsKey("line"));
        Slice outer = firstSlice(trace, PerfettoSink.SAMPLES_SLICE);
        assertTrue(outer.args.containsKey("begin_ns") && outer.args.containsKey("end_ns"), outer.args::toString);
    }

    @Test
    void samplesDrainedAfterTheProcessEndedStayUnderItsTrack() throws IOException {
        // the sampler is another source: its last samples can reach the sink after ProcessEnded
        List<StackFrame> stack = MAIN_HEAVY.subList(0, 1);
        DecodedTrace trace = writeSampled(
                plain(),
                cpuSample(2_000_000, stack),
                new ProcessEnded(T0 + 2_500_000, PID, ProcessEnd.EXITED, 0),
                cpuSample(3_000_000, stack));
        List<Track> processTracks =
                trace.tracks.values().stream().filter(Track::isProcess).toList();
        assertEquals(1, processTracks.size());
        List<Track> sampled = sampledTracks(trace);
        assertEquals(1, sampled.size());
        assertEquals(processTracks.getFirst().uuid(), sampled.getFirst().parentUuid());
        // per sample: the outer slice and the frame
        assertEquals(
                4,
                trace.slices.stream()
                        .filter(s -> s.trackUuid == sampled.getFirst().uuid())
                        .count());
    }

    @Test
    void tracksSlicesNestingTimestampsAndAnnotations() throws IOException {
        Path out = write(
                annotated(),
                3000,
                processStarted(0, PID, "/usr/local/bin/app"),
                new ThreadStarted(T0 + 10, PID, PID, 0),
                begin(100, PID, "app", Category.HOST),
                begin(
                        200,
                        PID,
                        "compute",
                        Category.USER,
                        new Annotation("iter", new AnnotationValue.Signed(-3)),
                        new Annotation("n", new AnnotationValue.Unsigned(7)),
                        new Annotation("ratio", new AnnotationValue.Real(0.5)),
                        new Annotation("label", new AnnotationValue.Text("x y")),
                        new Annotation("ptr", new AnnotationValue.Pointer(0xdead)),
                        new Annotation("ok", new AnnotationValue.Bool(true))),
                new ThreadStarted(T0 + 250, PID, PID + 1, 1),
                begin(300, PID + 1, "worker", Category.HOST),
                new Mark(T0 + 350, PID, PID, "progress", Category.USER),
                begin(360, PID, "leaf", Category.PYTHON),
                end(361, PID, Category.PYTHON),
                end(1_400, PID, Category.USER, new Annotation("result", new AnnotationValue.Signed(42))),
                end(1_500, PID + 1, Category.HOST),
                new ThreadEnded(T0 + 1_600, PID, PID + 1, false),
                end(2_000_000, PID, Category.HOST),
                new ThreadEnded(T0 + 2_100_000, PID, PID, false),
                new ProcessEnded(T0 + 2_200_000, PID, ProcessEnd.EXITED, 0));
        DecodedTrace trace = DecodedTrace.read(out);

        // clocks: BOOTTIME = MONOTONIC (no offset given), REALTIME = MONOTONIC + offset
        long mono = trace.globalClocks.get(DecodedTrace.MONOTONIC);
        assertEquals(mono, (long) trace.globalClocks.get(DecodedTrace.BOOTTIME));
        assertEquals(mono + REALTIME_OFFSET, (long) trace.globalClocks.get(DecodedTrace.REALTIME));

        // tracks
        List<Track> procs = trace.processTracks();
        assertEquals(1, procs.size());
        Track proc = procs.getFirst();
        assertEquals(PID, proc.descriptor().getProcess().getPid());
        assertEquals("app", proc.descriptor().getProcess().getProcessName());
        assertEquals(
                List.of("/usr/local/bin/app", "--size", "8"),
                proc.descriptor().getProcess().getCmdlineList());
        Track main = trace.threadTrack(PID);
        Track worker = trace.threadTrack(PID + 1);
        assertEquals("app", main.descriptor().getThread().getThreadName());
        assertEquals("Thread 1", worker.descriptor().getThread().getThreadName());
        assertEquals(PID, worker.descriptor().getThread().getPid());
        assertEquals(proc.uuid(), main.parentUuid());
        assertEquals(proc.uuid(), worker.parentUuid());
        assertEquals(3, trace.tracks.size());

        // slices: names, categories, nesting and exact timestamps
        Slice app = trace.slice("app");
        Slice compute = trace.slice("compute");
        Slice leaf = trace.slice("leaf");
        Slice work = trace.slice("worker");
        Slice progress = trace.slice("progress");
        assertEquals(List.of(app, compute, progress, leaf), trace.slicesOn(main.uuid()));
        assertEquals(List.of(work), trace.slicesOn(worker.uuid()));
        assertSlice(app, "host", 0, 100, 2_000_000);
        assertSlice(compute, "user", 1, 200, 1_400);
        assertSlice(leaf, "python", 2, 360, 361);
        assertSlice(work, "host", 0, 300, 1_500);
        assertTrue(progress.instant);
        assertSlice(progress, "user", 2, 350, 350);
        assertEquals(0, trace.openSlices());

        // annotations: user ones of begin and end, begin_ns/end_ns in CLOCK_REALTIME ns (as upstream)
        Map<String, Object> expected = new HashMap<>();
        expected.put("iter", -3L);
        expected.put("n", 7L);
        expected.put("ratio", 0.5);
        expected.put("label", "x y");
        expected.put("ptr", "ptr:dead");
        expected.put("ok", true);
        expected.put("begin_ns", T0 + 200 + REALTIME_OFFSET);
        expected.put("result", 42L);
        expected.put("end_ns", T0 + 1_400 + REALTIME_OFFSET);
        assertEquals(expected, compute.args);
        assertEquals(
                Map.of("begin_ns", T0 + 100 + REALTIME_OFFSET, "end_ns", T0 + 2_000_000 + REALTIME_OFFSET), app.args);
        assertEquals(Map.of(), progress.args);
    }

    @Test
    void encodingUsesSequencesInterningDefaultsAndIncrementalClock() throws IOException {
        List<TraceEvent> events = new ArrayList<>();
        events.add(processStarted(0, PID, "/bin/app"));
        events.add(new ThreadStarted(T0, PID, PID, 0));
        events.add(new ThreadStarted(T0, PID, PID + 1, 1));
        for (int i = 0; i < 10; i++) {
            for (int tid : new int[] {PID, PID + 1}) {
                events.add(begin(1000L * i + 1, tid, "outer", Category.HOST));
                events.add(begin(1000L * i + 2, tid, "inner", Category.USER));
                events.add(end(1000L * i + 3, tid, Category.USER));
                events.add(end(1000L * i + 4, tid, Category.HOST));
            }
        }
        Path out = write(plain(), 20_000, events.toArray(TraceEvent[]::new));
        DecodedTrace trace = DecodedTrace.read(out);

        Map<Integer, List<TracePacket>> bySeq = new HashMap<>();
        for (TracePacket p : trace.packets) {
            bySeq.computeIfAbsent(p.getTrustedPacketSequenceId(), k -> new ArrayList<>())
                    .add(p);
        }
        assertEquals(Set.of(PerfettoSink.GLOBAL_SEQUENCE_ID, 2, 3), bySeq.keySet(), "one sequence per thread");
        for (var e : bySeq.entrySet()) {
            List<TracePacket> seq = e.getValue();
            TracePacket first = seq.getFirst();
            assertEquals(TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE, first.getSequenceFlags());
            assertTrue(first.hasClockSnapshot());
            for (TracePacket p : seq.subList(1, seq.size())) {
                assertEquals(0, p.getSequenceFlags());
                assertFalse(p.hasTracePacketDefaults());
            }
            if (e.getKey() == PerfettoSink.GLOBAL_SEQUENCE_ID) {
                continue;
            }
            // the thread sequence: its own incremental clock, tied to MONOTONIC
            assertEquals(
                    PerfettoSink.SEQUENCE_CLOCK_ID,
                    first.getTracePacketDefaults().getTimestampClockId());
            ClockSnapshot.Clock seqClock = first.getClockSnapshot().getClocksList().stream()
                    .filter(c -> c.getClockId() == PerfettoSink.SEQUENCE_CLOCK_ID)
                    .findFirst()
                    .orElseThrow();
            assertTrue(seqClock.getIsIncremental());
            assertEquals(1, seqClock.getUnitMultiplierNs());
            long trackUuid =
                    first.getTracePacketDefaults().getTrackEventDefaults().getTrackUuid();
            assertEquals(trackUuid, seq.get(1).getTrackDescriptor().getUuid());

            int names = 0;
            int categories = 0;
            for (TracePacket p : seq) {
                names += p.getInternedData().getEventNamesCount();
                categories += p.getInternedData().getEventCategoriesCount();
                if (!p.hasTrackEvent()) {
                    continue;
                }
                TrackEvent ev = p.getTrackEvent();
                assertFalse(ev.hasTrackUuid(), "track comes from the sequence defaults");
                assertFalse(p.hasTimestampClockId());
                assertTrue(p.getTimestamp() < 1000, "timestamps are deltas: " + p.getTimestamp());
                assertEquals(0, ev.getCategoriesCount());
                assertFalse(ev.hasName(), "names are interned");
                if (ev.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                    assertEquals(0, ev.getCategoryIidsCount(), "no category on SLICE_END");
                    assertFalse(ev.hasNameIid());
                    assertEquals(0, ev.getDebugAnnotationsCount());
                } else {
                    assertEquals(1, ev.getCategoryIidsCount());
                    assertTrue(ev.hasNameIid());
                }
            }
            assertEquals(2, names, "each name interned once per sequence");
            assertEquals(2, categories, "each category interned once per sequence");
        }
        // and it decodes to the right slices
        assertEquals(40, trace.slices.size());
        Slice lastInner = trace.slicesOn(trace.threadTrack(PID + 1).uuid()).getLast();
        assertSlice(lastInner, "user", 1, 9002, 9003);
    }

    @Test
    void outputIsOneTraceMessage() throws IOException {
        Path out = writeApp(annotated(), 100, begin(1, PID, "a", Category.HOST), end(2, PID, Category.HOST));
        Trace trace = Trace.parseFrom(Files.readAllBytes(out));
        assertEquals(DecodedTrace.read(out).packets, trace.getPacketList());
        assertEquals(6, trace.getPacketCount()); // clocks, process track, 2 thread set-up, 2 events
    }

    @Test
    void annotationsOffDropsRegionAnnotationsButNotTheProfilersOwn() throws IOException {
        Path out = writeApp(
                plain(),
                10_000,
                begin(10, PID, "a", Category.USER, new Annotation("k", new AnnotationValue.Signed(1))),
                end(20, PID, Category.USER, new Annotation("k2", new AnnotationValue.Signed(2))),
                begin(30, PID, "b", Category.USER),
                forcedEnd(40, PID),
                new Fork(T0 + 50, PID, PID, 777));
        DecodedTrace trace = DecodedTrace.read(out);
        assertEquals(Map.of(), trace.slice("a").args);
        assertEquals(Map.of(PerfettoSink.CLOSED_BY_PROFILER, true), trace.slice("b").args);
        assertEquals(Map.of("child_pid", 777L), trace.slice("fork").args);
    }

    @Test
    void slicesLeftOpenAreClosedAndMarked() throws IOException {
        int other = 9000;
        Path out = writeApp(
                annotated(),
                50_000,
                new ThreadStarted(T0, PID, PID + 1, 1),
                new ThreadStarted(T0, PID, PID + 2, 2),
                // the collector closed it
                begin(10, PID, "forced", Category.HOST),
                forcedEnd(20, PID),
                // an END with nothing open is dropped, not written as an orphan
                end(25, PID, Category.HOST),
                // thread dies with two open
                begin(30, PID + 1, "t1-outer", Category.HOST),
                begin(40, PID + 1, "t1-inner", Category.HOST),
                new ThreadEnded(T0 + 500, PID, PID + 1, true),
                // process dies with one open on a thread that never ended
                begin(50, PID + 2, "t2", Category.HOST),
                // a forced close stamped before the thread's last event is moved to that event
                begin(60, PID, "late", Category.HOST),
                begin(70, PID, "later", Category.HOST),
                forcedEnd(65, PID),
                new ProcessEnded(T0 + 1_000, PID, ProcessEnd.KILLED_BY_SIGNAL, 9),
                // another process still open at finish
                processStarted(2_000, other, "/bin/child"),
                new ThreadStarted(T0 + 2_000, other, other, 0),
                new RegionBegin(T0 + 2_100, other, other, "child-main", Category.HOST, List.of(), RegionMetrics.NONE));
        DecodedTrace trace = DecodedTrace.read(out);
        assertEquals(0, trace.openSlices());
        Object yes = true;
        assertSlice(trace.slice("forced"), "host", 0, 10, 20);
        assertEquals(yes, trace.slice("forced").args.get(PerfettoSink.CLOSED_BY_PROFILER));
        assertSlice(trace.slice("t1-outer"), "host", 0, 30, 500);
        assertSlice(trace.slice("t1-inner"), "host", 1, 40, 500);
        assertEquals(yes, trace.slice("t1-outer").args.get(PerfettoSink.CLOSED_BY_PROFILER));
        assertEquals(yes, trace.slice("t1-inner").args.get(PerfettoSink.CLOSED_BY_PROFILER));
        assertEquals(T0 + 500 + REALTIME_OFFSET, trace.slice("t1-inner").args.get("end_ns"));
        assertSlice(trace.slice("t2"), "host", 0, 50, 1_000);
        assertEquals(yes, trace.slice("t2").args.get(PerfettoSink.CLOSED_BY_PROFILER));
        assertSlice(trace.slice("later"), "host", 1, 70, 70);
        assertSlice(trace.slice("late"), "host", 0, 60, 1_000);
        assertSlice(trace.slice("child-main"), "host", 0, 2_100, 50_000);
        assertEquals(yes, trace.slice("child-main").args.get(PerfettoSink.CLOSED_BY_PROFILER));
        assertEquals("child", trace.threadTrack(other).descriptor().getThread().getThreadName());
        assertEquals(7, trace.slices.size());
        assertEquals(7, trace.sliceEnds, "the orphan END was not written");
    }

    @Test
    void forkAndDroppedRecordsAreInstantsOnTheThread() throws IOException {
        Path out = writeApp(
                plain(),
                1_000,
                begin(5, PID, "main", Category.HOST),
                new Fork(T0 + 10, PID, PID, 4343),
                new RecordsDropped(T0 + 20, PID, PID, 1234),
                end(30, PID, Category.HOST));
        DecodedTrace trace = DecodedTrace.read(out);
        long track = trace.threadTrack(PID).uuid();
        Slice fork = trace.slice("fork");
        Slice dropped = trace.slice("records dropped");
        assertTrue(fork.instant && dropped.instant);
        assertEquals(track, fork.trackUuid);
        assertEquals(track, dropped.trackUuid);
        assertSlice(fork, PerfettoSink.PROFILER_CATEGORY, 1, 10, 10);
        assertSlice(dropped, PerfettoSink.PROFILER_CATEGORY, 1, 20, 20);
        assertEquals(Map.of("child_pid", 4343L), fork.args);
        assertEquals(Map.of("count", 1234L), dropped.args);
    }

    @Test
    void flowIdsOnBeginsAndMarks() throws IOException {
        Path out = dir.resolve("flow.proto");
        PerfettoSink sink = new PerfettoSink(out, plain());
        sink.accept(processStarted(0, PID, "app"));
        sink.accept(new ThreadStarted(T0, PID, PID, 0));
        sink.accept(new ThreadStarted(T0, PID, PID + 1, 1));
        sink.acceptWithFlow(begin(10, PID, "hipLaunchKernel", Category.HOST), 0xABCDEF0123L, false);
        sink.accept(end(20, PID, Category.HOST));
        sink.acceptWithFlow(begin(30, PID + 1, "kernel", Category.HOST), 0xABCDEF0123L, true);
        sink.accept(end(40, PID + 1, Category.HOST));
        sink.acceptWithFlow(new Mark(T0 + 50, PID, PID, "signal", Category.USER), 5, false);
        assertThrows(IllegalArgumentException.class, () -> sink.acceptWithFlow(end(60, PID, Category.HOST), 1, false));
        sink.finish(summary(100));
        DecodedTrace trace = DecodedTrace.read(out);
        assertEquals(List.of(0xABCDEF0123L), trace.slice("hipLaunchKernel").flowIds);
        assertEquals(List.of(), trace.slice("hipLaunchKernel").terminatingFlowIds);
        assertEquals(List.of(0xABCDEF0123L), trace.slice("kernel").terminatingFlowIds);
        assertEquals(List.of(), trace.slice("kernel").flowIds);
        assertEquals(List.of(5L), trace.slice("signal").flowIds);
    }

    @Test
    void coarserTimestampUnitRoundsDownWithoutDrift() throws IOException {
        long unit = 1000;
        PerfettoSink.Options options = new PerfettoSink.Options(false, REALTIME_OFFSET, 0, "app", unit);
        List<TraceEvent> events =
                new ArrayList<>(List.of(processStarted(0, PID, "app"), new ThreadStarted(T0 + 123, PID, PID, 0)));
        long t = 0;
        List<long[]> expected = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            long b = t += 777;
            long e = t += 1_333;
            events.add(begin(b, PID, "r" + (i % 3), Category.HOST));
            events.add(end(e, PID, Category.HOST));
            expected.add(new long[] {b, e});
        }
        DecodedTrace trace = DecodedTrace.read(write(options, t + 1, events.toArray(TraceEvent[]::new)));
        ClockSnapshot.Clock seqClock = trace.packets.stream()
                .filter(p -> p.getTrustedPacketSequenceId() == 2)
                .findFirst()
                .orElseThrow()
                .getClockSnapshot()
                .getClocks(1);
        assertEquals(unit, seqClock.getUnitMultiplierNs());
        for (int i = 0; i < 1000; i++) {
            Slice s = trace.slices.get(i);
            assertEquals(Math.floorDiv(T0 + expected.get(i)[0], unit) * unit, s.beginNs, "begin " + i);
            assertEquals(Math.floorDiv(T0 + expected.get(i)[1], unit) * unit, s.endNs, "end " + i);
        }
    }

    @Test
    void eventEarlierThanTheSequenceClockIsWrittenAbsolute() throws IOException {
        Path out = writeApp(
                plain(),
                1_000,
                begin(100, PID, "a", Category.HOST),
                new Mark(T0 + 50, PID, PID, "early", Category.USER),
                end(200, PID, Category.HOST),
                begin(300, PID, "b", Category.HOST),
                end(400, PID, Category.HOST));
        DecodedTrace trace = DecodedTrace.read(out);
        TracePacket early = trace.packets.stream()
                .filter(p -> p.hasTrackEvent() && p.getTrackEvent().getType() == TrackEvent.Type.TYPE_INSTANT)
                .findFirst()
                .orElseThrow();
        assertEquals(ClockSnapshot.Clock.BuiltinClocks.MONOTONIC_VALUE, early.getTimestampClockId());
        assertEquals(T0 + 50, early.getTimestamp());
        assertEquals(T0 + 50, trace.slice("early").beginNs);
        assertSlice(trace.slice("a"), "host", 0, 100, 200);
        assertSlice(trace.slice("b"), "host", 0, 300, 400);
    }

    @Test
    void threadsWithoutStartEventsAndExecedImages() throws IOException {
        int pid = 555;
        Path out = write(
                plain(),
                10_000,
                // no ProcessStarted/ThreadStarted: tracks are still made
                new RegionBegin(T0 + 1, pid, pid + 3, "orphan", Category.HOST, null, RegionMetrics.NONE),
                new RegionEnd(T0 + 2, pid, pid + 3, Category.HOST, null, RegionMetrics.NONE, false),
                // exec: a new image of the same pid is a new process track named after its executable
                processStarted(10, PID, "/bin/sh"),
                new ThreadStarted(T0 + 10, PID, PID, 0),
                new ThreadEnded(T0 + 20, PID, PID, true),
                new ProcessEnded(T0 + 20, PID, ProcessEnd.EXEC, 0),
                processStarted(30, PID, "/usr/bin/real-app"),
                new ThreadStarted(T0 + 30, PID, PID, 0),
                begin(40, PID, "main", Category.HOST),
                end(50, PID, Category.HOST));
        DecodedTrace trace = DecodedTrace.read(out);
        assertSlice(trace.slice("orphan"), "host", 0, 1, 2);
        List<Track> procs = trace.processTracks();
        assertEquals(
                List.of(pid, PID, PID),
                procs.stream().map(p -> p.descriptor().getProcess().getPid()).toList());
        assertEquals(
                List.of("sh", "real-app"),
                procs.subList(1, 3).stream()
                        .map(p -> p.descriptor().getProcess().getProcessName())
                        .toList());
        List<Track> mains = trace.tracks.values().stream()
                .filter(t -> t.isThread() && t.descriptor().getThread().getTid() == PID)
                .toList();
        assertEquals(
                List.of("sh", "real-app"),
                mains.stream()
                        .map(t -> t.descriptor().getThread().getThreadName())
                        .toList());
        assertNotEquals(mains.get(0).sequenceId(), mains.get(1).sequenceId());
        assertEquals(procs.get(2).uuid(), mains.get(1).parentUuid());
        assertEquals(mains.get(1).uuid(), trace.slice("main").trackUuid);
        assertFalse(trace.threadTrack(pid + 3).descriptor().getThread().hasThreadName());
    }

    @Test
    void emptyRunIsAValidTrace() throws IOException {
        Path out = write(annotated(), 0);
        DecodedTrace trace = DecodedTrace.read(out);
        assertEquals(1, trace.packets.size());
        assertEquals(3, trace.globalClocks.size());
    }

    static void assertSlice(Slice s, String category, int depth, long begin, long end) {
        assertEquals(category, s.category, s.name + " category");
        assertEquals(depth, s.depth, s.name + " depth");
        assertEquals(T0 + begin, s.beginNs, s.name + " begin");
        assertEquals(T0 + end, s.endNs, s.name + " end");
    }
}
