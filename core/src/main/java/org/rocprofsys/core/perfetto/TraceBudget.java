package org.rocprofsys.core.perfetto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.DebugAnnotation;
import org.rocprofsys.core.perfetto.proto.InternedData;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * Perfetto's trace buffer for a trace that is streamed to a file: at most
 * ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB of packets reach the file, chosen by
 * ROCPROFSYS_PERFETTO_FILL_POLICY as upstream's in-process buffer chooses them (inventory §4.3):
 * {@code discard} keeps the first packets and drops every packet from the first that does not fit
 * on; any other policy ({@code ring_buffer}) keeps the newest, overwriting the oldest.
 *
 * <p>It is the stream the sink's packets are written to, and finds the packets in the bytes by
 * their framing (field 1 of {@code Trace}, length-delimited). With {@code discard} packets go to the
 * file as they come. With {@code ring_buffer} they are held (at most the budget, in {@link
 * PacketRing}) and written on {@link #close}. So that the newest packets stay readable, the
 * packets that hold a sequence's state (clock snapshot, defaults, track descriptors, state clears)
 * are never overwritten, and a sequence that lost packets starts again with its clock moved to
 * where its first kept packet's delta starts and with the names interned in the lost packets: the
 * file may exceed the budget by those. A slice whose begin was overwritten shows only its end, as
 * in a Perfetto ring buffer.
 *
 * <p>Which packets hold state the writer tells ({@link #kinds()}: the trace sink does, for every
 * packet it builds with protobuf, from the message it has in hand), so the ring does not parse the
 * packets it keeps; it reads a packet's fields only when it drops it (the clock, names and open
 * slice a restarted sequence needs) or when no writer told it anything (a stream of bytes alone).
 */
public final class TraceBudget extends OutputStream {
    /** What happens when the budget is reached. */
    public enum FillPolicy {
        DISCARD,
        RING_BUFFER;

        /** Upstream: {@code discard} is DISCARD, anything else RING_BUFFER. */
        public static FillPolicy of(String value) {
            return value.trim().equalsIgnoreCase("discard") ? DISCARD : RING_BUFFER;
        }

        public String settingValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the budget dropped.
     *
     * @param packets packets that did not reach the file
     * @param bytes   their framed size
     */
    public record Dropped(long packets, long bytes) {}

    /**
     * What the writer tells the ring_buffer budget about its packets: where each state packet
     * (clock snapshot, defaults, track descriptor, sequence flags) starts in the stream, and
     * whether it clears its sequence's state; every other packet is an event. Told from the
     * writer's thread before the bytes are written, read on the budget's.
     */
    static final class PacketKinds {
        /** Each state packet's offset in the stream, shifted left by one, plus 1 when it clears its state. */
        private final ConcurrentLinkedQueue<Long> states = new ConcurrentLinkedQueue<>();

        private volatile boolean told;

        /** A writer will tell every state packet from the stream's first byte on. */
        void attach() {
            told = true;
        }

        /** The packet that starts at byte {@code offset} of the stream holds state. */
        void state(long offset, boolean clearsState) {
            states.add((offset << 1) | (clearsState ? 1 : 0));
        }

        /**
         * The packet at {@code offset}: -1 for an event, else 1 when it is a state packet that
         * clears its sequence's state, 0 for another state packet.
         */
        int at(long offset) {
            Long next = states.peek();
            if (next == null || (next >>> 1) != offset) {
                return -1;
            }
            states.poll();
            return (int) (next & 1);
        }
    }

    // field 1 of Trace, length-delimited (wire type 2)
    private static final int PACKET_TAG = (1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED;
    private static final int FIELD_TIMESTAMP = 8;
    private static final int FIELD_SEQUENCE_ID = 10;
    private static final int FIELD_INTERNED_DATA = 12;
    private static final int FIELD_SEQUENCE_FLAGS = 13;
    private static final int FIELD_CLOCK_SNAPSHOT = 6;
    private static final int FIELD_CLOCK_ID = 58;
    private static final int FIELD_DEFAULTS = 59;
    private static final int FIELD_TRACK_DESCRIPTOR = 60;
    private static final int FIELD_TRACK_EVENT = 11;
    private static final int EVENT_TYPE = 9;
    private static final int EVENT_TRACK_UUID = 11;
    private static final int TYPE_SLICE_BEGIN = 1;
    private static final int TYPE_SLICE_END = 2;
    private static final int INCREMENTAL_STATE_CLEARED = 1;

    private final OutputStream file;
    private final long limitBytes;
    private final FillPolicy policy;

    // the packet being framed: tag, length varint, body
    private byte[] packet = new byte[256];
    private int filled;
    private int headerLength;
    private long bodyLength = -1;
    private int lengthShift;
    private long partialLength;

    private long written;
    private boolean full;
    private long droppedPackets;
    private long droppedBytes;
    private boolean closed;

    // ring_buffer only
    private final PacketRing ring = new PacketRing();
    private final List<byte[]> pinned = new ArrayList<>();
    private long pinnedBytes;
    private final Map<Integer, SequenceState> sequences = new HashMap<>();
    private byte[] scratch = new byte[256];
    /** The length of the packet {@link #loadPacket} left in {@link #scratch}. */
    private int scratchLength;
    /** What the writer tells of its packets (ring_buffer only; null with discard). */
    private final PacketKinds kinds;
    /** Where the next packet starts in the stream (ring_buffer only). */
    private long streamOffset;

    /**
     * @param file where the kept packets go; it should buffer (the trace's is a {@code
     *             BackgroundOutputStream}): this writes packet by packet when the budget is near
     *             and in ring_buffer mode
     */
    public TraceBudget(OutputStream file, long limitBytes, FillPolicy policy) {
        this.file = file;
        this.limitBytes = limitBytes;
        this.policy = policy;
        this.kinds = policy == FillPolicy.RING_BUFFER ? new PacketKinds() : null;
    }

    /** Where a writer tells the kinds of its packets; null where the policy needs none (discard). */
    PacketKinds kinds() {
        return kinds;
    }

    /** The budget the settings give (ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB, _FILL_POLICY). */
    public static TraceBudget of(Settings settings, OutputStream file) {
        return new TraceBudget(file, limitKb(settings) * 1024, policy(settings));
    }

    public static long limitKb(Settings settings) {
        return settings.integer("ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB");
    }

    public static FillPolicy policy(Settings settings) {
        return FillPolicy.of(settings.get("ROCPROFSYS_PERFETTO_FILL_POLICY"));
    }

    public FillPolicy policy() {
        return policy;
    }

    public long limitBytes() {
        return limitBytes;
    }

    /** What did not reach the file; final after {@link #close}. */
    public Dropped dropped() {
        return new Dropped(droppedPackets, droppedBytes);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        int i = offset;
        int end = offset + length;
        if (policy == FillPolicy.DISCARD && !full) {
            // the sink hands over 64 KiB of whole packets at a time: while they fit, they go to the
            // file as they are, framed but not copied packet by packet
            if (filled != 0) {
                i = frame(bytes, i, end, true); // the rest of a packet begun in an earlier write
            }
            if (filled == 0 && !full && i < end) {
                int whole = wholePackets(bytes, i, end);
                if (whole > i && written + (whole - i) <= limitBytes) {
                    file.write(bytes, i, whole - i);
                    written += whole - i;
                    i = whole;
                }
            }
        }
        frame(bytes, i, end, false);
    }

    /**
     * The end of the last whole packet in {@code bytes[from, end)}, which starts with a packet: what
     * lies after it (a packet cut by the end of this write) is left to {@link #frame}.
     */
    private static int wholePackets(byte[] bytes, int from, int end) throws IOException {
        int i = from;
        while (i < end) {
            if ((bytes[i] & 0xff) != PACKET_TAG) {
                throw new IOException("not a trace packet: byte 0x" + Integer.toHexString(bytes[i] & 0xff));
            }
            int p = i + 1;
            long length = 0;
            int shift = 0;
            int b;
            do {
                if (p >= end) {
                    return i;
                }
                b = bytes[p++] & 0xff;
                length |= (long) (b & 0x7f) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            if (length > end - p) {
                return i;
            }
            i = p + (int) length;
        }
        return i;
    }

    /**
     * Frames packets byte by byte into {@link #packet}, each then kept or dropped whole; returns
     * where it stopped: {@code end}, or with {@code oneOnly} the end of the packet in progress.
     */
    private int frame(byte[] bytes, int i, int end, boolean oneOnly) throws IOException {
        while (i < end) {
            if (bodyLength < 0) { // header: the tag, then the length varint
                int b = bytes[i++] & 0xff;
                append(b);
                if (filled == 1) {
                    if (b != PACKET_TAG) {
                        throw new IOException("not a trace packet: byte 0x" + Integer.toHexString(b));
                    }
                    lengthShift = 0;
                    partialLength = 0;
                    continue;
                }
                long length7 = (long) (b & 0x7f) << lengthShift;
                lengthShift += 7;
                partialLength |= length7;
                if ((b & 0x80) == 0) {
                    bodyLength = partialLength;
                    headerLength = filled;
                    ensure(headerLength + (int) bodyLength);
                    if (bodyLength == 0) {
                        complete();
                        if (oneOnly) {
                            return i;
                        }
                    }
                }
            } else {
                int n = (int) Math.min(end - i, headerLength + bodyLength - filled);
                System.arraycopy(bytes, i, packet, filled, n);
                filled += n;
                i += n;
                if (filled == headerLength + bodyLength) {
                    complete();
                    if (oneOnly) {
                        return i;
                    }
                }
            }
        }
        return i;
    }

    private void append(int b) {
        ensure(filled + 1);
        packet[filled++] = (byte) b;
    }

    private void ensure(int capacity) {
        if (packet.length < capacity) {
            packet = java.util.Arrays.copyOf(packet, Math.max(capacity, packet.length * 2));
        }
    }

    private void complete() throws IOException {
        int size = filled;
        filled = 0;
        bodyLength = -1;
        if (policy == FillPolicy.DISCARD) {
            if (!full && written + size <= limitBytes) {
                file.write(packet, 0, size);
                written += size;
            } else {
                full = true;
                droppedPackets++;
                droppedBytes += size;
            }
            return;
        }
        keepNewest(size);
    }

    // ---- ring_buffer ---------------------------------------------------------------------------

    /** The state of one packet sequence that the ring needs to restart it after losing packets. */
    private static final class SequenceState {
        /** Index in {@link #pinned} of the packet that cleared the sequence's state, or -1. */
        int startIndex = -1;

        boolean incremental;
        long clockUnits;
        boolean lostPackets;
        final ByteArrayOutputStream lostInterned = new ByteArrayOutputStream();
        /** Per track: the TrackEvents of lost slice begins whose ends are kept (or never came), outermost first. */
        final Map<Long, ArrayDeque<byte[]>> lostOpen = new LinkedHashMap<>();
        /** The iids the kept packets use, so that only those of the lost names are written again. */
        final Set<Long> usedNames = new HashSet<>();

        final Set<Long> usedCategories = new HashSet<>();
        final Set<Long> usedAnnotationNames = new HashSet<>();

        void use(TrackEvent event) {
            if (event.hasNameIid()) {
                usedNames.add(event.getNameIid());
            }
            usedCategories.addAll(event.getCategoryIidsList());
            for (DebugAnnotation a : event.getDebugAnnotationsList()) {
                if (a.hasNameIid()) {
                    usedAnnotationNames.add(a.getNameIid());
                }
            }
        }

        /** The lost names that the kept packets use. */
        InternedData usedLostInterned() throws IOException {
            InternedData lost = InternedData.parseFrom(lostInterned.toByteArray());
            InternedData.Builder used = InternedData.newBuilder();
            lost.getEventNamesList().stream()
                    .filter(e -> usedNames.contains(e.getIid()))
                    .forEach(used::addEventNames);
            lost.getEventCategoriesList().stream()
                    .filter(e -> usedCategories.contains(e.getIid()))
                    .forEach(used::addEventCategories);
            lost.getDebugAnnotationNamesList().stream()
                    .filter(e -> usedAnnotationNames.contains(e.getIid()))
                    .forEach(used::addDebugAnnotationNames);
            return used.build();
        }
    }

    private void keepNewest(int size) throws IOException {
        long offset = streamOffset;
        streamOffset += size;
        boolean holdsState;
        boolean clearsState;
        if (kinds.told) {
            int kind = kinds.at(offset);
            holdsState = kind >= 0;
            clearsState = kind == 1;
        } else { // bytes alone: their fields say
            PacketFields f = PacketFields.scan(packet, headerLength, size - headerLength);
            holdsState = f.holdsState;
            clearsState = f.clearsState;
        }
        if (holdsState) {
            byte[] copy = java.util.Arrays.copyOf(packet, size);
            pinned.add(copy);
            pinnedBytes += size;
            if (clearsState) {
                SequenceState s = new SequenceState();
                s.startIndex = pinned.size() - 1;
                TracePacket start =
                        TracePacket.parseFrom(CodedInputStream.newInstance(packet, headerLength, size - headerLength));
                if (start.hasTracePacketDefaults()
                        && start.getTracePacketDefaults().getTimestampClockId() == PerfettoSink.SEQUENCE_CLOCK_ID) {
                    s.incremental = true;
                    for (ClockSnapshot.Clock c : start.getClockSnapshot().getClocksList()) {
                        if (c.getClockId() == PerfettoSink.SEQUENCE_CLOCK_ID) {
                            s.clockUnits = c.getTimestamp();
                        }
                    }
                }
                sequences.put(start.getTrustedPacketSequenceId(), s);
            }
        } else {
            ring.append(packet, size);
        }
        while (ring.size() > 0 && ring.size() + pinnedBytes > limitBytes) {
            evictOldest();
        }
    }

    private void evictOldest() {
        long head = ring.head();
        long next = loadPacket(head);
        int length = scratchLength;
        ring.dropTo(next);
        droppedPackets++;
        droppedBytes += next - head;
        PacketFields f = PacketFields.scan(scratch, 0, length);
        SequenceState s = sequences.computeIfAbsent(f.sequenceId, k -> new SequenceState());
        s.lostPackets = true;
        if (s.incremental && f.hasTimestamp && !f.hasClockId) {
            s.clockUnits += f.timestamp;
        }
        if (f.internedLength > 0) {
            s.lostInterned.write(scratch, f.internedOffset, f.internedLength);
        }
        if (f.eventType == TYPE_SLICE_BEGIN) {
            s.lostOpen
                    .computeIfAbsent(f.trackUuid, k -> new ArrayDeque<>())
                    .addLast(java.util.Arrays.copyOfRange(scratch, f.eventOffset, f.eventOffset + f.eventLength));
        } else if (f.eventType == TYPE_SLICE_END) {
            ArrayDeque<byte[]> open = s.lostOpen.get(f.trackUuid);
            if (open != null) {
                open.pollLast();
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (OutputStream out = file) {
            if (filled != 0) {
                throw new IOException("the trace ends inside a packet");
            }
            if (policy == FillPolicy.RING_BUFFER) {
                writeKept();
            }
            out.flush();
        }
    }

    /** The state packets (restarted where their sequence lost packets), then the newest packets. */
    private void writeKept() throws IOException {
        Map<Integer, SequenceState> restarted = new HashMap<>();
        for (Map.Entry<Integer, SequenceState> e : sequences.entrySet()) {
            if (e.getValue().lostPackets && e.getValue().startIndex >= 0) {
                restarted.put(e.getValue().startIndex, e.getValue());
            }
        }
        if (!restarted.isEmpty()) {
            markUsedNames();
        }
        for (int i = 0; i < pinned.size(); i++) {
            SequenceState s = restarted.get(i);
            byte[] p = pinned.get(i);
            if (s == null) {
                file.write(p);
            } else {
                writeFramed(restart(p, s));
                reopen(sequenceIdOf(i), s);
            }
        }
        ring.writeTo(file);
    }

    private static byte[] restart(byte[] framed, SequenceState s) throws IOException {
        int header = 1;
        while ((framed[header] & 0x80) != 0) {
            header++;
        }
        header++;
        TracePacket.Builder start =
                TracePacket.parseFrom(CodedInputStream.newInstance(framed, header, framed.length - header)).toBuilder();
        if (s.incremental) {
            ClockSnapshot.Builder snapshot = start.getClockSnapshotBuilder();
            long unit = 1;
            for (ClockSnapshot.Clock c : snapshot.getClocksList()) {
                if (c.getClockId() == PerfettoSink.SEQUENCE_CLOCK_ID && c.hasUnitMultiplierNs()) {
                    unit = c.getUnitMultiplierNs();
                }
            }
            for (ClockSnapshot.Clock.Builder c : snapshot.getClocksBuilderList()) {
                if (c.getClockId() == PerfettoSink.SEQUENCE_CLOCK_ID) {
                    c.setTimestamp(s.clockUnits);
                } else if (c.getClockId() == ClockSnapshot.Clock.BuiltinClocks.MONOTONIC_VALUE) {
                    c.setTimestamp(s.clockUnits * unit);
                }
            }
        }
        if (s.lostInterned.size() > 0) {
            start.getInternedDataBuilder().mergeFrom(s.usedLostInterned());
        }
        return start.build().toByteArray();
    }

    /** Notes the iids that the kept packets and the reopened slices use, per sequence. */
    private void markUsedNames() throws IOException {
        for (SequenceState s : sequences.values()) {
            for (ArrayDeque<byte[]> open : s.lostOpen.values()) {
                for (byte[] event : open) {
                    s.use(TrackEvent.parseFrom(event));
                }
            }
        }
        long p = ring.head();
        long end = p + ring.size();
        while (p < end) {
            p = loadPacket(p);
            PacketFields f = PacketFields.scan(scratch, 0, scratchLength);
            SequenceState s = sequences.get(f.sequenceId);
            if (s != null && s.lostInterned.size() > 0 && f.eventLength > 0) {
                s.use(TrackEvent.parseFrom(CodedInputStream.newInstance(scratch, f.eventOffset, f.eventLength)));
            }
        }
    }

    /**
     * Copies the packet the ring holds at {@code at} (its field tag, varint length and bytes) into
     * {@link #scratch}, its length into {@link #scratchLength}; returns where the next packet starts.
     */
    private long loadPacket(long at) {
        int length = 0;
        int shift = 0;
        long p = at + 1;
        int b;
        do {
            b = ring.byteAt(p++);
            length |= (b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        ring.copy(p, scratch, length);
        scratchLength = length;
        return p + length;
    }

    /**
     * The slices that were open where the kept packets start begin again there (their begins were
     * lost), so every kept end has its begin: the same TrackEvent at delta 0 after the restart.
     */
    private void reopen(int sequenceId, SequenceState s) throws IOException {
        for (ArrayDeque<byte[]> open : s.lostOpen.values()) {
            for (byte[] event : open) {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                CodedOutputStream out = CodedOutputStream.newInstance(body);
                if (s.incremental) {
                    out.writeUInt64(FIELD_TIMESTAMP, 0);
                } else {
                    out.writeUInt64(FIELD_TIMESTAMP, s.clockUnits);
                }
                out.writeUInt32(FIELD_SEQUENCE_ID, sequenceId);
                out.writeByteArray(FIELD_TRACK_EVENT, event);
                out.flush();
                writeFramed(body.toByteArray());
            }
        }
    }

    private int sequenceIdOf(int pinnedIndex) {
        for (Map.Entry<Integer, SequenceState> e : sequences.entrySet()) {
            if (e.getValue().startIndex == pinnedIndex) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("no sequence starts at " + pinnedIndex);
    }

    private void writeFramed(byte[] body) throws IOException {
        byte[] header = new byte[6];
        CodedOutputStream h = CodedOutputStream.newInstance(header);
        h.writeUInt32NoTag(PACKET_TAG);
        h.writeUInt32NoTag(body.length);
        file.write(header, 0, 6 - h.spaceLeft());
        file.write(body);
    }

    /** The top-level fields of a packet body that the ring looks at. */
    private record PacketFields(
            int sequenceId,
            boolean hasTimestamp,
            long timestamp,
            boolean hasClockId,
            int internedOffset,
            int internedLength,
            boolean holdsState,
            boolean clearsState,
            int eventOffset,
            int eventLength,
            int eventType,
            long trackUuid) {
        static PacketFields scan(byte[] bytes, int offset, int length) {
            CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
            int sequenceId = 0;
            boolean hasTimestamp = false;
            long timestamp = 0;
            boolean hasClockId = false;
            int internedOffset = 0;
            int internedLength = 0;
            boolean holdsState = false;
            boolean clearsState = false;
            int eventOffset = 0;
            int eventLength = 0;
            int eventType = 0;
            long trackUuid = 0;
            try {
                while (true) {
                    int tag = in.readTag();
                    if (tag == 0) {
                        break;
                    }
                    switch (WireFormat.getTagFieldNumber(tag)) {
                        case FIELD_TIMESTAMP -> {
                            hasTimestamp = true;
                            timestamp = in.readUInt64();
                        }
                        case FIELD_SEQUENCE_ID -> sequenceId = in.readUInt32();
                        case FIELD_CLOCK_ID -> {
                            hasClockId = true;
                            in.readUInt32();
                        }
                        case FIELD_SEQUENCE_FLAGS -> {
                            clearsState |= (in.readUInt32() & INCREMENTAL_STATE_CLEARED) != 0;
                            holdsState = true;
                        }
                        case FIELD_INTERNED_DATA -> {
                            internedLength = in.readRawVarint32();
                            internedOffset = offset + in.getTotalBytesRead();
                            in.skipRawBytes(internedLength);
                        }
                        case FIELD_TRACK_EVENT -> {
                            eventLength = in.readRawVarint32();
                            eventOffset = offset + in.getTotalBytesRead();
                            CodedInputStream ev = CodedInputStream.newInstance(bytes, eventOffset, eventLength);
                            for (int t = ev.readTag(); t != 0; t = ev.readTag()) {
                                switch (WireFormat.getTagFieldNumber(t)) {
                                    case EVENT_TYPE -> eventType = ev.readEnum();
                                    case EVENT_TRACK_UUID -> trackUuid = ev.readUInt64();
                                    default -> ev.skipField(t);
                                }
                            }
                            in.skipRawBytes(eventLength);
                        }
                        case FIELD_CLOCK_SNAPSHOT, FIELD_DEFAULTS, FIELD_TRACK_DESCRIPTOR -> {
                            holdsState = true;
                            in.skipField(tag);
                        }
                        default -> in.skipField(tag);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("malformed trace packet", e);
            }
            return new PacketFields(
                    sequenceId,
                    hasTimestamp,
                    timestamp,
                    hasClockId,
                    internedOffset,
                    internedLength,
                    holdsState,
                    clearsState,
                    eventOffset,
                    eventLength,
                    eventType,
                    trackUuid);
        }
    }
}
