package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of the newest framed packets, oldest first, in 1 MiB chunks that are allocated as the
 * ring grows and released as its head passes them, so memory follows what is kept (at most the
 * trace budget) and a packet may straddle two chunks. Positions are logical byte offsets since the
 * first byte ever appended.
 */
final class PacketRing {
    private static final int CHUNK_SHIFT = 20;
    private static final int CHUNK = 1 << CHUNK_SHIFT;
    private static final int MASK = CHUNK - 1;

    /** Chunk i holds positions [i MiB, (i+1) MiB); released chunks are null. */
    private final List<byte[]> chunks = new ArrayList<>();

    private long head;
    private long tail;

    long size() {
        return tail - head;
    }

    long head() {
        return head;
    }

    void append(byte[] bytes, int length) {
        int done = 0;
        while (done < length) {
            int offset = (int) (tail & MASK);
            if (offset == 0) {
                chunks.add(new byte[CHUNK]);
            }
            int n = Math.min(length - done, CHUNK - offset);
            System.arraycopy(bytes, done, chunks.getLast(), offset, n);
            done += n;
            tail += n;
        }
    }

    int byteAt(long position) {
        return chunks.get((int) (position >>> CHUNK_SHIFT))[(int) (position & MASK)] & 0xff;
    }

    /** Copies {@code length} bytes from {@code position} into {@code out}. */
    void copy(long position, byte[] out, int length) {
        int done = 0;
        while (done < length) {
            long p = position + done;
            int offset = (int) (p & MASK);
            int n = Math.min(length - done, CHUNK - offset);
            System.arraycopy(chunks.get((int) (p >>> CHUNK_SHIFT)), offset, out, done, n);
            done += n;
        }
    }

    /** Forgets everything before {@code position}, releasing the chunks wholly before it. */
    void dropTo(long position) {
        for (int i = (int) (head >>> CHUNK_SHIFT); i < (int) (position >>> CHUNK_SHIFT); i++) {
            chunks.set(i, null);
        }
        head = position;
    }

    void writeTo(OutputStream out) throws IOException {
        long p = head;
        while (p < tail) {
            int offset = (int) (p & MASK);
            int n = (int) Math.min(tail - p, CHUNK - offset);
            out.write(chunks.get((int) (p >>> CHUNK_SHIFT)), offset, n);
            p += n;
        }
    }
}
