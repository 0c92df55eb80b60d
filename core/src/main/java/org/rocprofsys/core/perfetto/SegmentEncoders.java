package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.rocprofsys.core.event.RegionRun;

/**
 * Encodes long stretches of one thread's region runs (segments) on worker threads while the sink
 * goes on, and puts their packets in the trace in the order the sink handed them over: the slice
 * packets of a traced run are nearly all its work, more than one thread can encode at the rate
 * the agent's rings deliver them on a machine with CPUs to spare.
 *
 * <p>Each segment starts by clearing its sequence's incremental state ({@link
 * ThreadTrack#startPacket}, as Perfetto's SDK does at every clear period), so it needs nothing
 * from the packets before it but where the sequence's clock and open slices stand; its names are
 * interned again within it. The sink's own packets go through {@link #ordered()}, after the
 * segments handed over before them. At most {@code 2 x workers + 2} segments are in flight; the
 * sink waits for the oldest beyond that.
 *
 * <p>Only for a trace whose bytes are kept in order from the start ({@code discard}): the {@code
 * ring_buffer} budget keeps each sequence's state packets apart from the rest, which a state
 * cleared in mid-sequence would not survive. Not thread-safe: the sink calls it from its thread.
 */
final class SegmentEncoders {
    /** A segment goes to a worker once it holds this many regions. */
    static final int SEGMENT_REGIONS = 32 * 1024;
    /**
     * A shorter one (its thread's runs cut by other events) is encoded by the sink itself: its
     * start would intern all its names again for little work.
     */
    static final int MIN_SEGMENT_REGIONS = 4 * 1024;
    /** A segment's packets are built in one array of this size, reused (a larger output grows). */
    private static final int SEGMENT_BYTES = 2 << 20;

    /** Bytes to write in order; {@code pooled} arrays go back to the workers once written. */
    private record Piece(byte[] bytes, int length, boolean pooled) {}

    /** What comes next in the trace: a segment's packets, or (done already) the sink's own. */
    private record Pending(CompletableFuture<List<Piece>> pieces, boolean segment) {}

    private final OutputStream file;
    private final PerfettoSink.Options options;
    private final ExecutorService workers;
    private final int maxInFlight;
    /** A segment goes to a worker once it holds this many regions ({@link #SEGMENT_REGIONS}). */
    final int segmentRegions;
    /** A shorter one is encoded by the sink ({@link #MIN_SEGMENT_REGIONS}). */
    final int minSegmentRegions;

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Segments in {@link #pending}. */
    private int segments;

    private final ConcurrentLinkedQueue<byte[]> freeArrays = new ConcurrentLinkedQueue<>();
    private final OutputStream ordered = new Ordered();

    /** @param file where the trace's bytes go, in order */
    SegmentEncoders(OutputStream file, PerfettoSink.Options options, int threads) {
        this(file, options, threads, SEGMENT_REGIONS, MIN_SEGMENT_REGIONS);
    }

    /** With segments of other sizes (tests: many segments from a short stream). */
    SegmentEncoders(
            OutputStream file, PerfettoSink.Options options, int threads, int segmentRegions, int minSegmentRegions) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (minSegmentRegions < 1 || segmentRegions < minSegmentRegions) {
            throw new IllegalArgumentException(
                    "segment sizes " + minSegmentRegions + ".." + segmentRegions + " are not a range of >= 1");
        }
        this.segmentRegions = segmentRegions;
        this.minSegmentRegions = minSegmentRegions;
        this.file = file;
        this.options = options;
        this.maxInFlight = 2 * threads + 2;
        ThreadFactory named = Thread.ofPlatform()
                .name("rocprof-sys-trace-encoder-", 1)
                .daemon(true)
                .factory();
        this.workers = Executors.newFixedThreadPool(threads, named);
    }

    /**
     * Workers for a trace written on this machine: none with fewer than 4 CPUs (where every CPU is
     * busy with the target and the collector's other threads, a hand-off only adds work), else
     * about a quarter of them, at most 4. ROCPROFSYS_PERFETTO_ENCODERS overrides it ({@link
     * PerfettoFormat}; 0: the sink encodes every region).
     */
    static int threadsFor(int cpus) {
        return cpus < 4 ? 0 : Math.min(4, cpus / 4 + 1);
    }

    /** The stream of the sink's own packets: they reach the trace after every segment handed over before them. */
    OutputStream ordered() {
        return ordered;
    }

    /**
     * Hands over a segment: the regions of {@code runs}, all of {@code start}'s thread, encoded
     * from {@code start} (a {@link ThreadTrack#continuation}, which the caller no longer uses).
     */
    void submit(ThreadTrack start, List<RegionRun> runs) throws IOException {
        List<RegionRun> held = List.copyOf(runs);
        pending.add(new Pending(CompletableFuture.supplyAsync(() -> encode(start, held), workers), true));
        segments++;
        writeDone();
        while (segments > maxInFlight) {
            writeHead();
        }
    }

    /** Writes the segments (and the sink's packets after them) that are ready, in order. */
    void writeDone() throws IOException {
        while (!pending.isEmpty() && pending.peek().pieces().isDone()) {
            writeHead();
        }
    }

    /** Writes everything handed over, waiting for the workers, and stops them. */
    void finish() throws IOException {
        try {
            while (!pending.isEmpty()) {
                writeHead();
            }
        } finally {
            workers.shutdownNow();
        }
    }

    /** Stops the workers, dropping what they have not written (the trace is being abandoned). */
    void abandon() {
        pending.clear();
        segments = 0;
        workers.shutdownNow();
    }

    private void writeHead() throws IOException {
        Pending head = pending.poll();
        if (head.segment()) {
            segments--;
        }
        List<Piece> pieces;
        try {
            pieces = head.pieces().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the trace's encoders");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw new IOException("a trace encoder failed: " + cause, cause);
        }
        for (Piece p : pieces) {
            file.write(p.bytes(), 0, p.length());
            if (p.pooled()) {
                freeArrays.add(p.bytes());
            }
        }
    }

    /** On a worker: the segment's packets, starting with the sequence's restart. */
    private List<Piece> encode(ThreadTrack t, List<RegionRun> runs) {
        byte[] array = freeArrays.poll();
        Overflow overflow = new Overflow();
        PacketBuffer out = new PacketBuffer(overflow, array != null ? array : new byte[SEGMENT_BYTES]);
        try {
            out.write(t.startPacket());
            RegionSlices regions = new RegionSlices(out, options);
            for (RegionRun run : runs) {
                regions.run(t, run);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        overflow.pieces.add(new Piece(out.bytes, out.position, true));
        return overflow.pieces;
    }

    /** Where a worker's buffer goes when a segment's packets do not fit it (long names): copies. */
    private static final class Overflow extends OutputStream {
        final List<Piece> pieces = new ArrayList<>(1);

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            pieces.add(new Piece(Arrays.copyOfRange(b, off, off + len), len, false));
        }
    }

    /** The sink's packets: straight to the file when no segment is waiting, else queued after them. */
    private final class Ordered extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writeDone();
            if (pending.isEmpty()) {
                file.write(b, off, len);
            } else {
                Piece copy = new Piece(Arrays.copyOfRange(b, off, off + len), len, false);
                pending.add(new Pending(CompletableFuture.completedFuture(List.of(copy)), false));
            }
        }
    }
}
