package org.rocprofsys.core.spi;

import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;

/**
 * A source that runs beside the target in the collector process (process and GPU metric sampling,
 * perf_event_open sampling, KFD events): started once the target's pid is known, stopped when the
 * target has ended. It may call {@code out} from its own thread; the collector hands the events to
 * the sinks on its thread.
 */
public interface EventSource extends SessionPart {
    void start(int targetPid, Consumer<TraceEvent> out);

    /** Stops and emits the source's final events (upstream ends each counter series with a 0). */
    void stop(long timestampNs);
}
