package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Fork;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RecordsDropped;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.DebugAnnotation;
import org.rocprofsys.core.perfetto.proto.InternedData;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * The slices and instants of thread tracks: regions (one by one, or runs of them, long stretches
 * of which go to the {@link SegmentEncoders}), marks, forks, dropped-record notices and sampled
 * call stacks, each on the track the {@link TrackRegistry} gives, stamped on its sequence's
 * incremental clock.
 */
final class SliceWriter {
    private static final int CLOCK_MONOTONIC = ClockSnapshot.Clock.BuiltinClocks.MONOTONIC_VALUE;

    private final PacketBuffer out;
    private final PerfettoSink.Options options;
    private final TrackRegistry tracks;
    /** The slices of regions (and sampled frames) written on this thread. */
    private final RegionSlices regions;
    /** Long stretches of one thread's region runs encoded on other threads; null when there are none. */
    private final SegmentEncoders segments;
    /** The track of the runs gathered for the next segment (null when none), and those runs. */
    private ThreadTrack segmentTrack;

    private final List<RegionRun> segmentRuns = new ArrayList<>();
    private int segmentRegions;

    SliceWriter(PacketBuffer out, PerfettoSink.Options options, TrackRegistry tracks, SegmentEncoders segments) {
        this.out = out;
        this.options = options;
        this.tracks = tracks;
        this.segments = segments;
        this.regions = new RegionSlices(out, options);
    }

    /** The thread's track, ready for a packet written here. */
    ThreadTrack thread(int pid, int tid, long timestampNs) throws IOException {
        ThreadTrack t = tracks.thread(pid, tid, timestampNs);
        restartIfStale(t);
        return t;
    }

    // ---- regions -----------------------------------------------------------------------------

    void regionBegin(RegionBegin b, Consumer<TrackEvent.Builder> flow) throws IOException {
        ThreadTrack t = thread(b.pid(), b.tid(), b.timestampNs());
        if (flow != FlowWriter.NONE) {
            regions.opened(t, b.timestampNs(), b.metrics());
            TrackEvent.Builder ev = TrackEvent.newBuilder()
                    .setType(TrackEvent.Type.TYPE_SLICE_BEGIN)
                    .addCategoryIids(t.categoryIid(b.category()))
                    .setNameIid(t.nameIid(Objects.requireNonNullElse(b.name(), "")));
            if (options.annotations()) {
                addAnnotations(t, ev, b.annotations());
                ev.addDebugAnnotations(annotation(t, "begin_ns").setUintValue(realtime(b.timestampNs())));
            }
            flow.accept(ev);
            t.depth++;
            emit(t, b.timestampNs(), ev);
            return;
        }
        regions.begin(t, b.timestampNs(), b.name(), b.category(), b.annotations(), b.metrics());
    }

    void regionEnd(RegionEnd e) throws IOException {
        regions.end(
                thread(e.pid(), e.tid(), e.timestampNs()), e.timestampNs(), e.annotations(), e.metrics(), e.forced());
    }

    /** A run of plain regions: the same packets as its events one by one, read from its arrays. */
    void regions(RegionRun run) throws IOException {
        if (segments == null) {
            regions.run(thread(run.pid(), run.tid(), run.timestampNs()), run);
            return;
        }
        ThreadTrack t = tracks.thread(run.pid(), run.tid(), run.timestampNs());
        if (t != segmentTrack) {
            closeSegment();
            segmentTrack = t;
        }
        segmentRuns.add(run);
        segmentRegions += run.size();
        if (segmentRegions >= segments.segmentRegions) {
            closeSegment();
        } else {
            segments.writeDone();
        }
    }

    /** Whether runs are gathered for a segment (which must be closed before any other packet). */
    boolean segmentOpen() {
        return segmentTrack != null;
    }

