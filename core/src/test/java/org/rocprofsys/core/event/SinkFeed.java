package org.rocprofsys.core.event;

import java.io.IOException;
import java.io.UncheckedIOException;
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
}
