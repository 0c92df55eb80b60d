package org.rocprofsys.core.perfetto;

import java.util.HashMap;
import java.util.Map;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.DebugAnnotationName;
import org.rocprofsys.core.perfetto.proto.EventCategory;
import org.rocprofsys.core.perfetto.proto.EventName;
import org.rocprofsys.core.perfetto.proto.InternedData;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TracePacketDefaults;
import org.rocprofsys.core.perfetto.proto.TrackEventDefaults;

/**
 * One track of the trace (a thread's, or a GPU stream's): its packet sequence and the sequence's
 * incremental state (clock, interned names, open slices).
 */
final class ThreadTrack {
    final int pid;
    final int sequenceId;
    final long uuid;
    final long unit;
    /** The sequence's incremental clock, in units. */
    long lastUnits;
    /** Slices open on the track. */
    int depth;

    /**
     * A segment of this track's regions was handed to {@link SegmentEncoders}, whose packets clear
     * the sequence's incremental state: the next packet written here must start it again
     * ({@link #startPacket}, after {@link #clearInterned}).
     */
    boolean stale;

    private NameIids names = new NameIids();
    private Map<String, Long> categories = new HashMap<>();
    private Map<String, Long> annotationNames = new HashMap<>();
    /** Entries interned since the last packet, written with the next one. */
    InternedData.Builder newInterned;

    /** Begin times and readings of the open regions (only when region values are annotated). */
    private long[] openNs = new long[16];

    private RegionMetrics[] openReadings = new RegionMetrics[16];
    private int open;

    void openRegion(long ns, RegionMetrics m) {
        if (open == openNs.length) {
            openNs = java.util.Arrays.copyOf(openNs, open * 2);
            openReadings = java.util.Arrays.copyOf(openReadings, open * 2);
        }
        openNs[open] = ns;
        openReadings[open++] = m;
    }

    long openBeginNs() {
        return open == 0 ? 0 : openNs[open - 1];
    }

    /** The innermost open region's begin readings, now closed (null when none was open). */
    RegionMetrics closeRegion() {
        if (open == 0) {
            return null;
        }
        RegionMetrics m = openReadings[--open];
        openReadings[open] = null;
        return m;
    }

    ThreadTrack(int pid, int sequenceId, long uuid, long unit, long lastUnits) {
        this.pid = pid;
        this.sequenceId = sequenceId;
        this.uuid = uuid;
        this.unit = unit;
        this.lastUnits = lastUnits;
    }

    long lastNs() {
        return lastUnits * unit;
    }

    /**
     * The same sequence, clock and open-slice depth with nothing interned: where an encoder of a
     * segment of this track's regions starts ({@link #startPacket} first).
     */
    ThreadTrack continuation() {
        ThreadTrack t = new ThreadTrack(pid, sequenceId, uuid, unit, lastUnits);
        t.depth = depth;
        return t;
    }

    /** Forgets every interned name: the sequence's state is about to be cleared. */
    void clearInterned() {
        names = new NameIids();
        categories = new HashMap<>();
        annotationNames = new HashMap<>();
        newInterned = null;
        lastCategory = null;
        lastCategoryIid = 0;
        beginNsIid = 0;
        endNsIid = 0;
    }

    /**
     * The packet that (re)starts the sequence: clears its incremental state, sets its defaults
     * (events on this track, stamped on the sequence's incremental clock) and ties that clock,
     * now at {@link #lastUnits}, to MONOTONIC.
     */
    TracePacket startPacket() {
        return TracePacket.newBuilder()
                .setTrustedPacketSequenceId(sequenceId)
                .setSequenceFlags(TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED_VALUE)
                .setTracePacketDefaults(TracePacketDefaults.newBuilder()
                        .setTimestampClockId(PerfettoSink.SEQUENCE_CLOCK_ID)
                        .setTrackEventDefaults(TrackEventDefaults.newBuilder().setTrackUuid(uuid)))
                .setClockSnapshot(ClockSnapshot.newBuilder()
                        .addClocks(ClockSnapshot.Clock.newBuilder()
                                .setClockId(ClockSnapshot.Clock.BuiltinClocks.MONOTONIC_VALUE)
                                .setTimestamp(lastUnits * unit))
                        .addClocks(ClockSnapshot.Clock.newBuilder()
                                .setClockId(PerfettoSink.SEQUENCE_CLOCK_ID)
                                .setTimestamp(lastUnits)
                                .setIsIncremental(true)
                                .setUnitMultiplierNs(unit)))
                .build();
    }

