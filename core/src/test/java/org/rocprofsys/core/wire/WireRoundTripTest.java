package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
import org.rocprofsys.core.spi.WireException;

/**
 * Wire round trip, Java side. Builds agent/src/test/c/wire_roundtrip.c (the agent's real writer
 * linked into a test program), runs it, and reads the ring files it wrote with the real reader
 * ({@link RingFile}, {@link RingDrain}), asserting every key=value line the writer printed: header
 * fields, rings, every record, both raw (type, size and aux of each record at its place in the
 * ring, PADs) and decoded (the {@link TraceEvent}s). Every printed key must be checked: a key this
 * test does not know fails it, so the writer cannot report something the reader is not held to.
 * Runs twice: files of clock kind CLOCK_MONOTONIC_NS, and of kind TSC, where the writer's pairs
 * and ticks make the CLOCK_MONOTONIC ns the reader must report exact (see wire_roundtrip.c).
 */
class WireRoundTripTest {
    @TempDir
    static Path build;

    private static Path writer;

    @TempDir
    Path session;

    @BeforeAll
    static void buildWriter() throws Exception {
        AgentMake.build(build, "test-writer");
        writer = build.resolve("wire_roundtrip");
        assertTrue(Files.isExecutable(writer), writer + " was not built");
    }

    @ParameterizedTest
    @ValueSource(strings = {"monotonic", "tsc"})
    void everyRecordTypeRoundTrips(String clock) throws Exception {
        Expected x = runWriter(clock);
        int kind = clock.equals("tsc") ? WireFormat.CLOCK_TSC : WireFormat.CLOCK_MONOTONIC_NS;
        checkFile(x, "", 4, kind);
        checkFile(x, "child.", 1, kind);
        checkFile(x, "kchild.", 1, kind);

        // the fork child: its own file, forked from the parent, exit status 7 as waitpid saw it
        assertEquals(x.integer("header.pid"), x.integer("child.header.forked_from"));
        int childPid = x.integer("child.pid");
        assertEquals(childPid, x.integer("child.header.pid"));
        assertEquals(x.integer("child.wait_status"), x.integer("child.header.exit_code"));
        assertEquals(7, x.integer("child.header.exit_code"));

        // the killed child: still RUNNING, its ring ACTIVE, no exit records, killed by SIGKILL
        assertEquals(x.integer("kchild.pid"), x.integer("kchild.header.pid"));
        assertEquals(9, x.integer("kchild.signal"));
        assertEquals(WireFormat.STATE_RUNNING, x.integer("kchild.header.state"));
        assertEquals(WireFormat.RING_ACTIVE, x.integer("kchild.ring.0.state"));
        assertEquals(-1, x.integer("kchild.header.exit_code"));

        // the thread started once every slot was claimed took the slot of an ended thread
        int takerSeq = x.integer("threads.taken_over_seq");
        try (RingFile f = open(x.str("file"))) {
            assertEquals(f.maxRings(), f.ringsClaimed(), "every slot claimed, none past");
            assertEquals(0, f.unringedThreads(), "no thread without a ring");
            assertEquals(takerSeq, f.rings().get(1).threadSequence());
        }
        x.assertAllChecked();
    }

    // ---------------------------------------------------------------------------------------------

