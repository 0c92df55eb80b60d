package org.rocprofsys.core.event;

import java.io.IOException;

/**
 * A consumer of the event stream: an output writer. {@link #accept} is called from one thread;
 * {@link #finish} once, after the last event, to write the output files.
 */
public interface EventSink {
    void accept(TraceEvent event) throws IOException;

    void finish(RunSummary summary) throws IOException;
}
