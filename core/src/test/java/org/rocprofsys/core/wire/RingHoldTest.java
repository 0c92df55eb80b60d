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
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.WireException;

/**
 * Records held while the target runs ({@link RingDrain#hold}) and decoded later, in slices
 * ({@link RingDrain#drainHeld}) or with the rest ({@link RingDrain#drain}), give the events that
 * decoding them as they come gives: the same ring contents, written by a producer that wraps its
 * small ring (PAD records at each lap's end), are read by a drain alone and by a drain that holds,
 * decodes slices and drains in a random order. A FUNC_DEF held on one ring names the calls of
 * another ring decoded first.
 */
class RingHoldTest {
    private static final int PID = 91;
    private static final int DATA = 4096;

    @TempDir
    Path dir;

    private final List<TestRing> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(TestRing::close);
    }

    @Test
    void heldRecordsDecodeAsRecordsDecodedAtOnce() throws Exception {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            List<Rec> script = script(random, 3000);
            TestRing plain = ring("plain-" + seed, 1);
            TestRing holding = ring("holding-" + seed, 1);
            List<TraceEvent> plainSeen = new ArrayList<>();
            List<TraceEvent> holdingSeen = new ArrayList<>();
            RingDrain a = plain.drain(0, plainSeen);
            RingDrain b = holding.drain(0, holdingSeen);
            b.holdInChunksOf(DATA / 2); // many chunks, pieces of several sizes in each, slices that end inside one
            long heldMost = 0;
            for (Rec r : script) {
                while (!plain.fits(0, r)) {
                    a.drain();
                }
                plain.write(0, r);
                while (!holding.fits(0, r)) {
                    // only hold and drain free the ring's space
                    if (random.nextInt(16) == 0) {
                        b.drain();
                    } else {
                        b.hold();
                    }
                }
                holding.write(0, r);
                switch (random.nextInt(400)) {
                    case 0, 1, 2, 3, 4, 5, 6, 7 -> b.hold();
                    case 8, 9 -> b.drainHeld(1 + random.nextInt(3 * DATA));
                    case 10 -> b.drain();
                    default -> {}
                }
                heldMost = Math.max(heldMost, b.heldBytes());
            }
            a.drain();
            a.flushPending();
            b.hold();
            b.drainHeld(1);
            b.drain();
            b.flushPending();
            assertEquals(0, b.heldBytes());
            assertTrue(heldMost > DATA, "seed " + seed + ": held at most " + heldMost);
            List<TraceEvent> expected = expanded(plainSeen);
            assertTrue(expected.size() > 3000, "seed " + seed + ": " + expected.size() + " events");
            assertEquals(expected, expanded(holdingSeen), "seed " + seed);
            assertEquals(a.records(), b.records(), "seed " + seed);
        }
    }

    @Test
    void aFunctionDefinitionHeldOnOneRingNamesTheCallsOfAnother() throws Exception {
        TestRing file = ring("two-rings", 2);
        List<TraceEvent> seen = new ArrayList<>();
        FunctionNames names = new FunctionNames(file.ringFile);
        RingDrain registering = file.drain(0, seen, names);
        RingDrain calling = file.drain(1, seen, names);
        file.write(0, Rec.definition(5, "held_definition"));
        registering.hold();
        file.write(1, Rec.call(5, 100, 200));
        calling.drain();
        calling.flushPending();
        List<TraceEvent> events = expanded(seen);
        assertEquals(2, events.size(), events::toString);
        assertEquals("held_definition", ((RegionBegin) events.getFirst()).name());
    }

    // ---- records as the agent writes them -------------------------------------------------------

    /** One record: its type, aux, and the bytes after the 8-byte header. */
    private record Rec(int type, int aux, byte[] payload) {
        int size() {
            return (8 + payload.length + 7) & ~7;
        }

        static Rec timed(int type, int aux, long time, byte[] more) {
            byte[] p = new byte[8 + more.length];
            MemorySegment.ofArray(p).set(JAVA_LONG.withByteAlignment(1), 0, time);
            System.arraycopy(more, 0, p, 8, more.length);
            return new Rec(type, aux, p);
        }

        static Rec definition(int id, String name) {
            return new Rec(WireFormat.REC_FUNC_DEF, id, cString(name));
        }

        static Rec call(int id, long begin, long end) {
            byte[] t = new byte[8];
            MemorySegment.ofArray(t).set(JAVA_LONG.withByteAlignment(1), 0, end);
            return timed(WireFormat.REC_FUNC_CALL, id, begin, t);
        }
    }

    private static byte[] cString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    /** Nested user regions with names of many lengths, marks, annotations and instrumented calls. */
    private static List<Rec> script(Random random, int n) {
        List<Rec> out = new ArrayList<>();
        IntFunction<String> name = len -> "r".repeat(1 + len);
        for (int id = 0; id < 8; id++) {
            out.add(Rec.definition(id, "function_" + id));
        }
        long time = 1_000;
        int depth = 0;
        for (int i = 0; i < n; i++) {
            time += 1 + random.nextInt(50);
            switch (random.nextInt(8)) {
                case 0, 1 -> {
                    out.add(Rec.timed(
                            WireFormat.REC_REGION_BEGIN,
                            Category.USER.code(),
                            time,
                            cString(name.apply(random.nextInt(60)))));
                    depth++;
                }
                case 2, 3 -> {
                    if (depth > 0) {
                        out.add(Rec.timed(WireFormat.REC_REGION_END, Category.USER.code(), time, new byte[0]));
                        depth--;
                    }
                }
                case 4 -> out.add(Rec.timed(WireFormat.REC_MARK, Category.USER.code(), time, cString("mark" + i)));
                case 5 -> {
                    byte[] a = cString("key" + random.nextInt(5));
                    // a signed 64-bit annotation (type 3): its value where other records keep their time
                    out.add(Rec.timed(WireFormat.REC_ANNOTATION, 3, random.nextLong(), a));
                }
                default -> out.add(Rec.call(random.nextInt(8), time, time += 1 + random.nextInt(20)));
            }
        }
        for (; depth > 0; depth--) {
            out.add(Rec.timed(WireFormat.REC_REGION_END, Category.USER.code(), ++time, new byte[0]));
        }
        return out;
    }

    private TestRing ring(String name, int rings) throws IOException, WireException {
        Path sub = java.nio.file.Files.createDirectories(dir.resolve(name));
        TestRing r = new TestRing(sub.resolve(PID + ".0.ring"), rings);
        opened.add(r);
        return r;
    }

    private static List<TraceEvent> expanded(List<TraceEvent> seen) {
        List<TraceEvent> out = new ArrayList<>();
        seen.forEach(RegionRun.expanding(out::add));
        return out;
    }

    /** A ring file of {@code rings} rings of {@link #DATA} bytes, and their producers' heads. */
    private static final class TestRing {
        final Arena arena = Arena.ofShared();
        final MemorySegment file;
        final long[] heads;
        final RingFile ringFile;

        TestRing(Path path, int rings) throws IOException, WireException {
            long size = WireFormat.FILE_HEADER_SIZE + (long) rings * (WireFormat.RING_HEADER_SIZE + DATA);
            try (FileChannel ch = FileChannel.open(
                    path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                file = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            }
            file.set(JAVA_LONG, WireFormat.H_MAGIC, WireFormat.MAGIC);
            file.set(JAVA_INT, WireFormat.H_VERSION, WireFormat.VERSION);
            file.set(JAVA_INT, WireFormat.H_HEADER_SIZE, WireFormat.FILE_HEADER_SIZE);
            file.set(JAVA_INT, WireFormat.H_RING_HEADER_SIZE, WireFormat.RING_HEADER_SIZE);
            file.set(JAVA_INT, WireFormat.H_MAX_RINGS, rings);
            file.set(JAVA_LONG, WireFormat.H_RING_DATA_SIZE, DATA);
            file.set(JAVA_INT, WireFormat.H_PID, PID);
            file.set(JAVA_INT, WireFormat.H_CLOCK_KIND, WireFormat.CLOCK_MONOTONIC_NS);
            file.set(JAVA_INT, WireFormat.H_RINGS_CLAIMED, rings);
            file.set(JAVA_INT, WireFormat.H_STATE, WireFormat.STATE_RUNNING);
            for (int i = 0; i < rings; i++) {
                long header = ringHeader(i);
                file.set(JAVA_INT, header + WireFormat.R_STATE, WireFormat.RING_ACTIVE);
                file.set(JAVA_INT, header + WireFormat.R_TID, PID + 1 + i);
            }
            heads = new long[rings];
            ringFile = RingFile.open(path);
        }

        RingDrain drain(int ring, List<TraceEvent> seen) {
            return drain(ring, seen, new FunctionNames(ringFile));
        }

        RingDrain drain(int ring, List<TraceEvent> seen, FunctionNames names) {
            return new RingDrain(PID, ringFile.rings().get(ring), seen::add, names);
        }

        private static long ringHeader(int ring) {
            return WireFormat.FILE_HEADER_SIZE + (long) ring * (WireFormat.RING_HEADER_SIZE + DATA);
        }

        private MemorySegment data(int ring) {
            return file.asSlice(ringHeader(ring) + WireFormat.RING_HEADER_SIZE, DATA);
        }

        /** The bytes the record takes at head: its own, and a PAD to the lap's end first where it would not fit there. */
        private long needed(int ring, Rec r) {
            long pos = heads[ring] % DATA;
            return pos + r.size() > DATA ? DATA - pos + r.size() : r.size();
        }

        boolean fits(int ring, Rec r) {
            long tail = file.get(JAVA_LONG, ringHeader(ring) + WireFormat.R_TAIL);
            return heads[ring] + needed(ring, r) - tail <= DATA;
        }

        void write(int ring, Rec r) {
            if (!fits(ring, r)) {
                throw new IllegalStateException("no room");
            }
            MemorySegment data = data(ring);
            long pos = heads[ring] % DATA;
            if (pos + r.size() > DATA) {
                data.set(JAVA_SHORT, pos, (short) WireFormat.REC_PAD);
                data.set(JAVA_SHORT, pos + 2, (short) 8);
                heads[ring] += DATA - pos;
                pos = 0;
            }
            data.set(JAVA_SHORT, pos, (short) r.type());
            data.set(JAVA_SHORT, pos + 2, (short) r.size());
            data.set(JAVA_INT, pos + 4, r.aux());
            MemorySegment.copy(r.payload(), 0, data, JAVA_BYTE, pos + 8, r.payload().length);
            heads[ring] += r.size();
            file.set(JAVA_LONG, ringHeader(ring) + WireFormat.R_HEAD, heads[ring]);
        }

        void close() {
            ringFile.close();
            arena.close();
        }
    }
}
