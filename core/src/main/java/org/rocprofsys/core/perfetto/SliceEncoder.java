package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.rocprofsys.core.event.AnnotationValue;

/**
 * Writes the packets of slice begins and ends, by far the most frequent ones, straight to bytes
 * instead of through protobuf builders (which cost several allocations and a size pass per
 * packet). Field numbers are those of perfetto_trace_subset.proto; fields are written in
 * field-number order, as protobuf itself serialises them, and the decoding tests read the result
 * back with the generated classes.
 *
 * <p>Packets are built in place in the trace's {@link PacketBuffer}: the TrackEvent is written
 * after room for the packet's header (its frame, timestamp, sequence and the event's length), and
 * the header is then written into that room. The room is what the header takes when the event and
 * the packet are shorter than 128 bytes, as nearly every slice's are; when it takes more, the event
 * is moved once to fit it. So a slice is never copied from one buffer into another. Every tag here
 * fits one byte except the clock id's, and capacity is checked once per field, not per byte: this
 * runs twice per region and is most of the Perfetto writer thread's work.
 */
final class SliceEncoder {
    // one-byte tags: field number << 3 | wire type
    private static final byte TRACE_PACKET = (1 << 3) | 2;
    private static final byte PACKET_TIMESTAMP = (8 << 3);
    private static final byte PACKET_SEQUENCE_ID = (10 << 3);
    private static final byte PACKET_TRACK_EVENT = (11 << 3) | 2;
    private static final byte PACKET_INTERNED_DATA = (12 << 3) | 2;
    /** Field 58, varint: a tag of two bytes. */
    private static final int PACKET_TIMESTAMP_CLOCK_ID_TAG = 58 << 3;

    private static final byte EVENT_CATEGORY_IIDS = (3 << 3);
    private static final byte EVENT_DEBUG_ANNOTATIONS = (4 << 3) | 2;
    private static final byte EVENT_TYPE = (9 << 3);
    private static final byte EVENT_NAME_IID = (10 << 3);

    private static final byte ANNOTATION_NAME_IID = (1 << 3);
    private static final byte ANNOTATION_BOOL = (2 << 3);
    private static final byte ANNOTATION_UINT = (3 << 3);
    private static final byte ANNOTATION_INT = (4 << 3);
    private static final byte ANNOTATION_DOUBLE = (5 << 3) | 1;
    private static final byte ANNOTATION_STRING = (6 << 3) | 2;
    private static final byte ANNOTATION_POINTER = (7 << 3);

    /** The most a varint field takes: a one-byte tag and ten bytes. */
    private static final int VARINT_FIELD = 11;
    /** Room reserved for a packet at its start; a field that needs more grows the buffer. */
    private static final int TYPICAL_PACKET = 256;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final PacketBuffer out;
    /** Where the event being built starts and ends in {@link PacketBuffer#bytes}. */
    private int start;

    private int end;
    /** The packet's timestamp, clock and sequence ({@link #begin}), and their varints' lengths. */
    private long timestamp;

    private int clockId;
    private int sequenceId;
    private int timestampBytes;
    private int sequenceBytes;

    /** One DebugAnnotation's body, copied into the event when complete. */
    private byte[] annotation = new byte[64];

    /** @param out where the packets are built and gathered */
    SliceEncoder(PacketBuffer out) {
        this.out = out;
    }

    /**
     * Starts the packet of a TrackEvent; its fields must then be added in field-number order. The
     * event is written after room for the header it will most likely have (its length and the
     * packet's below 128 bytes: no interned names).
     *
     * @param clockId 0 for the sequence's default clock, else the clock of an absolute timestamp
     */
    void begin(long timestamp, int clockId, int sequenceId) throws IOException {
        this.timestamp = timestamp;
        this.clockId = clockId;
        this.sequenceId = sequenceId;
        timestampBytes = Varint.size(timestamp);
        sequenceBytes = Varint.size(sequenceId);
        int header = 1 + 1 + 1 + timestampBytes + 1 + sequenceBytes + 1 + 1;
        out.reserve(header + TYPICAL_PACKET);
        start = out.position + header;
        end = start;
    }

