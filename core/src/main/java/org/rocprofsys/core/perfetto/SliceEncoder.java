package org.rocprofsys.core.perfetto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.rocprofsys.core.event.AnnotationValue;

/**
 * Writes the packets of slice begins and ends, by far the most frequent ones, straight to bytes
 * instead of through protobuf builders (which cost several allocations and a size pass per
 * packet). Field numbers are those of perfetto_trace_subset.proto; fields are written in
 * field-number order, as protobuf itself serialises them, and the decoding tests read the result
 * back with the generated classes.
 */
final class SliceEncoder {
    // TracePacket
    private static final int PACKET_TIMESTAMP = 8;
    private static final int PACKET_SEQUENCE_ID = 10;
    private static final int PACKET_TRACK_EVENT = 11;
    private static final int PACKET_INTERNED_DATA = 12;
    private static final int PACKET_TIMESTAMP_CLOCK_ID = 58;
    // TrackEvent
    private static final int EVENT_CATEGORY_IIDS = 3;
    private static final int EVENT_DEBUG_ANNOTATIONS = 4;
    private static final int EVENT_TYPE = 9;
    private static final int EVENT_NAME_IID = 10;
    // DebugAnnotation
    private static final int ANNOTATION_NAME_IID = 1;
    private static final int ANNOTATION_BOOL = 2;
    private static final int ANNOTATION_UINT = 3;
    private static final int ANNOTATION_INT = 4;
    private static final int ANNOTATION_DOUBLE = 5;
    private static final int ANNOTATION_STRING = 6;
    private static final int ANNOTATION_POINTER = 7;

    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;

    /** The TrackEvent being built. */
    private final Bytes event = new Bytes();
    /** One DebugAnnotation, copied into {@link #event} when complete. */
    private final Bytes annotation = new Bytes();

    private final Bytes packet = new Bytes();

    /** Starts a TrackEvent; its fields must then be added in field-number order. */
    void begin() {
        event.length = 0;
    }

    void categoryIid(long iid) {
        event.tag(EVENT_CATEGORY_IIDS, VARINT);
        event.varint(iid);
    }

    void annotation(long nameIid, AnnotationValue value) {
        annotation.length = 0;
        annotation.tag(ANNOTATION_NAME_IID, VARINT);
        annotation.varint(nameIid);
        switch (value) {
            case AnnotationValue.Bool v -> {
                annotation.tag(ANNOTATION_BOOL, VARINT);
                annotation.varint(v.value() ? 1 : 0);
            }
            case AnnotationValue.Unsigned v -> {
                annotation.tag(ANNOTATION_UINT, VARINT);
                annotation.varint(v.value());
            }
            case AnnotationValue.Signed v -> {
                annotation.tag(ANNOTATION_INT, VARINT);
                annotation.varint(v.value());
            }
            case AnnotationValue.Real v -> {
                annotation.tag(ANNOTATION_DOUBLE, FIXED64);
                annotation.fixed64(Double.doubleToRawLongBits(v.value()));
            }
            case AnnotationValue.Text v -> {
                byte[] utf8 = (v.value() == null ? "" : v.value()).getBytes(StandardCharsets.UTF_8);
                annotation.tag(ANNOTATION_STRING, LENGTH_DELIMITED);
                annotation.varint(utf8.length);
                annotation.raw(utf8, 0, utf8.length);
            }
            case AnnotationValue.Pointer v -> {
                annotation.tag(ANNOTATION_POINTER, VARINT);
                annotation.varint(v.address());
            }
        }
        event.tag(EVENT_DEBUG_ANNOTATIONS, LENGTH_DELIMITED);
        event.varint(annotation.length);
        event.raw(annotation.data, 0, annotation.length);
    }

    /** An unsigned annotation (a region's begin_ns or end_ns), without boxing its value. */
    void unsignedAnnotation(long nameIid, long value) {
        int length = 1 + Bytes.varintSize(nameIid) + 1 + Bytes.varintSize(value);
        event.tag(EVENT_DEBUG_ANNOTATIONS, LENGTH_DELIMITED);
        event.varint(length);
        event.tag(ANNOTATION_NAME_IID, VARINT);
        event.varint(nameIid);
        event.tag(ANNOTATION_UINT, VARINT);
        event.varint(value);
    }

    void type(int type) {
        event.tag(EVENT_TYPE, VARINT);
        event.varint(type);
    }

    void nameIid(long iid) {
        event.tag(EVENT_NAME_IID, VARINT);
        event.varint(iid);
    }

    /**
     * Writes the TracePacket holding the event as one {@code Trace.packet} record.
     *
     * @param clockId  0 for the sequence's default clock, else the clock of an absolute timestamp
     * @param interned the serialised InternedData of names first used by this packet, or null
     */
    void writePacket(CodedOutputStream out, long timestamp, int clockId, int sequenceId, byte[] interned)
            throws IOException {
        // framed here and handed over in one write: a slice is two packets per region, and the
        // stream's per-field calls cost more than the encoding itself
        int size = 1
                + Bytes.varintSize(timestamp)
                + 1
                + Bytes.varintSize(sequenceId)
                + 1
                + Bytes.varintSize(event.length)
                + event.length;
        if (interned != null) {
            size += 1 + Bytes.varintSize(interned.length) + interned.length;
        }
        if (clockId != 0) {
            size += 2 + Bytes.varintSize(clockId);
        }
        Bytes p = packet;
        p.length = 0;
        p.tag(1, LENGTH_DELIMITED);
        p.varint(size);
        p.tag(PACKET_TIMESTAMP, VARINT);
        p.varint(timestamp);
        p.tag(PACKET_SEQUENCE_ID, VARINT);
        p.varint(sequenceId);
        p.tag(PACKET_TRACK_EVENT, LENGTH_DELIMITED);
        p.varint(event.length);
        p.raw(event.data, 0, event.length);
        if (interned != null) {
            p.tag(PACKET_INTERNED_DATA, LENGTH_DELIMITED);
            p.varint(interned.length);
            p.raw(interned, 0, interned.length);
        }
        if (clockId != 0) {
            p.tag(PACKET_TIMESTAMP_CLOCK_ID, VARINT);
            p.varint(clockId);
        }
        out.writeRawBytes(p.data, 0, p.length);
    }

    private static final class Bytes {
        byte[] data = new byte[256];
        int length;

        /** Bytes of {@code v} as a varint (a negative int or long takes ten, as protobuf's uint64). */
        static int varintSize(long v) {
            return v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 6) / 7;
        }

        void tag(int field, int wireType) {
            varint(((long) field << 3) | wireType);
        }

        void varint(long v) {
            ensure(10);
            while ((v & ~0x7FL) != 0) {
                data[length++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            data[length++] = (byte) v;
        }

        void fixed64(long v) {
            ensure(8);
            for (int i = 0; i < 8; i++) {
                data[length++] = (byte) (v >>> (8 * i));
            }
        }

        void raw(byte[] bytes, int offset, int count) {
            ensure(count);
            System.arraycopy(bytes, offset, data, length, count);
            length += count;
        }

        private void ensure(int more) {
            if (length + more > data.length) {
                data = java.util.Arrays.copyOf(data, Math.max(data.length * 2, length + more));
            }
        }
    }
}
