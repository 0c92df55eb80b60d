package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.perfetto.proto.DebugAnnotation;
import org.rocprofsys.core.perfetto.proto.EventName;
import org.rocprofsys.core.perfetto.proto.InternedData;
import org.rocprofsys.core.perfetto.proto.Trace;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * The hand-written slice packets are byte for byte what protobuf's generated classes write for
 * the same message, for values of every varint length (1 to 10 bytes, negative ones included):
 * the encoder stores wide varints eight bytes at a time and writes each packet's header in place.
 */
class SliceEncoderTest {

    /** 0, then 2^k - 1, 2^k and 2^k + 1 for every k, then random values of each bit length, then negatives. */
    private static List<Long> values() {
        List<Long> v = new ArrayList<>(List.of(0L, 1L, 127L, 128L, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -2L));
        for (int k = 1; k < 64; k++) {
            v.add((1L << k) - 1);
            v.add(1L << k);
            v.add((1L << k) + 1);
        }
        SplittableRandom r = new SplittableRandom(11);
        for (int bits = 1; bits <= 64; bits++) {
            for (int i = 0; i < 4; i++) {
                v.add(bits == 64 ? r.nextLong() : r.nextLong() >>> (64 - bits));
            }
        }
        return v;
    }

    /**
     * Every packet is protobuf's own serialisation, in one buffer that gathers them all (headers of
     * every length, so events are moved to fit them; packets built by protobuf in between; the
     * buffer handed on when full and grown for the largest).
     */
    @Test
    void packetsAreProtobufsOwnBytesForEveryVarintLength() throws IOException {
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        ByteArrayOutputStream theirs = new ByteArrayOutputStream();
        PacketBuffer buffer = new PacketBuffer(ours);
        SliceEncoder encoder = new SliceEncoder(buffer);
        List<Long> values = values();
        for (int i = 0; i < values.size(); i++) {
            long value = values.get(i);
            long other = values.get(values.size() - 1 - i);
            int sequence = 2 + (int) Math.floorMod(other, 100_000L);
            int clock = (i % 3 == 0) ? 6 : 0;
            InternedData interned = (i % 4 == 0)
                    ? InternedData.newBuilder()
                            .addEventNames(EventName.newBuilder().setIid(value).setName("n" + i))
                            .build()
                    : null;

            encoder.begin(value, clock, sequence); // events and packets of 128 bytes and more: the event moves
            encoder.categoryIid(other);
            encoder.unsignedAnnotation(i + 1, value);
            encoder.annotation(value, new AnnotationValue.Signed(other));
            encoder.annotation(i + 2, new AnnotationValue.Pointer(value));
            encoder.annotation(i + 3, new AnnotationValue.Text("t".repeat(i % 7 == 0 ? 70_000 : i % 200)));
            encoder.annotation(i + 4, new AnnotationValue.Real(value * 0.5));
            encoder.annotation(i + 5, new AnnotationValue.Bool(i % 2 == 0));
            encoder.type(TrackEvent.Type.TYPE_SLICE_BEGIN_VALUE);
            encoder.nameIid(value);
            encoder.writePacket(interned == null ? null : interned.toByteArray());

            TrackEvent.Builder event = TrackEvent.newBuilder()
                    .addCategoryIids(other)
                    .addDebugAnnotations(
                            DebugAnnotation.newBuilder().setNameIid(i + 1).setUintValue(value))
                    .addDebugAnnotations(
                            DebugAnnotation.newBuilder().setNameIid(value).setIntValue(other))
                    .addDebugAnnotations(
                            DebugAnnotation.newBuilder().setNameIid(i + 2).setPointerValue(value))
                    .addDebugAnnotations(DebugAnnotation.newBuilder()
                            .setNameIid(i + 3)
                            .setStringValue("t".repeat(i % 7 == 0 ? 70_000 : i % 200)))
                    .addDebugAnnotations(
                            DebugAnnotation.newBuilder().setNameIid(i + 4).setDoubleValue(value * 0.5))
                    .addDebugAnnotations(
                            DebugAnnotation.newBuilder().setNameIid(i + 5).setBoolValue(i % 2 == 0))
                    .setType(TrackEvent.Type.TYPE_SLICE_BEGIN)
                    .setNameIid(value);
            TracePacket.Builder packet = TracePacket.newBuilder()
                    .setTimestamp(value)
                    .setTrustedPacketSequenceId(sequence)
                    .setTrackEvent(event);
            if (interned != null) {
                packet.setInternedData(interned);
            }
            if (clock != 0) {
                packet.setTimestampClockId(clock);
            }
            theirs.write(Trace.newBuilder().addPacket(packet).build().toByteArray());
            if (i % 5 == 0) {
                TracePacket built = TracePacket.newBuilder()
                        .setTimestamp(value)
                        .setTrustedPacketSequenceId(1)
                        .build();
                buffer.write(built);
                theirs.write(Trace.newBuilder().addPacket(built).build().toByteArray());
            }
        }
        buffer.handOn();
        byte[] expected = theirs.toByteArray();
        byte[] actual = ours.toByteArray();
        int at = Arrays.mismatch(expected, actual);
        assertEquals(-1, at, "the bytes differ from offset " + at + " of " + expected.length);
        assertTrue(expected.length > 4 * PacketBuffer.CAPACITY, "the buffer was handed on and grown");
    }
}