    void categoryIid(long iid) {
        varintField(EVENT_CATEGORY_IIDS, iid);
    }

    void annotation(long nameIid, AnnotationValue value) {
        byte[] utf8 = value instanceof AnnotationValue.Text t
                ? (t.value() == null ? "" : t.value()).getBytes(StandardCharsets.UTF_8)
                : null;
        int need = 2 * VARINT_FIELD + 5 + (utf8 == null ? 0 : utf8.length);
        if (annotation.length < need) {
            annotation = new byte[Math.max(need, 2 * annotation.length)];
        }
        byte[] a = annotation;
        int n = 0;
        a[n++] = ANNOTATION_NAME_IID;
        n = putVarint(a, n, nameIid);
        switch (value) {
            case AnnotationValue.Bool v -> {
                a[n++] = ANNOTATION_BOOL;
                a[n++] = (byte) (v.value() ? 1 : 0);
            }
            case AnnotationValue.Unsigned v -> {
                a[n++] = ANNOTATION_UINT;
                n = putVarint(a, n, v.value());
            }
            case AnnotationValue.Signed v -> {
                a[n++] = ANNOTATION_INT;
                n = putVarint(a, n, v.value());
            }
            case AnnotationValue.Real v -> {
                a[n++] = ANNOTATION_DOUBLE;
                long bits = Double.doubleToRawLongBits(v.value());
                for (int i = 0; i < 8; i++) {
                    a[n++] = (byte) (bits >>> (8 * i));
                }
            }
            case AnnotationValue.Text v -> {
                a[n++] = ANNOTATION_STRING;
                n = putVarint(a, n, utf8.length);
                System.arraycopy(utf8, 0, a, n, utf8.length);
                n += utf8.length;
            }
            case AnnotationValue.Pointer v -> {
                a[n++] = ANNOTATION_POINTER;
                n = putVarint(a, n, v.address());
            }
        }
        ensure(1 + VARINT_FIELD + n);
        byte[] b = out.bytes;
        int p = end;
        b[p++] = EVENT_DEBUG_ANNOTATIONS;
        p = putVarint(b, p, n);
        System.arraycopy(a, 0, b, p, n);
        end = p + n;
    }

    /** An unsigned annotation (a region's begin_ns or end_ns), without boxing its value. */
    void unsignedAnnotation(long nameIid, long value) {
        ensure(2 + 2 * VARINT_FIELD);
        byte[] b = out.bytes;
        int p = end;
        int valueBytes = Varint.size(value);
        b[p++] = EVENT_DEBUG_ANNOTATIONS;
        b[p++] = (byte) (1 + Varint.size(nameIid) + 1 + valueBytes); // < 128
        b[p++] = ANNOTATION_NAME_IID;
        p = putVarint(b, p, nameIid);
        b[p++] = ANNOTATION_UINT;
        end = putVarint(b, p, value, valueBytes);
    }

    void type(int type) {
        varintField(EVENT_TYPE, type);
    }

    void nameIid(long iid) {
        varintField(EVENT_NAME_IID, iid);
    }