    /**
     * Encodes the runs gathered for a segment: on a worker when there are enough of them (the
     * sink's track then moves past them as if it had written them, and starts its sequence again
     * before its next packet), else here.
     */
    void closeSegment() throws IOException {
        ThreadTrack t = segmentTrack;
        if (t == null) {
            return;
        }
        segmentTrack = null;
        try {
            if (segmentRegions < segments.minSegmentRegions) {
                restartIfStale(t);
                for (RegionRun run : segmentRuns) {
                    regions.run(t, run);
                }
            } else {
                out.handOn(); // the packets before the segment go before it
                segments.submit(t.continuation(), segmentRuns);
                for (RegionRun run : segmentRuns) {
                    regions.skip(t, run);
                }
                t.stale = true;
            }
        } finally {
            segmentRuns.clear();
            segmentRegions = 0;
        }
    }

    /** Starts the track's sequence again when a segment encoded elsewhere left its state cleared. */
    private void restartIfStale(ThreadTrack t) throws IOException {
        if (t.stale) {
            t.stale = false;
            t.clearInterned();
            out.write(t.startPacket());
        }
    }

    // ---- instants ----------------------------------------------------------------------------

    void mark(Mark m, Consumer<TrackEvent.Builder> flow) throws IOException {
        instant(thread(m.pid(), m.tid(), m.timestampNs()), m.timestampNs(), label(m.category()), m.name(), flow);
    }

    void fork(Fork f) throws IOException {
        ThreadTrack t = thread(f.pid(), f.tid(), f.timestampNs());
        DebugAnnotation.Builder child = annotation(t, "child_pid").setIntValue(f.childPid());
        instant(t, f.timestampNs(), PerfettoSink.PROFILER_CATEGORY, "fork", ev -> ev.addDebugAnnotations(child));
    }

    void recordsDropped(RecordsDropped r) throws IOException {
        ThreadTrack t = thread(r.pid(), r.tid(), r.timestampNs());
        DebugAnnotation.Builder count = annotation(t, "count").setUintValue(r.count());
        instant(
                t,
                r.timestampNs(),
                PerfettoSink.PROFILER_CATEGORY,
                "records dropped",
                ev -> ev.addDebugAnnotations(count));
    }

    void instant(ThreadTrack t, long ns, String category, String name, Consumer<TrackEvent.Builder> extra)
            throws IOException {
        TrackEvent.Builder ev = event(t, TrackEvent.Type.TYPE_INSTANT, category, name);
        extra.accept(ev);
        emit(t, ns, ev);
    }

    /** A track event of {@code type} with its category and name (null: empty) interned on {@code t}'s sequence. */
    static TrackEvent.Builder event(ThreadTrack t, TrackEvent.Type type, String category, String name) {
        return TrackEvent.newBuilder()
                .setType(type)
                .addCategoryIids(t.categoryIid(category))
                .setNameIid(t.nameIid(Objects.requireNonNullElse(name, "")));
    }

    // ---- sampled stacks ----------------------------------------------------------------------

