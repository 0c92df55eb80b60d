package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.SinkEvent;

/**
 * The fan-out to the outputs, each output on a thread of its own: the collector thread only
 * decodes, filters and normalises, and hands events on in batches. Every sink sees every event in
 * the order they were given here (one queue per sink, batches never reordered), so the outputs are
 * the same as with the sinks called in turn on the collector's thread; each sink is still called
 * from one thread at a time ({@link EventSink}'s contract), and the thread that calls
 * {@link #finish} sees everything the sinks did (it joins their threads).
 *
 * <p>A sink that does not read regions ({@link EventSink#readsRegions}) is not handed the batches
 * that hold nothing else: in a traced run those are nearly all of them, and taking and walking each
 * one cost such a sink's thread about a tenth of what the trace writer's thread spends on it.
 *
 * <p>The queues are bounded: when a sink falls behind, {@link #accept} waits, the collector stops
 * draining, and the agent's rings fill (its wait-or-drop policy takes over from there). A sink's
 * failure ({@link IOException} or unchecked) stops that sink and is rethrown on the collector thread, from the next
 * {@link #accept} or from {@link #finish}.
 */
final class SinkThreads extends BatchHandOff implements Consumer<SinkEvent> {
    /** Events per hand-off, a run's regions counted one each ({@link EventBatch}). */
    static final int BATCH = EventBatch.CAPACITY;
    /** Batches queued per sink before the collector waits: about 16 MB of events in flight at most. */
    private static final int QUEUE_BATCHES = 64;

    /** An output's thread, and whether its sink reads regions ({@link EventSink#readsRegions}). */
    private record Output(BatchThread thread, boolean readsRegions) {}

    private final List<Output> outputs;
    /** Whether every event in {@link #batch} is a region begin or end or a {@link RegionRun}. */
    private boolean onlyRegions = true;

    SinkThreads(List<? extends EventSink> sinks) {
        this(outputs(sinks));
    }

    private SinkThreads(Output[] outputs) {
        super(Arrays.stream(outputs).map(Output::thread).toList());
        this.outputs = List.of(outputs);
    }

    private static Output[] outputs(List<? extends EventSink> sinks) {
        List<Output> outputs = new ArrayList<>();
        int i = 0;
        for (EventSink sink : sinks) {
            BatchThread thread = new BatchThread("rocprof-sys-output-" + i++, QUEUE_BATCHES, e -> {
                if (e instanceof RegionRun run) {
                    sink.acceptRegions(run);
                } else {
                    sink.accept((SinkEvent) e);
                }
            });
            outputs.add(new Output(thread, sink.readsRegions()));
        }
        return outputs.toArray(Output[]::new);
    }

    @Override
    public void accept(SinkEvent e) {
        Class<?> type = e.getClass();
        onlyRegions &= type == RegionBegin.class || type == RegionEnd.class;
        if (batch.add(e, 1)) {
            handOff();
        }
    }

    /** A run of regions, handed on whole: each output reads it ({@link EventSink#acceptRegions}). */
    void acceptRegions(RegionRun run) {
        if (batch.add(run, run.size())) {
            handOff();
        }
    }

    @Override
    protected void handOff() {
        if (batch.isEmpty()) {
            return;
        }
        rethrow();
        for (Output o : outputs) {
            if (o.readsRegions() || !onlyRegions) {
                batch.handTo(o.thread());
            }
        }
        batch.clear();
        onlyRegions = true;
    }
}
