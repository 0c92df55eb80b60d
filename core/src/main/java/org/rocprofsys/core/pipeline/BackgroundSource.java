package org.rocprofsys.core.pipeline;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.TraceEvent;

/**
 * A source that runs beside the target in the collector process (process and GPU metric
 * sampling, later perf_event_open sampling): started once the target's pid is known, stopped when
 * the target has ended. It may call {@code out} from its own thread; the collector hands the
 * events to the sinks on its thread.
 */
public interface BackgroundSource {
    /**
     * Whether the source wants {@link #attachBeforeExec} (the launch then goes through a shim that
     * waits before it execs the command).
     */
    default boolean needsExecGate() {
        return false;
    }

    /**
     * Called while the launched process is held just before it execs the command; what the source
     * attaches here (e.g. perf events with enable_on_exec) is live from the command's first
     * instruction. {@link #start} follows once the process runs.
     */
    default void attachBeforeExec(int pid) {}

    void start(int targetPid, Consumer<TraceEvent> out);

    /**
     * Variables the target's environment needs for this source (e.g. the agent's timer settings),
     * asked once the run's session directory (where the agents write) exists.
     */
    default Map<String, String> targetEnvironment(Path sessionDirectory) {
        return Map.of();
    }

    /**
     * A stage in front of {@code downstream} for every event the collector hands on (agent records
     * and background events alike), run on the collector thread; e.g. turns the agent's raw stack
     * samples into symbolized ones. The default passes everything through.
     */
    default Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return downstream;
    }

    /**
     * The ring records this source's target-side library writes into the agent's rings (a GPU
     * backend's), decoded by the source on the collector thread; empty for sources that write none.
     */
    default java.util.Optional<org.rocprofsys.core.wire.BackendRecords.Factory> backendRecords() {
        return java.util.Optional.empty();
    }

    /** Stops and emits the source's final events (upstream ends each counter series with a 0). */
    void stop(long timestampNs);
}
