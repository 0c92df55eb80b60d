package org.rocprofsys.core.perfetto;

/**
 * Protobuf's base-128 varints as the trace's hand-written encoders write them (the slice encoder,
 * the ingest-floor benchmark's minimal writer).
 */
public final class Varint {
    private Varint() {}

    /** Bytes of {@code v} as a varint (a negative int or long takes ten, as protobuf's uint64). */
    public static int size(long v) {
        return v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 6) / 7;
    }

    /** Writes {@code v} as a varint at {@code p}, byte by byte, writing nothing after it; returns the position after it. */
    public static int put(byte[] b, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) (v | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }
}
