package org.rocprofsys.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import com.google.protobuf.CodedInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.perfetto.PerfettoSink;
import org.rocprofsys.core.perfetto.Varint;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackEvent;
import org.rocprofsys.core.timemory.TimemoryOptions;
import org.rocprofsys.core.timemory.TimemorySink;
import org.rocprofsys.core.wire.ClockConversion;
import org.rocprofsys.core.wire.WireFormat;

/**
 * Benchmark "floor" (no budget; docs/benchmarks.md, "GPU detection off the end of short runs, and
 * where the goals stand"): what the collector's work per region record costs on one thread when no
 * object is made per record, an estimate of what a redesigned event path could reach. Region
 * begin and end records in the agent's wire layout, with {@code region_stream}'s names and nesting,
 * are decoded (the TSC line of {@link ClockConversion}, names interned by their bytes), added to a
 * call graph kept in arrays (count, sum, sum of squares, min, max per node) and encoded as the
 * trace's slice packets with the fields the product writes (delta timestamp, sequence, category on
 * begins, a begin_ns/end_ns annotation, type, name, interned names on first use) into a file, on
 * one thread. The file's packets are then read back with protobuf's generated classes and its
 * slices counted. It is not the product: no filters, no normaliser, one thread of the target.
 *
 * <p>Baseline in the same run: the product's two sinks, {@link PerfettoSink} into a file and
 * {@link TimemorySink}, on one thread, fed as many region events of {@link SyntheticRun} (one
 * thread), made before the timing and gathered into {@link RegionRun}s as the product's drain
 * gathers them.
 */
final class IngestFloorBench {
    private static final long REALTIME_OFFSET_NS = SyntheticRun.REALTIME_OFFSET_NS;
    private static final int SEQUENCE = 2;

    private IngestFloorBench() {}

