package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.perfetto.TraceBudget.FillPolicy;
import org.rocprofsys.tracetest.DecodedTrace;

class TraceBudgetTest {
    static final long T0 = PerfettoSinkTest.T0;
    static final int PID = PerfettoSinkTest.PID;
    static final int WORKER = PID + 1;

    @TempDir
    Path dir;

    /**
     * Two threads: each an "outer" region around {@code n} numbered regions (unique names, so every
     * one is interned in the packet of its begin) with an annotation.
     */
    static List<TraceEvent> events(int n) {
        List<TraceEvent> events = new ArrayList<>();
        events.add(PerfettoSinkTest.processStarted(0, PID, "/usr/bin/app"));
        events.add(new ThreadStarted(T0 + 1, PID, PID, 0));
        events.add(new ThreadStarted(T0 + 2, PID, WORKER, 1));
        for (int tid : new int[] {PID, WORKER}) {
            events.add(begin(10, tid, "outer"));
        }
        for (int i = 0; i < n; i++) {
            for (int tid : new int[] {PID, WORKER}) {
                long t = 100 + i * 1000L;
                events.add(begin(t, tid, (tid == PID ? "main_" : "work_") + i));
                events.add(new RegionEnd(T0 + t + 500, PID, tid, Category.HOST, List.of(), RegionMetrics.NONE, false));
            }
        }
        for (int tid : new int[] {PID, WORKER}) {
            events.add(
                    new RegionEnd(T0 + 100 + n * 1000L, PID, tid, Category.HOST, List.of(), RegionMetrics.NONE, false));
        }
        return events;
    }

    private static RegionBegin begin(long t, int tid, String name) {
        return new RegionBegin(
                T0 + t,
                PID,
                tid,
                name,
                Category.HOST,
                List.of(new Annotation("n", new AnnotationValue.Signed(t))),
                RegionMetrics.NONE);
    }

    /** The trace of {@code events} under a budget ({@code limit} < 0: unlimited, the sink's own file). */
    private Path write(String name, List<TraceEvent> events, long limit, FillPolicy policy, TraceBudget[] budget)
            throws IOException {
        Path out = dir.resolve(name);
        PerfettoSink sink;
        if (limit < 0) {
            sink = new PerfettoSink(out, PerfettoSinkTest.annotated());
        } else {
            budget[0] = new TraceBudget(Files.newOutputStream(out), limit, policy);
            sink = new PerfettoSink(budget[0], PerfettoSinkTest.annotated());
        }
        SinkFeed.run(sink, events, PerfettoSinkTest.summary(200_000_000));
        return out;
    }

    private static Map<String, DecodedTrace.Slice> byName(DecodedTrace t) {
        return t.slices.stream().collect(Collectors.toMap(s -> s.name, Function.identity(), (a, b) -> a));
    }

    @Test
    void underTheBudgetBothPoliciesWriteTheSameBytes() throws IOException {
        List<TraceEvent> events = events(50);
        byte[] full = Files.readAllBytes(write("full", events, -1, null, null));
        for (FillPolicy p : FillPolicy.values()) {
            TraceBudget[] b = new TraceBudget[1];
            byte[] kept = Files.readAllBytes(write("b-" + p, events, full.length, p, b));
            assertArrayEquals(full, kept, p.toString());
            assertEquals(new TraceBudget.Dropped(0, 0), b[0].dropped());
        }
    }

