package org.rocprofsys.core.wire;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Arrays;
import org.rocprofsys.core.spi.WireException;
import org.rocprofsys.ffm.LibC;

/**
 * Bytes taken out of one ring and not yet decoded, in the ring's own record layout: the collector
 * copies a ring's published records here while the target runs, so that the producer's space is
 * freed at the cost of a copy, and decodes them when the target has ended or the held bytes exceed
 * their budget (docs/benchmarks.md, "Records held while the target runs").
 *
 * <p>The bytes are kept as pieces, each a stretch of the ring that does not wrap. A piece that
 * reaches the end of the ring's data may end with a PAD record, which means "skip to the end of
 * the piece" here as "skip to the end of the data" there. Pieces are packed into chunks of native
 * memory; only the collector thread uses a spool.
 */
final class RingSpool {
    static final long CHUNK_BYTES = 4L << 20;

    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    private final long chunkBytes;
    private long bytes;

    RingSpool() {
        this(CHUNK_BYTES);
    }

    /** A spool whose chunks are {@code chunkBytes} (tests: small ones make many). */
    RingSpool(long chunkBytes) {
        this.chunkBytes = chunkBytes;
    }

    /** One allocation holding whole pieces back to back; {@code ends[i]} is where piece i ends. */
    private static final class Chunk {
        final MemorySegment segment;
        long used;
        long[] ends = new long[16];
        int pieces;
        /** Pieces handed to a reader so far. */
        int read;

        Chunk(long size) {
            // pages straight from the kernel, zeroed once when first touched (Arena.allocate zeroes them again)
            LibC.Result r = LibC.mmapAnonymous(size);
            if (r.value() == LibC.MAP_FAILED) {
                throw new OutOfMemoryError(
                        "cannot map " + size + " bytes to hold ring records: " + LibC.strerror(r.errno()));
            }
            segment = MemorySegment.ofAddress(r.value()).reinterpret(size);
        }

        void free() {
            LibC.munmap(segment, segment.byteSize());
        }

        /** Where piece {@code i} starts (each piece starts where the one before it ends). */
        long start(int i) {
            return i == 0 ? 0 : ends[i - 1];
        }

        void add(long end) {
            if (pieces == ends.length) {
                ends = Arrays.copyOf(ends, pieces * 2);
            }
            ends[pieces++] = end;
        }
    }

    /** Receives the held pieces in order: records from {@code from} to {@code to} of {@code data}. */
    @FunctionalInterface
    interface PieceReader {
        void read(MemorySegment data, long from, long to) throws WireException;
    }

    /**
     * Copies {@code length} bytes of {@code data} from {@code from} (a stretch of whole records that
     * does not wrap); throws {@link OutOfMemoryError}, holding nothing more, where no memory is left.
     */
    void take(MemorySegment data, long from, long length) {
        if (length == 0) {
            return;
        }
        Chunk chunk = chunks.peekLast();
        if (chunk == null || chunk.segment.byteSize() - chunk.used < length) {
            chunk = new Chunk(Math.max(chunkBytes, length));
            chunks.addLast(chunk);
        }
        MemorySegment.copy(data, from, chunk.segment, chunk.used, length);
        chunk.used += length;
        chunk.add(chunk.used);
        bytes += length;
    }

    /** Bytes held. */
    long bytes() {
        return bytes;
    }

    boolean isEmpty() {
        return bytes == 0;
    }

    /** Hands every held piece to {@code reader} in order, without letting go of them. */
    void forEachPiece(PieceReader reader) throws WireException {
        for (Chunk chunk : chunks) {
            for (int i = chunk.read; i < chunk.pieces; i++) {
                reader.read(chunk.segment, chunk.start(i), chunk.ends[i]);
            }
        }
    }

    /**
     * Hands the oldest held pieces to {@code reader} in order until at least {@code bytes} were read
     * (or none is left), freeing each chunk once read. A reader that throws leaves the spool empty:
     * the pieces after the failure are not read either.
     */
    void drainTo(PieceReader reader, long bytes) throws WireException {
        long read = 0;
        boolean failed = true;
        try {
            for (Chunk chunk; read < bytes && (chunk = chunks.peekFirst()) != null; ) {
                while (read < bytes && chunk.read < chunk.pieces) {
                    int i = chunk.read++;
                    long length = chunk.ends[i] - chunk.start(i);
                    read += length;
                    this.bytes -= length;
                    reader.read(chunk.segment, chunk.start(i), chunk.ends[i]);
                }
                if (chunk.read == chunk.pieces) {
                    chunks.pollFirst();
                    chunk.free();
                }
            }
            failed = false;
        } finally {
            if (failed) {
                clear();
            }
        }
    }

    /** Frees every chunk unread. */
    void clear() {
        for (Chunk chunk; (chunk = chunks.pollFirst()) != null; ) {
            chunk.free();
        }
        bytes = 0;
    }
}
