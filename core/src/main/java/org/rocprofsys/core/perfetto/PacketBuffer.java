package org.rocprofsys.core.perfetto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.rocprofsys.core.perfetto.proto.TracePacket;

/**
 * The trace's bytes on their way to its stream: whole packets, each framed as a {@code Trace.packet}
 * record, gathered in one array and handed on when it is full, so the stream only ever sees whole
 * packets. Slice packets, nearly all of a trace, are built in place in the array by
 * {@link SliceEncoder} (copying each into a stream's buffer was a sixth of the trace writer's
 * time); other packets are serialised into it by protobuf.
 */
final class PacketBuffer {
    static final int CAPACITY = 1 << 16;

    // field 1 of Trace, length-delimited
    private static final int PACKET_FIELD = 1;

    private final OutputStream out;
    /** Told of every state packet written (a ring_buffer budget's), or null. */
    private TraceBudget.PacketKinds kinds;
    /** Bytes handed to the stream so far: where the packets gathered now start in it. */
    private long handedOn;

    /** The packets not yet handed on, from 0 to {@link #position}; a packet in progress may follow. */
    byte[] bytes = new byte[CAPACITY];

    int position;

    PacketBuffer(OutputStream out) {
        this.out = out;
    }

    /** Gathers packets in {@code bytes} (an encoder's reused array) before handing them to {@code out}. */
    PacketBuffer(OutputStream out, byte[] bytes) {
        this.out = out;
        this.bytes = bytes;
    }

    /**
     * Makes room for {@code n} bytes at {@link #position}: the packets gathered so far go to the
     * stream first when they do not leave that much, and a packet larger than the array grows it.
     */
    void reserve(int n) throws IOException {
        if (position + n <= bytes.length) {
            return;
        }
        handOn();
        if (n > bytes.length) {
            bytes = new byte[Math.max(n, 2 * bytes.length)];
        }
    }

    /** Grows the array, keeping its bytes: for a packet in progress that needs more than it reserved. */
    void grow(int needed) {
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(needed, 2 * bytes.length));
        }
    }

    /**
     * Tells {@code kinds} where each state packet written from now on starts; called before the
     * first packet, so offsets count from the stream's first byte.
     */
    void tell(TraceBudget.PacketKinds kinds) {
        if (handedOn != 0 || position != 0) {
            throw new IllegalStateException("packets were written before the budget was told");
        }
        kinds.attach();
        this.kinds = kinds;
    }

    /**
     * Frames and serialises a packet built with protobuf's builders (its kind told to a
     * ring_buffer budget: a state packet by the fields it has; slice packets are events).
     */
    void write(TracePacket packet) throws IOException {
        int size = CodedOutputStream.computeMessageSize(PACKET_FIELD, packet);
        reserve(size);
        if (kinds != null
                && (packet.hasSequenceFlags()
                        || packet.hasClockSnapshot()
                        || packet.hasTracePacketDefaults()
                        || packet.hasTrackDescriptor())) {
            kinds.state(
                    handedOn + position,
                    (packet.getSequenceFlags() & TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE) != 0);
        }
        CodedOutputStream c = CodedOutputStream.newInstance(bytes, position, size);
        c.writeMessage(PACKET_FIELD, packet);
        c.checkNoSpaceLeft();
        position += size;
    }

    /** Hands every packet gathered so far to the stream. */
    void handOn() throws IOException {
        if (position > 0) {
            out.write(bytes, 0, position);
            handedOn += position;
            position = 0;
        }
    }
}
