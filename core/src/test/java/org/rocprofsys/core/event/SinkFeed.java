package org.rocprofsys.core.event;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.pipeline.EventNormaliser;

/**
 * Hands a test's events to a sink the way a run does: through the pipeline's normaliser (which
 * closes what threads, processes and the run leave open), then finishes it.
 */
public final class SinkFeed {
    private SinkFeed() {}

    public static void run(EventSink sink, List<? extends TraceEvent> events, RunSummary summary) throws IOException {
        EventNormaliser normaliser = feed(sink, events);
        normaliser.finish(summary.endNs());
        sink.finish(summary);
    }

    /** The events through a normaliser into {@code sink}; the caller finishes both. */
    public static EventNormaliser feed(EventSink sink, List<? extends TraceEvent> events) {
        return feed(
                (Consumer<SinkEvent>) e -> {
                    try {
                        sink.accept(e);
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                },
                events);
    }

    public static EventNormaliser feed(Consumer<SinkEvent> sink, List<? extends TraceEvent> events) {
        EventNormaliser normaliser = new EventNormaliser(sink);
        events.forEach(normaliser);
        return normaliser;
    }

    /**
     * Like {@link #run}, with the plain regions gathered into runs of at most {@code maxRun} (as a
     * ring's drain gathers them), which reach the sink through {@link EventSink#acceptRegions}.
     */
    public static void runGathered(EventSink sink, List<? extends TraceEvent> events, RunSummary summary, int maxRun)
            throws IOException {
        EventNormaliser normaliser = new EventNormaliser(
                e -> {
                    try {
                        sink.accept(e);
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                },
                run -> {
                    try {
                        sink.acceptRegions(run);
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                });
        gathered(events, maxRun).forEach(normaliser);
        normaliser.finish(summary.endNs());
        sink.finish(summary);
    }

    /** The events with each stretch of one thread's plain regions (no annotations, no readings) as runs. */
    public static List<TraceEvent> gathered(List<? extends TraceEvent> events, int maxRun) {
        List<TraceEvent> out = new ArrayList<>();
        List<SinkEvent> pending = new ArrayList<>();
        for (TraceEvent e : events) {
            long thread = plainRegionThread(e);
            if (!pending.isEmpty() && (thread != plainRegionThread(pending.getFirst()) || pending.size() == maxRun)) {
                out.add(RegionRun.of(pending));
                pending.clear();
            }
            if (thread != -1) {
                pending.add((SinkEvent) e);
            } else {
                out.add(e);
            }
        }
        if (!pending.isEmpty()) {
            out.add(RegionRun.of(pending));
        }
        return out;
    }

    /** (pid, tid) of a plain region, else -1. */
    private static long plainRegionThread(TraceEvent e) {
        return switch (e) {
            case RegionBegin b
            when b.annotations().isEmpty() && RegionMetrics.NONE.equals(b.metrics()) ->
                ((long) b.pid() << 32) | (b.tid() & 0xffffffffL);
            case RegionEnd en
            when en.annotations().isEmpty() && RegionMetrics.NONE.equals(en.metrics()) && !en.forced() ->
                ((long) en.pid() << 32) | (en.tid() & 0xffffffffL);
            default -> -1;
        };
    }
}