    /**
     * Whole packets pass through without being copied one by one while they fit: however the bytes
     * are cut into writes (a packet split anywhere, its header too), the result is the packets up to
     * the first that does not fit, and the drops count the rest.
     */
    @Test
    void discardGivesTheSameBytesForEveryWayTheStreamIsCut() throws IOException {
        byte[] full = Files.readAllBytes(write("full", events(300), -1, null, null));
        List<Integer> ends = new ArrayList<>(); // ends of packets in the unlimited trace
        for (int i = 0; i < full.length; ) {
            int p = i + 1;
            int length = 0;
            int shift = 0;
            int b;
            do {
                b = full[p++] & 0xff;
                length |= (b & 0x7f) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            i = p + length;
            ends.add(i);
        }
        java.util.Random random = new java.util.Random(42);
        for (long limit : new long[] {full.length, full.length - 1, full.length / 2, 4096, 100, 0}) {
            int keep = 0;
            for (int e : ends) {
                if (e > limit) {
                    break;
                }
                keep = e;
            }
            for (int maxChunk : new int[] {1, 7, 300, 70_000}) {
                java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
                TraceBudget budget = new TraceBudget(sink, limit, FillPolicy.DISCARD);
                for (int i = 0; i < full.length; ) {
                    int n = Math.min(full.length - i, 1 + random.nextInt(maxChunk));
                    budget.write(full, i, n);
                    i += n;
                }
                budget.close();
                String what = "limit " + limit + ", writes of at most " + maxChunk;
                assertArrayEquals(Arrays.copyOf(full, keep), sink.toByteArray(), what);
                assertEquals(full.length - keep, budget.dropped().bytes(), what);
                assertEquals(
                        ends.size() - ends.indexOf(keep) - 1, budget.dropped().packets(), what);
            }
        }
    }

    @Test
    void discardKeepsThePacketsThatFitAndDropsEveryPacketFromTheFirstThatDoesNot() throws IOException {
        List<TraceEvent> events = events(2000);
        byte[] full = Files.readAllBytes(write("full", events, -1, null, null));
        long limit = 16 * 1024;
        TraceBudget[] b = new TraceBudget[1];
        byte[] kept = Files.readAllBytes(write("discard", events, limit, FillPolicy.DISCARD, b));
        assertTrue(kept.length <= limit && kept.length > limit - 1024, "size " + kept.length);
        // a prefix of the unlimited trace, whole packets only: it decodes
        assertArrayEquals(Arrays.copyOf(full, kept.length), kept);
        DecodedTrace t = DecodedTrace.read(dir.resolve("discard"));
        Map<String, DecodedTrace.Slice> slices = byName(t);
        assertTrue(slices.containsKey("main_0") && slices.containsKey("work_0"));
        assertFalse(slices.containsKey("main_1999"));
        assertEquals(full.length - kept.length, b[0].dropped().bytes());
        assertTrue(b[0].dropped().packets() > 1000, b[0].dropped().toString());
    }

    @Test
    void ringBufferKeepsTheNewestPacketsReadableWithTheirTimesNamesAndOpenSlices() throws IOException {
        int n = 2000;
        List<TraceEvent> events = events(n);
        byte[] full = Files.readAllBytes(write("full", events, -1, null, null));
        Map<String, DecodedTrace.Slice> all = byName(DecodedTrace.read(dir.resolve("full")));
        long limit = 16 * 1024;
        TraceBudget[] b = new TraceBudget[1];
        Path ring = write("ring", events, limit, FillPolicy.RING_BUFFER, b);
        // the strict decoder: every name interned, clocks defined, no end without its begin
        DecodedTrace t = DecodedTrace.read(ring);
        Map<String, DecodedTrace.Slice> slices = byName(t);
        assertTrue(Files.size(ring) <= limit + 1024, "size " + Files.size(ring));
        assertFalse(slices.containsKey("main_0"));
        assertFalse(slices.containsKey("work_0"));
        for (String last : List.of("main_" + (n - 1), "work_" + (n - 1), "main_" + (n - 2))) {
            DecodedTrace.Slice s = slices.get(last);
            assertEquals(all.get(last).beginNs, s.beginNs, last);
            assertEquals(all.get(last).endNs, s.endNs, last);
            assertEquals(all.get(last).args, s.args, last);
        }
        // every kept numbered slice has its true times
        long kept = 0;
        for (DecodedTrace.Slice s : t.slices) {
            if (!s.name.equals("outer")) {
                kept++;
                assertEquals(all.get(s.name).beginNs, s.beginNs, s.name);
                assertEquals(all.get(s.name).endNs, s.endNs, s.name);
            }
        }
        assertTrue(kept > 100, "kept " + kept);
        // "outer" lost its begin: it begins again where the kept packets start, and ends as it did
        List<DecodedTrace.Slice> outer =
                t.slices.stream().filter(s -> s.name.equals("outer")).toList();
        assertEquals(2, outer.size(), t.slices.toString());
        for (DecodedTrace.Slice o : outer) {
            assertEquals(0, o.depth);
            assertEquals(T0 + 100 + n * 1000L, o.endNs);
            assertTrue(o.beginNs > T0 + 10 && o.beginNs < T0 + 100 + n * 1000L, "begin " + (o.beginNs - T0));
        }
        assertTrue(b[0].dropped().packets() > 1000, b[0].dropped().toString());
        assertTrue(
                b[0].dropped().bytes() > full.length - limit - 1024,
                b[0].dropped().toString());
    }

    /**
     * The sink tells a ring_buffer budget which packets hold state; a budget given the same bytes
     * alone finds them by their fields: both keep the same packets, in the same bytes.
     */
    @Test
    void ringBufferToldOfPacketKindsKeepsWhatItKeepsFromTheBytesAlone() throws IOException {
        List<TraceEvent> events = events(2000);
        byte[] full = Files.readAllBytes(write("full", events, -1, null, null));
        for (long limit : new long[] {full.length, 16 * 1024, 4096}) {
            TraceBudget[] b = new TraceBudget[1];
            byte[] told = Files.readAllBytes(write("told-" + limit, events, limit, FillPolicy.RING_BUFFER, b));
            java.io.ByteArrayOutputStream bytesAlone = new java.io.ByteArrayOutputStream();
            TraceBudget untold = new TraceBudget(bytesAlone, limit, FillPolicy.RING_BUFFER);
            untold.write(full, 0, full.length);
            untold.close();
            assertArrayEquals(bytesAlone.toByteArray(), told, "limit " + limit);
            assertEquals(untold.dropped(), b[0].dropped(), "limit " + limit);
        }
    }

    @Test
    void anythingButDiscardIsARingBufferAsUpstream() {
        assertEquals(FillPolicy.DISCARD, FillPolicy.of("discard"));
        assertEquals(FillPolicy.RING_BUFFER, FillPolicy.of("ring_buffer"));
        assertEquals(FillPolicy.RING_BUFFER, FillPolicy.of("fill"));
    }
}
