package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.perfetto.proto.ClockSnapshot;
import org.rocprofsys.core.perfetto.proto.InternedData;
import org.rocprofsys.core.perfetto.proto.TrackEvent;

/**
 * Regions as slice packets of a track's sequence: nearly every packet of a trace. The sink writes
 * them through one of these, and each of its {@link SegmentEncoders}' workers through its own, so
 * a region is the same bytes whichever thread encodes it.
 */
final class RegionSlices {
    private static final int CLOCK_MONOTONIC = ClockSnapshot.Clock.BuiltinClocks.MONOTONIC_VALUE;

    private final PerfettoSink.Options options;
    /** Region ends carry component and counter values. */
    private final boolean annotateValues;

    final SliceEncoder encoder;

    RegionSlices(PacketBuffer out, PerfettoSink.Options options) {
        this.options = options;
        this.annotateValues = options.annotations() && !options.regionValues().isEmpty();
        this.encoder = new SliceEncoder(out);
    }

    /** A run's regions, as its events one by one would be written. */
    void run(ThreadTrack t, RegionRun run) throws IOException {
        for (int i = 0, n = run.size(); i < n; i++) {
            if (run.isBegin(i)) {
                begin(t, run.time(i), run.name(i), run.category(i), List.of(), RegionMetrics.NONE);
            } else {
                end(t, run.time(i), List.of(), RegionMetrics.NONE, false);
            }
        }
    }

    /**
     * Moves {@code t} over a run as {@link #run} would, writing nothing: its clock, depth and (when
     * region values are annotated) open regions are where the run leaves them.
     */
    void skip(ThreadTrack t, RegionRun run) {
        for (int i = 0, n = run.size(); i < n; i++) {
            if (run.isBegin(i)) {
                t.advance(run.time(i));
                opened(t, run.time(i), RegionMetrics.NONE);
                t.depth++;
            } else if (t.depth > 0) { // an end with nothing open is not written and moves nothing
                t.advance(run.time(i));
                if (annotateValues) {
                    t.closeRegion();
                }
                t.depth--;
            }
        }
    }

    /**
     * Notes a region opened on {@code t} at {@code ns} with its begin readings, for the values its
     * end will carry (when region values are annotated); {@link #begin} does it for the slices
     * written here.
     */
    void opened(ThreadTrack t, long ns, RegionMetrics metrics) {
        if (annotateValues) {
            t.openRegion(ns, metrics);
        }
    }

    void begin(
            ThreadTrack t, long ns, String name, Category category, List<Annotation> annotations, RegionMetrics metrics)
            throws IOException {
        opened(t, ns, metrics);
        long categoryIid = t.categoryIid(category);
        long nameIid = t.nameIid(Objects.requireNonNullElse(name, ""));
        beginSlice(t, ns);
        encoder.categoryIid(categoryIid);
        if (options.annotations()) {
            encodeAnnotations(t, annotations);
            encoder.unsignedAnnotation(t.beginNsIid(), realtime(ns));
        }
        encoder.type(TrackEvent.Type.TYPE_SLICE_BEGIN_VALUE);
        encoder.nameIid(nameIid);
        t.depth++;
        emitSlice(t);
    }

    void end(ThreadTrack t, long timestampNs, List<Annotation> annotations, RegionMetrics metrics, boolean forced)
            throws IOException {
        if (t.depth == 0) {
            return; // nothing open: an END would only be an orphan for trace_processor
        }
        // a forced end never goes before the thread's last event (a sample can be later than the
        // thread's end as the collector saw it)
        long ns = forced ? Math.max(timestampNs, t.lastNs()) : timestampNs;
        beginSlice(t, ns);
        if (options.annotations()) {
            encodeAnnotations(t, annotations);
            encoder.unsignedAnnotation(t.endNsIid(), realtime(ns));
        }
        if (annotateValues) {
            long beginNs = t.openBeginNs();
            RegionMetrics begin = t.closeRegion();
            // an end without readings (a rewritten executable's main region, closed by the
            // finalizer as upstream's is) carries no values, as a forced one
            if (!forced && begin != null && metrics != null && !RegionMetrics.NONE.equals(metrics)) {
                encodeAnnotations(t, options.regionValues().of(timestampNs - beginNs, begin, metrics));
            }
        }
        if (forced) {
            encoder.annotation(t.annotationNameIid(PerfettoSink.CLOSED_BY_PROFILER), new AnnotationValue.Bool(true));
        }
        encoder.type(TrackEvent.Type.TYPE_SLICE_END_VALUE);
        t.depth--;
        emitSlice(t);
    }

    private void encodeAnnotations(ThreadTrack t, List<Annotation> annotations) {
        if (annotations == null || annotations.isEmpty()) {
            return;
        }
        for (Annotation a : annotations) {
            if (a != null && a.value() != null) {
                encoder.annotation(t.annotationNameIid(Objects.requireNonNullElse(a.name(), "")), a.value());
            }
        }
    }

    /**
     * Starts a slice packet of {@code t} at {@code timestampNs}: the sequence's clock moves now, so
     * the packet's header is known before its event is written (the encoder leaves room for it).
     */
    void beginSlice(ThreadTrack t, long timestampNs) throws IOException {
        long delta = t.advance(timestampNs);
        encoder.begin(delta >= 0 ? delta : timestampNs, delta >= 0 ? 0 : CLOCK_MONOTONIC, t.sequenceId);
    }

    /** Completes the slice packet begun by {@link #beginSlice}, with the names it interned. */
    void emitSlice(ThreadTrack t) {
        InternedData.Builder interned = t.takeInterned();
        encoder.writePacket(interned == null ? null : interned.build().toByteArray());
    }

    /** Upstream's begin_ns/end_ns are CLOCK_REALTIME ns (its tracing::now()). */
    long realtime(long monotonicNs) {
        return monotonicNs + options.realtimeOffsetNs();
    }
}
