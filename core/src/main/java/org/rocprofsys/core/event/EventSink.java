package org.rocprofsys.core.event;

import java.io.IOException;

/**
 * A consumer of the normalised event stream: an output writer. {@link #accept} is called from one
 * thread; {@link #finish} once, after the last event, to write the output files. Regions arrive
 * balanced per thread: every begin gets an end before its thread's or process's end, and before
 * {@link #finish}.
 */
public interface EventSink {
    void accept(SinkEvent event) throws IOException;

    /**
     * A run of one thread's plain regions, in the stream's order: the same as {@link #accept} of each
     * of its events, which this default does. An output that reads regions may read the run's
     * arrays instead, making no object per region; it must not keep or change the run.
     */
    default void acceptRegions(RegionRun run) throws IOException {
        for (int i = 0, n = run.size(); i < n; i++) {
            accept(run.event(i));
        }
    }

    void finish(RunSummary summary) throws IOException;

    /**
     * Whether this sink reads {@link RegionBegin} and {@link RegionEnd} events. One that does not
     * (the GPU and sampling reports) may be spared them: it then sees every other event, in
     * order, and no region event; regions are nearly all of a traced run's events.
     */
    default boolean readsRegions() {
        return true;
    }
}