    static List<Result> run(Env env) throws IOException {
        int records = (int) env.size(4_000_000, 400_000);
        int rounds = (int) env.size(5, 2);
        int warmUps = (int) env.size(3, 0); // untimed: both sides' code compiled first
        Path dir = Files.createTempDirectory("rocprofsys-floor");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(records * 32L, 8);
            long bytes = regionStreamRecords(ring, records);
            // a TSC of 2.5 GHz against CLOCK_MONOTONIC: the multiply-and-shift the collector does
            ClockConversion clock = ClockConversion.through(
                    new ClockConversion.Pair(1_000_000L, 3_000_000_000L),
                    new ClockConversion.Pair(1_000_000L + 2_500_000_000L, 4_000_000_000L));
            List<Object> events = gathered(events(records));

            double[] floor = new double[rounds + warmUps];
            double[] product = new double[rounds + warmUps];
            for (int r = 0; r < rounds + warmUps; r++) {
                Path trace = dir.resolve("floor.proto");
                Floor f = new Floor();
                long t0 = System.nanoTime();
                try (OutputStream out = Files.newOutputStream(trace)) {
                    f.drain(ring, bytes, clock, out);
                }
                floor[r] = (System.nanoTime() - t0) / (double) records;
                long slices = slicesIn(trace);
                if (slices != records || f.nodes != 293) {
                    throw new IllegalStateException("the floor's trace holds " + slices + " slice events of " + records
                            + ", its call graph " + f.nodes + " nodes (expected 293)");
                }
                long floorBytes = Files.size(trace);
                Files.delete(trace);

                product[r] = productPass(dir, events) / records;
                System.out.printf(
                        Locale.ROOT,
                        "floor: %s %d: %.1f ns per record (%.1f trace bytes per record), product's sinks %.1f ns"
                                + " per event%n",
                        r < warmUps ? "warm-up" : "round",
                        r < warmUps ? r : r - warmUps,
                        floor[r],
                        floorBytes / (double) records,
                        product[r]);
            }
            double f = Main.median(Arrays.copyOfRange(floor, warmUps, floor.length));
            double p = Main.median(Arrays.copyOfRange(product, warmUps, product.length));
            System.out.printf(
                    Locale.ROOT,
                    "floor: %.1f ns per record with no object per record (decode, call graph, trace packets"
                            + " and their file, one thread) against %.1f ns per event for the product's two sinks"
                            + " alone (medians of %d)%n",
                    f,
                    p,
                    rounds);
            return List.of(new Result(
                    "ingest floor, no object per record",
                    f,
                    "ns",
                    "product's Perfetto+timemory sinks",
                    p,
                    "ns",
                    f / p,
                    Double.NaN,
                    false));
        } finally {
            Main.deleteTree(dir);
        }
    }

    /** Writes {@code records} region records as region_stream's loop pushes them; returns their bytes. */
    private static long regionStreamRecords(MemorySegment ring, int records) {
        String[] outer = {"outer_0", "outer_1", "outer_2", "outer_3"};
        long p = 0;
        long ticks = 1_000_000L;
        int written = 0;
        int aux = Category.HOST.code();
        for (long j = 0; written < records; j++) {
            String[] names = {outer[(int) (j & 3)], "middle_" + ((j >> 2) & 7), "inner_0" + ((j >> 5) & 7)};
            for (int k = 0; k < 3 && written < records; k++) {
                byte[] name = names[k].getBytes(StandardCharsets.UTF_8);
                int size = 16 + ((name.length + 1 + 7) & ~7);
                header(ring, p, WireFormat.REC_REGION_BEGIN, size, aux, ticks += 100);
                MemorySegment.copy(name, 0, ring, JAVA_BYTE, p + 16, name.length);
                p += size;
                written++;
            }
            for (int k = 0; k < 3 && written < records; k++) {
                header(ring, p, WireFormat.REC_REGION_END, 16, aux, ticks += 100);
                p += 16;
                written++;
            }
        }
        return p;
    }

    private static void header(MemorySegment ring, long at, int type, int size, int aux, long ticks) {
        ring.set(JAVA_SHORT_UNALIGNED, at, (short) type);
        ring.set(JAVA_SHORT_UNALIGNED, at + 2, (short) size);
        ring.set(JAVA_INT_UNALIGNED, at + 4, aux);
        ring.set(JAVA_LONG_UNALIGNED, at + 8, ticks);
    }

    /** The per-record work with no object per record. */
    private static final class Floor {
        // names, interned by their bytes: open addressing on the first word and the length
        private final long[] keys = new long[1 << 12];
        private final int[] lengths = new int[1 << 12];
        private final int[] ids = new int[1 << 12];
        private final byte[][] nameBytes = new byte[1 << 12][];
        private int names;

        // the call graph: node per (parent, name), statistics per node
        private final int[] childParent = new int[1 << 16];
        private final int[] childName = new int[1 << 16];
        private final int[] childNode = new int[1 << 16];
        int nodes = 1; // node 0 is the root
        private final long[] count = new long[1 << 16];
        private final long[] sum = new long[1 << 16];
        private final double[] sumSquares = new double[1 << 16];
        private final long[] min = new long[1 << 16];
        private final long[] max = new long[1 << 16];
        private final int[] stackNode = new int[256];
        private final long[] stackNs = new long[256];
        private int depth;

        // the trace: packets into a buffer, the buffer into the file
        private final byte[] buf = new byte[1 << 20];
        private int pos;
        private final byte[] event = new byte[256];
        private final boolean[] announced = new boolean[1 << 12];
        private long lastNs;

        void drain(MemorySegment d, long bytes, ClockConversion clock, OutputStream out) throws IOException {
            for (long at = 0; at < bytes; ) {
                int type = d.get(JAVA_SHORT_UNALIGNED, at);
                int size = d.get(JAVA_SHORT_UNALIGNED, at + 2) & 0xffff;
                long ns = clock.toMonotonicNs(d.get(JAVA_LONG_UNALIGNED, at + 8));
                if (type == WireFormat.REC_REGION_BEGIN) {
                    int name = name(d, at + 16, at + size);
                    int parent = depth == 0 ? 0 : stackNode[depth - 1];
                    stackNode[depth] = child(parent, name);
                    stackNs[depth++] = ns;
                    packet(true, ns, name, out);
                } else if (type == WireFormat.REC_REGION_END && depth > 0) {
                    int node = stackNode[--depth];
                    long duration = ns - stackNs[depth];
                    count[node]++;
                    sum[node] += duration;
                    sumSquares[node] += (double) duration * duration;
                    min[node] = Math.min(min[node], duration);
                    max[node] = Math.max(max[node], duration);
                    packet(false, ns, 0, out);
                }
                at += size;
            }
            out.write(buf, 0, pos);
            pos = 0;
        }

        private int name(MemorySegment d, long at, long end) {
            long word = d.get(JAVA_LONG_UNALIGNED, at);
            long zeros = (word - 0x0101010101010101L) & ~word & 0x8080808080808080L;
            int length;
            if (zeros != 0) {
                length = Long.numberOfTrailingZeros(zeros) >>> 3;
            } else {
                length = 8;
                while (at + length < end && d.get(JAVA_BYTE, at + length) != 0) {
                    length++;
                }
            }
            long key = length < 8 ? word & ((1L << (8 * length)) - 1) : word;
            int h = (int) ((key * 0x9E3779B97F4A7C15L ^ length) >>> 52);
            while (true) {
                if (ids[h] == 0) {
                    ids[h] = ++names;
                    keys[h] = key;
                    lengths[h] = length;
                    byte[] b = new byte[length];
                    MemorySegment.copy(d, JAVA_BYTE, at, b, 0, length);
                    nameBytes[names] = b;
                    return names;
                }
                if (keys[h] == key && lengths[h] == length && (length <= 8 || sameTail(d, at, nameBytes[ids[h]]))) {
                    return ids[h];
                }
                h = (h + 1) & (keys.length - 1);
            }
        }

        private static boolean sameTail(MemorySegment d, long at, byte[] b) {
            for (int i = 8; i < b.length; i++) {
                if (d.get(JAVA_BYTE, at + i) != b[i]) {
                    return false;
                }
            }
            return true;
        }

        private int child(int parent, int name) {
            int h = ((parent * 31 + name) * 0x9E3779B9) >>> 16;
            while (true) {
                int n = childNode[h];
                if (n == 0) {
                    n = nodes++;
                    childNode[h] = n;
                    childParent[h] = parent;
                    childName[h] = name;
                    min[n] = Long.MAX_VALUE;
                    return n;
                }
                if (childParent[h] == parent && childName[h] == name) {
                    return n;
                }
                h = (h + 1) & 0xffff;
            }
        }

        /** A slice begin or end packet, with the fields the product's SliceEncoder writes. */
        private void packet(boolean begin, long ns, int name, OutputStream out) throws IOException {
            long realtime = ns + REALTIME_OFFSET_NS;
            byte[] e = event;
            int n = 0;
            if (begin) {
                e[n++] = (3 << 3); // category_iids
                e[n++] = 1;
            }
            e[n++] = (4 << 3) | 2; // debug_annotations { name_iid, uint_value }
            e[n++] = (byte) (1 + 1 + 1 + Varint.size(realtime));
            e[n++] = (1 << 3);
            e[n++] = (byte) (begin ? 1 : 2);
            e[n++] = (3 << 3);
            n = Varint.put(e, n, realtime);
            e[n++] = (9 << 3); // type
            e[n++] = (byte) (begin ? 1 : 2);
            if (begin) {
                e[n++] = (10 << 3); // name_iid
                n = Varint.put(e, n, name);
            }
            byte[] interned = begin && !announced[name] ? interned(name) : null;
            long delta = ns - lastNs;
            lastNs = ns;
            int inner = 1
                    + Varint.size(delta)
                    + 1
                    + 1
                    + 1
                    + Varint.size(n)
                    + n
                    + (interned == null ? 0 : 1 + Varint.size(interned.length) + interned.length);
            if (pos + inner + 8 > buf.length) {
                out.write(buf, 0, pos);
                pos = 0;
            }
            byte[] b = buf;
            int p = pos;
            b[p++] = (1 << 3) | 2; // Trace.packet
            p = Varint.put(b, p, inner);
            b[p++] = (8 << 3); // timestamp
            p = Varint.put(b, p, delta);
            b[p++] = (10 << 3); // trusted_packet_sequence_id
            b[p++] = SEQUENCE;
            b[p++] = (11 << 3) | 2; // track_event
            p = Varint.put(b, p, n);
            System.arraycopy(e, 0, b, p, n);
            p += n;
            if (interned != null) {
                b[p++] = (12 << 3) | 2; // interned_data
                p = Varint.put(b, p, interned.length);
                System.arraycopy(interned, 0, b, p, interned.length);
                p += interned.length;
            }
            pos = p;
        }

        /** InternedData { event_names { iid, name } } of a name's first use. */
        private byte[] interned(int name) {
            announced[name] = true;
            byte[] s = nameBytes[name];
            byte[] entry = new byte[2 + Varint.size(name) + 1 + Varint.size(s.length) + s.length + 8];
            int q = 0;
            entry[q++] = (1 << 3);
            q = Varint.put(entry, q, name);
            entry[q++] = (2 << 3) | 2;
            q = Varint.put(entry, q, s.length);
            System.arraycopy(s, 0, entry, q, s.length);
            q += s.length;
            byte[] data = new byte[1 + Varint.size(q) + q];
            int r = 0;
            data[r++] = (2 << 3) | 2; // event_names
            r = Varint.put(data, r, q);
            System.arraycopy(entry, 0, data, r, q);
            return Arrays.copyOf(data, r + q);
        }
    }

    /** The slice begins and ends in a file of Trace.packet records, read with protobuf's classes. */
    private static long slicesIn(Path trace) throws IOException {
        long slices = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(trace), 1 << 16)) {
            CodedInputStream c = CodedInputStream.newInstance(in);
            c.setSizeLimit(Integer.MAX_VALUE);
            while (!c.isAtEnd()) {
                int tag = c.readTag();
                if (tag != ((1 << 3) | 2)) {
                    throw new IOException("not a Trace.packet: tag " + tag);
                }
                TracePacket packet = TracePacket.parseFrom(c.readBytes());
                TrackEvent.Type type = packet.getTrackEvent().getType();
                if (type == TrackEvent.Type.TYPE_SLICE_BEGIN || type == TrackEvent.Type.TYPE_SLICE_END) {
                    slices++;
                }
                c.resetSizeCounter();
            }
        }
        return slices;
    }

    private static List<SinkEvent> events(int records) throws IOException {
        List<SinkEvent> events = new ArrayList<>(records + 16);
        new SyntheticRun(1, records, 2048).emit(new EventSink() {
            @Override
            public void accept(SinkEvent e) {
                events.add(e);
            }

            @Override
            public void finish(RunSummary summary) {}
        });
        return events;
    }

    /**
     * The events as the product's drain hands them on: one thread's plain regions gathered into
     * {@link RegionRun}s of up to 1024 (RingDrain's capacity), every other event as it is.
     */
    private static List<Object> gathered(List<SinkEvent> events) {
        List<Object> out = new ArrayList<>();
        RegionRun run = null;
        for (SinkEvent e : events) {
            boolean plain = switch (e) {
                case RegionBegin b -> b.annotations().isEmpty() && RegionMetrics.NONE.equals(b.metrics());
                case RegionEnd en ->
                    en.annotations().isEmpty() && RegionMetrics.NONE.equals(en.metrics()) && !en.forced();
                default -> false;
            };
            int tid = e instanceof RegionBegin b ? b.tid() : e instanceof RegionEnd en ? en.tid() : -1;
            if (run != null && (!plain || run.tid() != tid || run.pid() != e.pid() || run.size() == 1024)) {
                out.add(run);
                run = null;
            }
            if (!plain) {
                out.add(e);
                continue;
            }
            if (run == null) {
                run = new RegionRun(e.pid(), tid, 1024);
            }
            if (e instanceof RegionBegin b) {
                run.addBegin(b.timestampNs(), b.name(), b.category());
            } else {
                run.addEnd(e.timestampNs(), ((RegionEnd) e).category());
            }
        }
        if (run != null) {
            out.add(run);
        }
        return out;
    }

    /** The product's sinks on one thread over the events; returns the nanoseconds taken. */
    private static double productPass(Path dir, List<Object> events) throws IOException {
        Path trace = dir.resolve("product.proto");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        PerfettoSink perfetto =
                new PerfettoSink(trace, new PerfettoSink.Options(true, REALTIME_OFFSET_NS, "bench_app"));
        TimemorySink timemory = new TimemorySink(TimemoryOptions.defaults(), FinalizeBench.paths(dir), quiet, quiet);
        long t0 = System.nanoTime();
        long last = 0;
        for (Object o : events) {
            if (o instanceof RegionRun r) {
                perfetto.acceptRegions(r);
                timemory.acceptRegions(r);
                last = r.time(r.size() - 1);
            } else {
                SinkEvent e = (SinkEvent) o;
                perfetto.accept(e);
                timemory.accept(e);
                last = e.timestampNs();
            }
        }
        long t1 = System.nanoTime();
        RunSummary summary = new RunSummary(last + 1, REALTIME_OFFSET_NS, SyntheticRun.PID, "bench_app", Map.of());
        perfetto.finish(summary);
        Files.deleteIfExists(trace);
        return t1 - t0;
    }
}