    /**
     * Moves the sequence's incremental clock to {@code timestampNs} and returns the delta in
     * units, or -1 when the event is earlier than the sequence's last one: it is then written
     * with an absolute MONOTONIC timestamp (as Perfetto's SDK does) and the clock stays.
     */
    long advance(long timestampNs) {
        // a 64-bit division per event is measurable; the default unit is 1 ns
        long units = unit == 1 ? timestampNs : Math.floorDiv(timestampNs, unit);
        if (units < lastUnits) {
            return -1;
        }
        long delta = units - lastUnits;
        lastUnits = units;
        return delta;
    }

    /** The entries interned since the last packet (to go with the next one), or null. */
    InternedData.Builder takeInterned() {
        InternedData.Builder b = newInterned;
        newInterned = null;
        return b;
    }

    /** Adds a newly interned entry to the interned data of the next packet. */
    private interface Announce {
        void add(InternedData.Builder interned, long iid, String name);
    }

    // constants, so the per-event lookups allocate nothing
    private static final Announce EVENT_NAME =
            (d, iid, n) -> d.addEventNames(EventName.newBuilder().setIid(iid).setName(n));
    private static final Announce EVENT_CATEGORY = (d, iid, n) ->
            d.addEventCategories(EventCategory.newBuilder().setIid(iid).setName(n));
    private static final Announce ANNOTATION_NAME = (d, iid, n) -> d.addDebugAnnotationNames(
            DebugAnnotationName.newBuilder().setIid(iid).setName(n));

    /** Looked up for every region begin: a table of its own, without boxing. */
    long nameIid(String name) {
        long iid = names.get(name);
        if (iid == 0) {
            iid = names.add(name);
            EVENT_NAME.add(interned(), iid, name);
        }
        return iid;
    }

    long categoryIid(String category) {
        return intern(categories, category, EVENT_CATEGORY);
    }

    private Category lastCategory;
    private long lastCategoryIid;

    /** {@link #categoryIid(String)} of a category's label; a thread's regions mostly share one. */
    long categoryIid(Category category) {
        if (category != lastCategory || lastCategoryIid == 0) {
            lastCategoryIid = categoryIid((category == null ? Category.NONE : category).label());
            lastCategory = category;
        }
        return lastCategoryIid;
    }

    long annotationNameIid(String name) {
        return intern(annotationNames, name, ANNOTATION_NAME);
    }

    // every region's begin and end carry these two: their iids are kept, not looked up
    private long beginNsIid;
    private long endNsIid;

    long beginNsIid() {
        if (beginNsIid == 0) {
            beginNsIid = annotationNameIid("begin_ns");
        }
        return beginNsIid;
    }

    long endNsIid() {
        if (endNsIid == 0) {
            endNsIid = annotationNameIid("end_ns");
        }
        return endNsIid;
    }

    /** The iid of {@code name} in {@code table}, assigning the next one (and announcing it) when new. */
    private long intern(Map<String, Long> table, String name, Announce announce) {
        Long iid = table.get(name);
        if (iid == null) {
            iid = table.size() + 1L;
            table.put(name, iid);
            announce.add(interned(), iid, name);
        }
        return iid;
    }

    private InternedData.Builder interned() {
        if (newInterned == null) {
            newInterned = InternedData.newBuilder();
        }
        return newInterned;
    }
}