    private Expected runWriter(String clock) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(writer.toString(), session.toString(), clock)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "wire_roundtrip timed out");
        assertEquals(0, p.exitValue(), "wire_roundtrip failed");
        Expected x = new Expected();
        for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            assertTrue(eq > 0, "not key=value: " + line);
            String old = x.values.put(line.substring(0, eq), line.substring(eq + 1));
            assertEquals(null, old, "key printed twice: " + line);
        }
        return x;
    }

    private static RingFile open(String file) throws IOException, WireException {
        RingFile f = RingFile.open(Path.of(file));
        assertNotNull(f, file + ": header not published");
        return f;
    }

    private void checkFile(Expected x, String p, int ringCount, int clockKind) throws Exception {
        try (RingFile f = open(x.str(p + "file"))) {
            String h = p + "header.";
            assertEquals(x.u64(h + "magic"), f.magic(), h + "magic");
            assertEquals(WireFormat.MAGIC, f.magic());
            assertEquals(x.integer(h + "version"), f.version(), h + "version");
            assertEquals(WireFormat.VERSION, f.version());
            assertEquals(x.integer(h + "header_size"), f.headerSize(), h + "header_size");
            assertEquals(x.integer(h + "ring_header_size"), f.ringHeaderSize(), h + "ring_header_size");
            assertEquals(x.integer(h + "max_rings"), f.maxRings(), h + "max_rings");
            assertEquals(x.u64(h + "ring_data_size"), f.ringDataSize(), h + "ring_data_size");
            assertEquals(x.integer(h + "pid"), f.pid(), h + "pid");
            assertEquals(x.integer(h + "ppid"), f.ppid(), h + "ppid");
            assertEquals(x.integer(h + "forked_from"), f.forkedFrom(), h + "forked_from");
            assertEquals(x.integer(h + "exec_generation"), f.execGeneration(), h + "exec_generation");
            assertEquals(x.integer(h + "clock_kind"), f.clockKind(), h + "clock_kind");
            assertEquals(clockKind, f.clockKind(), h + "clock_kind of this run");
            assertEquals(x.integer(h + "flags"), f.flags(), h + "flags");
            assertEquals(x.u64(h + "init_time"), f.initTime(), h + "init_time");
            assertEquals(x.integer(h + "metrics"), f.metrics(), h + "metrics");
            assertEquals(x.integer(h + "rings_claimed"), f.ringsClaimed(), h + "rings_claimed");
            assertEquals(x.integer(h + "state"), f.state(), h + "state");
            assertEquals(x.integer(h + "exit_code"), f.exitCode(), h + "exit_code");
            assertEquals(x.u64(h + "exit_time"), f.exitTime(), h + "exit_time");
            assertEquals(x.u64(h + "unringed_drops"), f.unringedDrops(), h + "unringed_drops");
            assertEquals(x.u64(h + "init_monotonic_ns"), f.initMonotonicNs(), h + "init_monotonic_ns");
            assertEquals(x.u64(h + "exit_monotonic_ns"), f.exitMonotonicNs(), h + "exit_monotonic_ns");
            int seq = x.integer(h + "clock_pair_seq");
            assertEquals(seq, f.clockPairSequence(), h + "clock_pair_seq");
            ClockConversion.Pair latest = f.latestClockPair();
            if (seq == 0) {
                assertEquals(null, latest, h + ": no latest pair");
                assertEquals(0, x.u64(h + "latest_time"), h + "latest_time");
                assertEquals(0, x.u64(h + "latest_monotonic_ns"), h + "latest_monotonic_ns");
            } else {
                assertNotNull(latest, h + ": latest pair");
                assertEquals(x.u64(h + "latest_time"), latest.ticks(), h + "latest_time");
                assertEquals(x.u64(h + "latest_monotonic_ns"), latest.monotonicNs(), h + "latest_monotonic_ns");
            }
            assertEquals(x.str(h + "agent_path"), f.agentPath(), h + "agent_path");
            assertEquals(x.u64(h + "init_time_ns"), f.initTimeNs(), h + "init_time_ns");
            if (f.state() == WireFormat.STATE_EXITED) {
                assertEquals(x.u64(h + "exit_time_ns"), f.exitTimeNs(), h + "exit_time_ns");
            } else {
                assertFalse(x.has(h + "exit_time_ns"), h + "exit_time_ns printed for a process that did not exit");
            }
            assertEquals(x.str(h + "exe"), f.executable(), h + "exe");
            assertEquals(x.integer(h + "cmdline_size"), f.commandLineSize(), h + "cmdline_size");
            List<String> args = f.commandLine();
            assertEquals(x.integer(p + "cmdline.count"), args.size(), p + "cmdline.count");
            int bytes = 0;
            for (int i = 0; i < args.size(); i++) {
                assertEquals(x.str(p + "cmdline." + i), args.get(i), p + "cmdline." + i);
                bytes += args.get(i).getBytes(StandardCharsets.UTF_8).length + 1;
            }
            assertEquals(f.commandLineSize(), bytes, "cmdline: NUL-terminated arguments fill cmdline_size");

            List<RingFile.Ring> rings = f.rings();
            assertEquals(ringCount, rings.size(), p + ": rings");
            for (int r = 0; r < rings.size(); r++) {
                checkRing(x, p, f, r, rings.get(r));
            }
            assertFalse(x.has(p + "ring." + rings.size() + ".tid"), "the writer lists a ring the reader does not see");
        }
    }

    private void checkRing(Expected x, String p, RingFile f, int r, RingFile.Ring ring) throws WireException {
        String k = p + "ring." + r + ".";
        assertEquals(x.integer(k + "tid"), ring.tid(), k + "tid");
        assertEquals(x.integer(k + "seq"), ring.threadSequence(), k + "seq");
        assertEquals(x.integer(k + "state"), ring.state(), k + "state");
        assertEquals(x.u64(k + "dropped"), ring.dropped(), k + "dropped");
        long tail = x.u64(k + "tail");
        assertEquals(tail, ring.tail(), k + "tail");
        if (x.has(k + "head")) {
            assertEquals(x.u64(k + "head"), ring.head(), k + "head");
        }
        if (x.has(k + "consumed_records")) {
            // what the writer consumed as the collector: THREAD_START (24 bytes), then 64-byte MARKs
            assertEquals(24 + 64L * (x.integer(k + "consumed_records") - 1), tail, k + "consumed_records");
        }
        int n = x.integer(k + "records");

        // raw: each record's header word where the writer put it, PADs skipped to the next lap
        MemorySegment data = ring.data();
        long size = data.byteSize();
        long pos = tail;
        int pads = 0;
        int afterPad = -1;
        for (int i = 0; i < n; i++) {
            String rk = k + "rec." + i + ".";
            long off = pos & ring.mask();
            if (data.get(ValueLayout.JAVA_SHORT, off) == WireFormat.REC_PAD) {
                assertEquals(8, data.get(ValueLayout.JAVA_SHORT, off + 2), rk + ": PAD size");
                pads++;
                afterPad = n - i;
                pos += size - off;
                off = 0;
            }
            int type = Short.toUnsignedInt(data.get(ValueLayout.JAVA_SHORT, off));
            int recSize = Short.toUnsignedInt(data.get(ValueLayout.JAVA_SHORT, off + 2));
            int aux = data.get(ValueLayout.JAVA_INT, off + 4);
            assertEquals(typeCode(x.str(rk + "type")), type, rk + "type");
            assertEquals(x.integer(rk + "size"), recSize, rk + "size");
            assertEquals(expectedAux(x, rk, type), aux, rk + "aux");
            pos += recSize;
        }
        assertEquals(ring.head(), pos, k + ": the records listed end at head");
        assertEquals(x.integer(k + "pads"), pads, k + "pads");
        if (x.has(k + "marks_after_pad")) {
            assertEquals(x.integer(k + "marks_after_pad") + 1, afterPad, k + "marks_after_pad (+ THREAD_END)");
        }

        // decoded
        List<TraceEvent> events = new ArrayList<>();
        RingDrain drain = new RingDrain(f.pid(), ring, RegionRun.expanding(events::add));
        assertEquals(ring.tid(), drain.tid());
        drain.drain();
        drain.flushPending();
        assertEquals(n, drain.records(), k + "records read");
        assertEquals(ring.head(), ring.tail(), k + ": drained to head");
        checkEvents(x, k, f.pid(), ring, n, events, drain);
    }

    private void checkEvents(
            Expected x, String k, int pid, RingFile.Ring ring, int n, List<TraceEvent> events, RingDrain drain) {
        int tid = ring.tid(); // the slot's thread now; records before a THREAD_START are an earlier one's
        int e = 0;
        List<Annotation> annotations = List.of();
        int annotationsSeen = 0;
        long lastTime = 0;
        for (int i = 0; i < n; i++) {
            String rk = k + "rec." + i + ".";
            String type = x.str(rk + "type");
            if (type.equals("FUNC_DEF")) {
                x.str(rk + "name"); // no event: it names the FUNC_ENTERs (checked there)
                continue;
            }
            if (type.equals("ANNOTATION")) {
                assertTrue(annotationsSeen < annotations.size(), rk + ": annotation missing from its region");
                checkAnnotation(x, rk, annotations.get(annotationsSeen++));
                continue;
            }
            assertEquals(annotations.size(), annotationsSeen, rk + ": the previous region has extra annotations");
            annotations = List.of();
            annotationsSeen = 0;
            assertTrue(e < events.size(), rk + ": no event");
            TraceEvent ev = events.get(e++);
            long time = x.u64(rk + "time");
            assertEquals(time, ev.timestampNs(), rk + "time");
            assertEquals(pid, ev.pid(), rk + "pid");
            lastTime = time;
            switch (type) {
                case "THREAD_START" -> {
                    ThreadStarted t = assertInstanceOf(ThreadStarted.class, ev, rk);
                    assertEquals(x.integer(rk + "tid"), t.tid(), rk + "tid");
                    tid = t.tid();
                    assertEquals(x.integer(rk + "seq"), t.sequence(), rk + "seq");
                }
                case "THREAD_END" -> {
                    ThreadEnded t = assertInstanceOf(ThreadEnded.class, ev, rk);
                    assertEquals(tid, t.tid(), rk + "tid");
                    assertFalse(t.abrupt(), rk + "abrupt");
                }
                case "REGION_BEGIN" -> {
                    RegionBegin b = assertInstanceOf(RegionBegin.class, ev, rk);
                    assertEquals(tid, b.tid(), rk + "tid");
                    assertEquals(x.integer(rk + "category"), b.category().code(), rk + "category");
                    checkMetrics(x, rk, b.metrics());
                    String name = x.str(rk + "name");
                    assertEquals(name, b.name(), rk + "name");
                    assertEquals(
                            x.integer(rk + "name_length"),
                            b.name().getBytes(StandardCharsets.UTF_8).length,
                            rk + "name_length");
                    annotations = b.annotations();
                }
                case "REGION_END" -> {
                    RegionEnd en = assertInstanceOf(RegionEnd.class, ev, rk);
                    assertEquals(tid, en.tid(), rk + "tid");
                    assertEquals(x.integer(rk + "category"), en.category().code(), rk + "category");
                    checkMetrics(x, rk, en.metrics());
                    assertFalse(en.forced(), rk + "forced");
                    annotations = en.annotations();
                }
                case "FUNC_ENTER" -> {
                    RegionBegin b = assertInstanceOf(RegionBegin.class, ev, rk);
                    assertEquals(tid, b.tid(), rk + "tid");
                    assertEquals(Category.HOST, b.category(), rk + "category");
                    checkMetrics(x, rk, b.metrics());
                    assertEquals(x.str(rk + "name"), b.name(), rk + "name (its FUNC_DEF's)");
                    assertTrue(b.annotations().isEmpty(), rk + "annotations");
                }
                case "FUNC_EXIT" -> {
                    RegionEnd en = assertInstanceOf(RegionEnd.class, ev, rk);
                    assertEquals(tid, en.tid(), rk + "tid");
                    assertEquals(Category.HOST, en.category(), rk + "category");
                    checkMetrics(x, rk, en.metrics());
                    assertFalse(en.forced(), rk + "forced");
                }
                case "MARK" -> {
                    Mark m = assertInstanceOf(Mark.class, ev, rk);
                    assertEquals(tid, m.tid(), rk + "tid");
                    assertEquals(x.integer(rk + "category"), m.category().code(), rk + "category");
                    assertEquals(x.str(rk + "name"), m.name(), rk + "name");
                }
                case "FORK" -> {
                    Fork fk = assertInstanceOf(Fork.class, ev, rk);
                    assertEquals(tid, fk.tid(), rk + "tid");
                    assertEquals(x.integer(rk + "child_pid"), fk.childPid(), rk + "child_pid");
                }
                case "TRACE_CONTROL" -> {
                    TraceControl c = assertInstanceOf(TraceControl.class, ev, rk);
                    assertEquals(tid, c.tid(), rk + "tid");
                    int aux = x.integer(rk + "aux");
                    assertEquals((aux & WireFormat.TRACE_ENABLE) != 0, c.enable(), rk + "aux enable");
                    assertEquals((aux & WireFormat.TRACE_PROCESS) != 0, c.processWide(), rk + "aux process");
                }
                case "STACK_SAMPLE" -> {
                    AgentStackSample a = assertInstanceOf(AgentStackSample.class, ev, rk);
                    assertEquals(tid, a.tid(), rk + "tid");
                    assertEquals(
                            x.integer(rk + "kind") == WireFormat.TIMER_REALTIME
                                    ? StackSample.Kind.WALL
                                    : StackSample.Kind.CPU,
                            a.kind(),
                            rk + "kind");
                    assertEquals(x.u64(rk + "thread_cpu"), a.threadCpuNs(), rk + "thread_cpu");
                    assertEquals(x.str(rk + "regs"), joined(a.regs()), rk + "regs");
                    assertEquals(x.str(rk + "pcs"), joined(a.pcs()), rk + "pcs");
                    assertEquals(x.str(rk + "stack"), HexFormat.of().formatHex(a.stack()), rk + "stack");
                    assertEquals(a.regs().length > 7 ? a.regs()[7] : 0, a.stackPointer(), rk + "stack pointer");
                }
                default -> fail(rk + "type: unknown " + type);
            }
        }
        assertEquals(annotations.size(), annotationsSeen, k + ": the last region has extra annotations");
        assertEquals(lastTime, drain.lastTime(), k + ": lastTime");
        long dropped = ring.dropped();
        if (dropped > 0) {
            assertTrue(e < events.size(), k + ": no RecordsDropped event");
            RecordsDropped d = assertInstanceOf(RecordsDropped.class, events.get(e++), k + "dropped");
            assertEquals(dropped, d.count(), k + "dropped count");
            assertEquals(tid, d.tid(), k + "dropped tid");
            assertEquals(pid, d.pid(), k + "dropped pid");
            assertEquals(lastTime, d.timestampNs(), k + "dropped time");
        }
        assertEquals(events.size(), e, k + ": events beyond the writer's list: " + events.subList(e, events.size()));
    }

    private static String joined(long[] values) {
        StringBuilder b = new StringBuilder();
        for (long v : values) {
            b.append(b.isEmpty() ? "" : ",").append(Long.toUnsignedString(v));
        }
        return b.toString();
    }

    private static void checkMetrics(Expected x, String rk, RegionMetrics m) {
        int flags = x.integer(rk + "metrics");
        String[] keys = {"thread_cpu", "rss", "peak_rss"};
        long[] got = {m.threadCpuNs(), m.rssBytes(), m.peakRssBytes()};
        for (int bit = 0; bit < 3; bit++) {
            if ((flags & (1 << bit)) != 0) {
                assertEquals(x.u64(rk + keys[bit]), got[bit], rk + keys[bit]);
            } else {
                assertEquals(RegionMetrics.ABSENT, got[bit], rk + keys[bit] + " not taken");
                assertFalse(x.has(rk + keys[bit]), rk + keys[bit] + " printed but not taken");
            }
        }
    }

    private static void checkAnnotation(Expected x, String rk, Annotation a) {
        int type = x.integer(rk + "annotation_type");
        long value = x.u64(rk + "value");
        assertEquals(x.str(rk + "name"), a.name(), rk + "name");
        switch (type) {
            case 1 -> {
                AnnotationValue.Text t = assertInstanceOf(AnnotationValue.Text.class, a.value(), rk);
                assertEquals(x.str(rk + "string"), t.value(), rk + "string");
                assertEquals(value, t.value().getBytes(StandardCharsets.UTF_8).length, rk + "value (string length)");
            }
            case 3, 7, 10 ->
                assertEquals(
                        value,
                        assertInstanceOf(AnnotationValue.Signed.class, a.value(), rk)
                                .value(),
                        rk + "value");
            case 2, 4, 8, 11 ->
                assertEquals(
                        value,
                        assertInstanceOf(AnnotationValue.Unsigned.class, a.value(), rk)
                                .value(),
                        rk + "value");
            case 5, 9 ->
                assertEquals(
                        value,
                        Double.doubleToRawLongBits(assertInstanceOf(AnnotationValue.Real.class, a.value(), rk)
                                .value()),
                        rk + "value");
            case 6 ->
                assertEquals(
                        value,
                        assertInstanceOf(AnnotationValue.Pointer.class, a.value(), rk)
                                .address(),
                        rk + "value");
            default -> fail(rk + "annotation_type: unknown " + type);
        }
    }

    private static int typeCode(String type) {
        return switch (type) {
            case "THREAD_START" -> WireFormat.REC_THREAD_START;
            case "THREAD_END" -> WireFormat.REC_THREAD_END;
            case "REGION_BEGIN" -> WireFormat.REC_REGION_BEGIN;
            case "REGION_END" -> WireFormat.REC_REGION_END;
            case "ANNOTATION" -> WireFormat.REC_ANNOTATION;
            case "MARK" -> WireFormat.REC_MARK;
            case "FORK" -> WireFormat.REC_FORK;
            case "TRACE_CONTROL" -> WireFormat.REC_TRACE_CONTROL;
            case "FUNC_DEF" -> WireFormat.REC_FUNC_DEF;
            case "FUNC_ENTER" -> WireFormat.REC_FUNC_ENTER;
            case "FUNC_EXIT" -> WireFormat.REC_FUNC_EXIT;
            case "STACK_SAMPLE" -> WireFormat.REC_STACK_SAMPLE;
            default -> throw new AssertionError("unknown record type " + type);
        };
    }

    /** The aux word a record of this type must carry, from the writer's keys (peeked, checked later). */
    private static int expectedAux(Expected x, String rk, int type) {
        return switch (type) {
            case WireFormat.REC_REGION_BEGIN, WireFormat.REC_REGION_END ->
                x.peekInt(rk + "category") | x.peekInt(rk + "metrics") << 8;
            case WireFormat.REC_ANNOTATION -> x.peekInt(rk + "annotation_type");
            case WireFormat.REC_MARK -> x.peekInt(rk + "category");
            case WireFormat.REC_TRACE_CONTROL -> x.peekInt(rk + "aux");
            case WireFormat.REC_FUNC_DEF, WireFormat.REC_FUNC_ENTER, WireFormat.REC_FUNC_EXIT -> {
                int gid = x.integer(rk + "gid"); // checked here: the aux is the whole of it
                yield gid;
            }
            case WireFormat.REC_STACK_SAMPLE -> x.peekInt(rk + "kind");
            default -> 0;
        };
    }

    /** The writer's key=value lines; remembers which were checked. */
    private static final class Expected {
        final Map<String, String> values = new LinkedHashMap<>();
        final Set<String> checked = new HashSet<>();

        boolean has(String key) {
            return values.containsKey(key);
        }

        String str(String key) {
            String v = values.get(key);
            assertNotNull(v, "the writer did not print " + key);
            checked.add(key);
            return v;
        }

        long u64(String key) {
            String v = str(key);
            return v.startsWith("-") ? Long.parseLong(v) : Long.parseUnsignedLong(v);
        }

        int integer(String key) {
            return Math.toIntExact(Long.parseLong(str(key)));
        }

        int peekInt(String key) {
            String v = values.get(key);
            assertNotNull(v, "the writer did not print " + key);
            return Integer.parseInt(v);
        }

        void assertAllChecked() {
            Set<String> left = new TreeSet<>(values.keySet());
            left.removeAll(checked);
            assertTrue(left.isEmpty(), "keys the writer printed but this test did not check: " + left);
        }
    }
}