    /**
     * Completes the TracePacket holding the event as one {@code Trace.packet} record in the buffer.
     *
     * @param interned the serialised InternedData of names first used by this packet, or null
     */
    void writePacket(byte[] interned) {
        int eventLength = end - start;
        int tail = 0;
        if (interned != null) {
            tail += 1 + Varint.size(interned.length) + interned.length;
        }
        if (clockId != 0) {
            tail += 2 + Varint.size(clockId);
        }
        int inner = 1 + timestampBytes + 1 + sequenceBytes + 1 + (eventLength < 128 ? 1 : Varint.size(eventLength));
        int size = inner + eventLength + tail;
        int header = 1 + (size < 128 ? 1 : Varint.size(size)) + inner;
        int packetStart = out.position;
        if (header != start - packetStart) {
            // a longer header (a long event, names interned with it): the event moves to fit it
            ensure(header + VARINT_FIELD);
            System.arraycopy(out.bytes, start, out.bytes, packetStart + header, eventLength);
            start = packetStart + header;
            end = start + eventLength;
        }
        // the header's varints are stored byte by byte (a wide store would run into the event);
        // they are small: deltas, a sequence, lengths
        byte[] b = out.bytes;
        b[packetStart] = TRACE_PACKET;
        int p = Varint.put(b, packetStart + 1, size);
        b[p++] = PACKET_TIMESTAMP;
        p = Varint.put(b, p, timestamp);
        b[p++] = PACKET_SEQUENCE_ID;
        p = Varint.put(b, p, sequenceId);
        b[p++] = PACKET_TRACK_EVENT;
        Varint.put(b, p, eventLength);
        if (tail != 0) {
            ensure(tail + VARINT_FIELD); // the last varint's store may run past the tail
            b = out.bytes;
            p = end;
            if (interned != null) {
                b[p++] = PACKET_INTERNED_DATA;
                p = putVarint(b, p, interned.length);
                System.arraycopy(interned, 0, b, p, interned.length);
                p += interned.length;
            }
            if (clockId != 0) {
                p = putVarint(b, p, PACKET_TIMESTAMP_CLOCK_ID_TAG);
                p = putVarint(b, p, clockId);
            }
            end = p;
        }
        out.position = end;
    }

    private void varintField(byte tag, long value) {
        ensure(VARINT_FIELD);
        byte[] b = out.bytes;
        b[end] = tag;
        end = putVarint(b, end + 1, value);
    }

    /** Room for {@code more} bytes after the event's end (the buffer grows: a packet is never split). */
    private void ensure(int more) {
        out.grow(end + more);
    }

    /** 0x80 in each byte of a varint of n bytes but its last, for n = 0..8. */
    private static final long[] CONTINUATIONS = new long[9];

    static {
        for (int n = 2; n <= 8; n++) {
            CONTINUATIONS[n] = 0x8080808080808080L >>> (8 * (9 - n));
        }
    }

    /**
     * Writes {@code v} as a varint at {@code p}; returns the position after it. The caller leaves
     * ten writable bytes at {@code p}: a varint of more than one byte is stored eight bytes at a
     * time, its groups of seven bits spread with shifts (no loop, one bounds check), and the bytes
     * after it within that store are zeros for the next field to overwrite.
     */
    private static int putVarint(byte[] b, int p, long v) {
        if ((v & ~0x7FL) == 0) {
            b[p] = (byte) v;
            return p + 1;
        }
        return putVarint(b, p, v, Varint.size(v));
    }

    /** {@link #putVarint(byte[], int, long)} of a value whose varint takes {@code n} bytes. */
    private static int putVarint(byte[] b, int p, long v, int n) {
        if (n == 1) {
            b[p] = (byte) v;
            return p + 1;
        }
        long groups = (v & 0x7FL)
                | ((v << 1) & 0x7F00L)
                | ((v << 2) & 0x7F0000L)
                | ((v << 3) & 0x7F000000L)
                | ((v << 4) & 0x7F00000000L)
                | ((v << 5) & 0x7F0000000000L)
                | ((v << 6) & 0x7F000000000000L)
                | ((v << 7) & 0x7F00000000000000L);
        if (n <= 8) {
            LONG_LE.set(b, p, groups | CONTINUATIONS[n]);
            return p + n;
        }
        LONG_LE.set(b, p, groups | 0x8080808080808080L);
        long high = v >>> 56;
        if (n == 9) {
            b[p + 8] = (byte) high;
        } else {
            b[p + 8] = (byte) (high | 0x80);
            b[p + 9] = (byte) (high >>> 7);
        }
        return p + n;
    }
}
