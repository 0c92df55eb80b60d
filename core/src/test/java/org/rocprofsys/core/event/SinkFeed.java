package org.rocprofsys.core.event;

import java.io.IOException;
import java.util.List;

/** Hands a test's events to a sink the way a run does, then finishes it. */
public final class SinkFeed {
    private SinkFeed() {
    }

    public static void run(EventSink sink, List<TraceEvent> events, RunSummary summary) throws IOException {
        for (TraceEvent e : events) {
            sink.accept(e);
        }
        sink.finish(summary);
    }
}
