package org.rocprofsys.core.pipeline;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.InterceptStage;
import org.rocprofsys.core.spi.SessionPart;

/**
 * The stages between the sources and the outputs: each session part's intercept stage (in the
 * order the parts are given), the collection filter (trace windows and the program's
 * start/stop), the category filter (ENABLE/DISABLE_CATEGORIES), the normaliser (lifetimes, forced
 * region ends), and the fan-out to every output, each output on a thread of its own
 * ({@link SinkThreads}). The intercepts run on the collector thread; the filters and the
 * normaliser there too, or on a thread of their own ({@link StageThread}) where the machine has CPUs
 * to spare.
 */
public final class Pipeline {
    private final EventNormaliser normaliser;
    private final SinkThreads outputs;
    private final Consumer<TraceEvent> head;
    /** The stages' own thread; null where they run on the collector thread. */
    private final StageThread stageThread;

    /**
     * @param initiallyEnabled whether collection is on when a process starts (ROCPROFSYS_INIT_ENABLED)
     */
    public Pipeline(
            TraceWindows windows,
            boolean initiallyEnabled,
            List<? extends SessionPart> sources,
            List<? extends EventSink> outputs) {
        this(windows, initiallyEnabled, Set.of(), sources, outputs);
    }

    /**
     * @param droppedCategories events of these categories reach no output ({@link CategoryFilter#dropped})
     */
    public Pipeline(
            TraceWindows windows,
            boolean initiallyEnabled,
            Set<Category> droppedCategories,
            List<? extends SessionPart> sources,
            List<? extends EventSink> outputs) {
        this(windows, initiallyEnabled, droppedCategories, sources, outputs, PipelineTuning.machine());
    }

    /** @param tuning whether the stages get a thread of their own ({@link PipelineTuning#stageThread}) */
    public Pipeline(
            TraceWindows windows,
            boolean initiallyEnabled,
            Set<Category> droppedCategories,
            List<? extends SessionPart> sources,
            List<? extends EventSink> outputs,
            PipelineTuning tuning) {
        this.outputs = new SinkThreads(outputs);
        this.normaliser = new EventNormaliser(this.outputs, this.outputs::acceptRegions);
        Consumer<TraceEvent> stages =
                new CollectionFilter(windows, initiallyEnabled, CategoryFilter.of(droppedCategories, normaliser));
        this.stageThread = tuning.stageThread() ? new StageThread(stages) : null;
        // the sources' intercepts stay on the collector thread: what they learn from the events (a
        // thread's number, say) is read by the sources' own threads as soon as the collector has it
        Consumer<TraceEvent> first = stageThread != null ? stageThread : stages;
        for (InterceptStage stage :
                SessionPart.withRole(sources, InterceptStage.class).reversed()) {
            first = stage.intercept(first);
        }
        this.head = first;
    }

    /** Where the collector hands every event (agent records and background events alike). */
    public Consumer<TraceEvent> head() {
        return head;
    }

    /**
     * After the last event: closes what is still open at {@code endNs} and waits until every output
     * has taken every event (they run on threads of their own), before the outputs finish.
     */
    public void finish(long endNs) {
        if (stageThread != null) {
            stageThread.finish();
        }
        normaliser.finish(endNs);
        outputs.finish();
    }
}
