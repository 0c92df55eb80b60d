package org.rocprofsys.tracetest;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.DebugAnnotation;
import org.rocprofsys.core.perfetto.proto.DebugAnnotationName;
import org.rocprofsys.core.perfetto.proto.EventCategory;
import org.rocprofsys.core.perfetto.proto.EventName;
import org.rocprofsys.core.perfetto.proto.InternedData;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TracePacketDefaults;
import org.rocprofsys.core.perfetto.proto.TrackDescriptor;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * Reads a trace the way trace_processor imports it (the parts we write): per-sequence incremental
 * state (defaults, interned data, the sequence-scoped incremental clock), builtin clock snapshots,
 * track descriptors, and slices built from BEGIN/END pairs per track with BEGIN and END arguments
 * merged. Timestamps are resolved to CLOCK_MONOTONIC ns. Anything trace_processor would reject or
 * mis-import (an unknown iid, an END with no open slice, an unresolvable clock) throws.
 */
public final class DecodedTrace {
    public static final int MONOTONIC = 3;
    public static final int REALTIME = 1;
    public static final int BOOTTIME = 6;

    public record Track(long uuid, long parentUuid, int sequenceId, TrackDescriptor descriptor) {
        public boolean isProcess() {
            return descriptor.hasProcess();
        }

        public boolean isThread() {
            return descriptor.hasThread();
        }
    }

    /** A slice or (endNs == beginNs, instant == true) an instant. */
    public static final class Slice {
        public final long trackUuid;
        public final String name;
        public final String category;
        public final int depth;
        public final long beginNs;
        public long endNs = -1;
        public final boolean instant;
        public final Map<String, Object> args = new LinkedHashMap<>();
        public final List<Long> flowIds = new ArrayList<>();
        public final List<Long> terminatingFlowIds = new ArrayList<>();

        Slice(long trackUuid, String name, String category, int depth, long beginNs, boolean instant) {
            this.trackUuid = trackUuid;
            this.name = name;
            this.category = category;
            this.depth = depth;
            this.beginNs = beginNs;
            this.instant = instant;
            if (instant) {
                endNs = beginNs;
            }
        }

        @Override
        public String toString() {
            return name + "[" + category + ", depth " + depth + ", " + beginNs + ".." + endNs + ", " + args + "]";
        }
    }

    /** Incremental state of one packet sequence. */
    private static final class Sequence {
        TracePacketDefaults defaults;
        final Map<Long, String> names = new HashMap<>();
        final Map<Long, String> categories = new HashMap<>();
        final Map<Long, String> annotationNames = new HashMap<>();
        boolean cleared;
        // the sequence-scoped clock
        int clockId = -1;
        long unitNs = 1;
        boolean incremental;
        long lastNs;
        long clockNsAtSnapshot;
        long monotonicAtSnapshot;
    }

    public final List<TracePacket> packets = new ArrayList<>();
    public final Map<Long, Track> tracks = new LinkedHashMap<>();
    public final List<Slice> slices = new ArrayList<>();
    public final Map<Integer, Long> globalClocks = new HashMap<>();
    public int trackEvents;
    public int stateClears;
    public int sliceBegins;
    public int sliceEnds;
    /** Sums of the resolved BEGIN and END timestamps, to check huge traces without keeping them. */
    public long beginTimestampSum;

    public long endTimestampSum;
    private final boolean retain;
    private final Map<Integer, Sequence> sequences = new HashMap<>();
    private final Map<Long, Deque<Slice>> open = new HashMap<>();

    private DecodedTrace(boolean retain) {
        this.retain = retain;
    }

    /** The values of each counter track, by the track's name, in packet order (needs retained packets). */
    public Map<String, List<Double>> counters() {
        Map<Long, String> names = new HashMap<>();
        Map<String, List<Double>> values = new LinkedHashMap<>();
        for (TracePacket p : packets) {
            if (p.hasTrackDescriptor() && p.getTrackDescriptor().hasCounter()) {
                names.put(
                        p.getTrackDescriptor().getUuid(), p.getTrackDescriptor().getName());
            }
            if (p.hasTrackEvent() && p.getTrackEvent().getType() == TrackEvent.Type.TYPE_COUNTER) {
                TrackEvent ev = p.getTrackEvent();
                values.computeIfAbsent(names.get(ev.getTrackUuid()), k -> new ArrayList<>())
                        .add(ev.hasDoubleCounterValue() ? ev.getDoubleCounterValue() : ev.getCounterValue());
            }
        }
        return values;
    }

    /** Decodes the whole trace, keeping every packet and slice. */
    public static DecodedTrace read(Path file) throws IOException {
        return read(file, true);
    }

