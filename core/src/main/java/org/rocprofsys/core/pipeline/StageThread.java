package org.rocprofsys.core.pipeline;

import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceEvent;

/**
 * Runs the pipeline's filters and normaliser on a thread of their own, so that the collector thread
 * only drains the rings (and runs the sources' intercepts, whose state other threads read): on a
 * machine with CPUs to spare, that thread bounds a traced run's rate (docs/benchmarks.md). Events
 * pass in batches, in the order they were given, through one {@link BatchThread}: when the stages
 * fall behind, {@link #accept} waits, and the agent's full-ring policy takes over from there, as
 * with a slow output. A stage's failure stops the stages and is rethrown on the collector thread,
 * from the next {@link #accept} or from {@link #finish}; after {@link #finish} the stages may be
 * used from the calling thread.
 */
final class StageThread extends BatchHandOff implements Consumer<TraceEvent> {
    /**
     * Used where the machine has at least this many CPUs; ROCPROFSYS_COLLECTOR_STAGE_THREAD (true or
     * false, {@link PipelineTuning#STAGE_THREAD}) decides instead.
     */
    static final int MIN_CPUS = 4;

    /** The setting's value that leaves it to the machine. */
    static final String AUTOMATIC = "auto";

    /** Events per hand-off, a run's regions counted one each. */
    static final int BATCH = EventBatch.CAPACITY;

    private static final int QUEUE_BATCHES = 16;

    private final BatchThread thread;

    StageThread(Consumer<? super TraceEvent> stages) {
        this(new BatchThread("rocprof-sys-stages", QUEUE_BATCHES, e -> stages.accept((TraceEvent) e)));
    }

    private StageThread(BatchThread thread) {
        super(List.of(thread));
        this.thread = thread;
    }

    /** Whether the stages get a thread of their own on a machine of {@code cpus} CPUs; {@code set}: auto, true or false. */
    static boolean wanted(int cpus, String set) {
        return set.equals(AUTOMATIC) ? cpus >= MIN_CPUS : Boolean.parseBoolean(set);
    }

    @Override
    public void accept(TraceEvent e) {
        rethrow();
        if (batch.add(e, e instanceof RegionRun run ? run.size() : 1)) {
            handOff();
        }
    }

    @Override
    protected void handOff() {
        if (!batch.isEmpty()) {
            batch.handTo(thread);
            batch.clear();
        }
    }
}