    /**
     * One slice per frame spanning from the thread's previous sample to this one, outermost
     * first, so the UI nests main -> leaf (a first sample spans its own interval).
     */
    void stackSample(StackSample s) throws IOException {
        if (s.frames().isEmpty()) {
            return;
        }
        boolean overflow = s.kind() == StackSample.Kind.OVERFLOW;
        ThreadTrack t = overflow
                ? tracks.overflowSampled(s.pid(), s.tid(), s.timestampNs() - s.intervalNs())
                : tracks.sampled(s.pid(), s.tid(), s.timestampNs() - s.intervalNs());
        long from = Math.max(t.lastNs(), s.timestampNs() - s.intervalNs());
        long to = Math.max(from, s.timestampNs());
        String category = overflow ? Category.OVERFLOW_SAMPLING.label() : "sampling";
        // upstream's layout: an outer "samples [rocprof-sys]" slice ("<event> samples [rocprof-sys]"
        // for overflow samples), then one slice per frame
        regions.beginSlice(t, from);
        regions.encoder.categoryIid(t.categoryIid(category));
        regions.encoder.type(TrackEvent.Type.TYPE_SLICE_BEGIN_VALUE);
        regions.encoder.nameIid(
                t.nameIid(overflow ? s.event() + " " + PerfettoSink.SAMPLES_SLICE : PerfettoSink.SAMPLES_SLICE));
        if (options.annotations()) {
            regions.encoder.annotation(t.annotationNameIid("begin_ns"), new AnnotationValue.Unsigned(realtime(from)));
            regions.encoder.annotation(t.annotationNameIid("end_ns"), new AnnotationValue.Unsigned(realtime(to)));
        }
        t.depth++;
        regions.emitSlice(t);
        for (StackFrame f : s.frames()) {
            regions.beginSlice(t, from);
            regions.encoder.categoryIid(t.categoryIid(category));
            regions.encoder.type(TrackEvent.Type.TYPE_SLICE_BEGIN_VALUE);
            regions.encoder.nameIid(t.nameIid(f.symbol()));
            if (options.annotations()) {
                // the source file when DWARF names it, else the module
                String file = f.file() != null ? f.file() : f.module();
                if (file != null) {
                    regions.encoder.annotation(t.annotationNameIid("file"), new AnnotationValue.Text(file));
                }
                regions.encoder.annotation(t.annotationNameIid("pc"), new AnnotationValue.Pointer(f.pc()));
                if (f.line() > 0) {
                    regions.encoder.annotation(t.annotationNameIid("line"), new AnnotationValue.Unsigned(f.line()));
                }
            }
            t.depth++;
            regions.emitSlice(t);
        }
        while (t.depth > 0) {
            regions.beginSlice(t, to);
            regions.encoder.type(TrackEvent.Type.TYPE_SLICE_END_VALUE);
            t.depth--;
            regions.emitSlice(t);
        }
    }

    // ---- packets built with protobuf's builders -----------------------------------------------

    /**
     * A track event on {@code t}'s sequence: a delta on its clock, or an absolute CLOCK_MONOTONIC
     * time for an event earlier than the track's last one, with the names it interned.
     */
    void emit(ThreadTrack t, long timestampNs, TrackEvent.Builder ev) throws IOException {
        TracePacket.Builder p = TracePacket.newBuilder().setTrustedPacketSequenceId(t.sequenceId);
        long delta = t.advance(timestampNs);
        if (delta >= 0) {
            p.setTimestamp(delta);
        } else {
            p.setTimestamp(timestampNs).setTimestampClockId(CLOCK_MONOTONIC);
        }
        InternedData.Builder interned = t.takeInterned();
        if (interned != null) {
            p.setInternedData(interned);
        }
        out.write(p.setTrackEvent(ev).build());
    }

    private void addAnnotations(ThreadTrack t, TrackEvent.Builder ev, List<Annotation> annotations) {
        if (annotations == null) {
            return;
        }
        for (Annotation a : annotations) {
            if (a == null || a.value() == null) {
                continue;
            }
            DebugAnnotation.Builder d = annotation(t, Objects.requireNonNullElse(a.name(), ""));
            switch (a.value()) {
                case AnnotationValue.Text v -> d.setStringValue(Objects.requireNonNullElse(v.value(), ""));
                case AnnotationValue.Signed v -> d.setIntValue(v.value());
                case AnnotationValue.Unsigned v -> d.setUintValue(v.value());
                case AnnotationValue.Real v -> d.setDoubleValue(v.value());
                case AnnotationValue.Pointer v -> d.setPointerValue(v.address());
                case AnnotationValue.Bool v -> d.setBoolValue(v.value());
            }
            ev.addDebugAnnotations(d);
        }
    }

    /** Upstream's begin_ns/end_ns are CLOCK_REALTIME ns (its tracing::now()). */
    long realtime(long monotonicNs) {
        return regions.realtime(monotonicNs);
    }

    /** A debug annotation named {@code name}, interned on {@code t}'s sequence. */
    static DebugAnnotation.Builder annotation(ThreadTrack t, String name) {
        return DebugAnnotation.newBuilder().setNameIid(t.annotationNameIid(name));
    }

    private static String label(Category category) {
        return (category == null ? Category.NONE : category).label();
    }
}