    /** Decodes the trace; with {@code retain} false only counts and checks (for huge traces). */
    public static DecodedTrace read(Path file, boolean retain) throws IOException {
        DecodedTrace t = new DecodedTrace(retain);
        try (InputStream in = Files.newInputStream(file)) {
            CodedInputStream cin = CodedInputStream.newInstance(in, 1 << 16);
            cin.setSizeLimit(Integer.MAX_VALUE);
            while (!cin.isAtEnd()) {
                int tag = cin.readTag();
                if (tag != ((1 << 3) | 2)) {
                    throw new IOException("not a Trace.packet record: tag " + tag);
                }
                t.packet(TracePacket.parseFrom(cin.readBytes()));
                cin.resetSizeCounter();
            }
        }
        return t;
    }

    public List<Slice> slicesOn(long trackUuid) {
        return slices.stream().filter(s -> s.trackUuid == trackUuid).toList();
    }

    public Slice slice(String name) {
        List<Slice> found = slices.stream().filter(s -> s.name.equals(name)).toList();
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " slices named " + name + ": " + slices);
        }
        return found.getFirst();
    }

    public Track threadTrack(int tid) {
        List<Track> found = tracks.values().stream()
                .filter(t -> t.isThread() && t.descriptor.getThread().getTid() == tid)
                .toList();
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " thread tracks for tid " + tid);
        }
        return found.getFirst();
    }

    public List<Track> processTracks() {
        return tracks.values().stream().filter(Track::isProcess).toList();
    }

    /** SLICE_BEGIN events read (counted whether or not the slices are retained). */
    public int sliceBegins() {
        return sliceBegins;
    }

    /** Packets that cleared their sequence's incremental state (counted whether or not packets are retained). */
    public int stateClears() {
        return stateClears;
    }

    /** SLICE_END events read. */
    public int sliceEnds() {
        return sliceEnds;
    }

    public int openSlices() {
        return open.values().stream().mapToInt(Deque::size).sum();
    }

    private void packet(TracePacket p) {
        if (retain) {
            packets.add(p);
        }
        int seqId = p.getTrustedPacketSequenceId();
        if (seqId == 0) {
            throw new IllegalStateException("packet without trusted_packet_sequence_id: " + p);
        }
        Sequence seq = sequences.computeIfAbsent(seqId, k -> new Sequence());
        if ((p.getSequenceFlags() & TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE) != 0) {
            stateClears++;
            Sequence fresh = new Sequence();
            fresh.cleared = true;
            sequences.put(seqId, fresh);
            seq = fresh;
        }
        if (p.hasTracePacketDefaults()) {
            seq.defaults = p.getTracePacketDefaults();
        }
        if (p.hasInternedData()) {
            if (!seq.cleared) {
                throw new IllegalStateException("interned data before incremental state was cleared: " + seqId);
            }
            InternedData d = p.getInternedData();
            for (EventName n : d.getEventNamesList()) {
                seq.names.put(n.getIid(), n.getName());
            }
            for (EventCategory c : d.getEventCategoriesList()) {
                seq.categories.put(c.getIid(), c.getName());
            }
            for (DebugAnnotationName n : d.getDebugAnnotationNamesList()) {
                seq.annotationNames.put(n.getIid(), n.getName());
            }
        }
        if (p.hasClockSnapshot()) {
            clockSnapshot(seq, p.getClockSnapshot());
            return; // trace_processor does not look at the rest of a clock snapshot packet
        }
        long ts = p.hasTimestamp() ? resolve(seq, p) : Long.MIN_VALUE;
        if (p.hasTrackDescriptor()) {
            TrackDescriptor d = p.getTrackDescriptor();
            if (tracks.put(d.getUuid(), new Track(d.getUuid(), d.getParentUuid(), seqId, d)) != null) {
                throw new IllegalStateException("duplicate track uuid " + d.getUuid());
            }
        }
        if (p.hasTrackEvent()) {
            trackEvent(seq, ts, p.getTrackEvent());
        }
    }

    /**
     * A snapshot with a sequence-scoped clock defines that clock against MONOTONIC; one of builtin
     * clocks only defines the offsets between them (trace_processor keeps both as separate
     * snapshot families, and a one-snapshot family is a constant offset).
     */
    private void clockSnapshot(Sequence seq, ClockSnapshot snapshot) {
        Long monotonic = null;
        boolean sequenceScoped = false;
        for (ClockSnapshot.Clock c : snapshot.getClocksList()) {
            if (c.getClockId() == MONOTONIC) {
                monotonic = c.getTimestamp();
            }
            sequenceScoped |= c.getClockId() >= 64;
        }
        for (ClockSnapshot.Clock c : snapshot.getClocksList()) {
            int id = c.getClockId();
            if (id >= 64 && id < 128) {
                if (monotonic == null) {
                    throw new IllegalStateException("sequence clock not tied to MONOTONIC");
                }
                seq.clockId = id;
                seq.unitNs = c.hasUnitMultiplierNs() ? c.getUnitMultiplierNs() : 1;
                seq.incremental = c.getIsIncremental();
                seq.lastNs = c.getTimestamp() * seq.unitNs;
                seq.clockNsAtSnapshot = seq.lastNs;
                seq.monotonicAtSnapshot = monotonic;
            } else if (id < 64) {
                if (sequenceScoped) {
                    continue;
                }
                if (c.getIsIncremental()) {
                    throw new IllegalStateException("global clock cannot be incremental");
                }
                globalClocks.put(id, c.getTimestamp());
            } else {
                throw new IllegalStateException("unexpected clock id " + id);
            }
        }
    }

    /** The packet's timestamp as CLOCK_MONOTONIC ns. */
    private long resolve(Sequence seq, TracePacket p) {
        int clock = p.getTimestampClockId();
        if (clock == 0 && seq.defaults != null) {
            clock = seq.defaults.getTimestampClockId();
        }
        if (clock == 0) {
            clock = BOOTTIME;
        }
        long ts = p.getTimestamp();
        if (clock == seq.clockId) {
            long ns = seq.incremental ? (seq.lastNs += ts * seq.unitNs) : ts * seq.unitNs;
            return seq.monotonicAtSnapshot + (ns - seq.clockNsAtSnapshot);
        }
        if (clock >= 64) {
            throw new IllegalStateException("clock " + clock + " not defined on this sequence");
        }
        Long at = globalClocks.get(clock);
        Long mono = globalClocks.get(MONOTONIC);
        if (at == null || mono == null) {
            throw new IllegalStateException("no snapshot for clock " + clock);
        }
        return ts - at + mono;
    }

    private void trackEvent(Sequence seq, long ts, TrackEvent ev) {
        trackEvents++;
        long track = ev.hasTrackUuid()
                ? ev.getTrackUuid()
                : seq.defaults != null && seq.defaults.hasTrackEventDefaults()
                        ? seq.defaults.getTrackEventDefaults().getTrackUuid()
                        : 0;
        Deque<Slice> stack = open.computeIfAbsent(track, k -> new ArrayDeque<>());
        switch (ev.getType()) {
            case TYPE_SLICE_BEGIN, TYPE_INSTANT -> {
                boolean instant = ev.getType() == TrackEvent.Type.TYPE_INSTANT;
                Slice s = new Slice(track, name(seq, ev), category(seq, ev), stack.size(), ts, instant);
                args(seq, ev, s);
                if (instant) {
                    if (retain) {
                        slices.add(s);
                    }
                } else {
                    sliceBegins++;
                    beginTimestampSum += ts;
                    stack.push(s);
                    if (retain) {
                        slices.add(s);
                    }
                }
            }
            case TYPE_SLICE_END -> {
                sliceEnds++;
                endTimestampSum += ts;
                if (stack.isEmpty()) {
                    throw new IllegalStateException("SLICE_END with no open slice on track " + track);
                }
                Slice s = stack.pop();
                if (ts < s.beginNs) {
                    throw new IllegalStateException("slice ends before it begins: " + s + " at " + ts);
                }
                s.endNs = ts;
                args(seq, ev, s);
            }
            case TYPE_COUNTER -> {
                // a value of a counter track: tests read it from the packets
            }
            default -> throw new IllegalStateException("unexpected event type " + ev.getType());
        }
    }

    private static String name(Sequence seq, TrackEvent ev) {
        if (ev.hasNameIid()) {
            return lookup(seq.names, ev.getNameIid(), "event name");
        }
        return ev.hasName() ? ev.getName() : null;
    }

    private static String category(Sequence seq, TrackEvent ev) {
        List<String> cats = new ArrayList<>();
        for (long iid : ev.getCategoryIidsList()) {
            cats.add(lookup(seq.categories, iid, "category"));
        }
        cats.addAll(ev.getCategoriesList());
        return cats.isEmpty() ? null : String.join(",", cats);
    }

    private static void args(Sequence seq, TrackEvent ev, Slice s) {
        for (DebugAnnotation a : ev.getDebugAnnotationsList()) {
            String name = a.hasNameIid() ? lookup(seq.annotationNames, a.getNameIid(), "annotation name") : a.getName();
            Object value = switch (a.getValueCase()) {
                case BOOL_VALUE -> a.getBoolValue();
                case UINT_VALUE -> a.getUintValue();
                case INT_VALUE -> a.getIntValue();
                case DOUBLE_VALUE -> a.getDoubleValue();
                case STRING_VALUE -> a.getStringValue();
                case POINTER_VALUE -> "ptr:" + Long.toHexString(a.getPointerValue());
                case VALUE_NOT_SET -> throw new IllegalStateException("annotation without value " + name);
            };
            if (s.args.put(name, value) != null) {
                throw new IllegalStateException("duplicate annotation " + name + " on " + s);
            }
        }
        s.flowIds.addAll(ev.getFlowIdsList());
        s.terminatingFlowIds.addAll(ev.getTerminatingFlowIdsList());
    }

    private static String lookup(Map<Long, String> table, long iid, String what) {
        String v = table.get(iid);
        if (v == null) {
            throw new IllegalStateException("unknown " + what + " iid " + iid);
        }
        return v;
    }
}
