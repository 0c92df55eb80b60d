package org.rocprofsys.core.pipeline;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceEvent;

/**
 * Runs the pipeline's filters and normaliser on a thread of their own, so that the collector thread
 * only drains the rings (and runs the sources' intercepts, whose state other threads read): on a machine with CPUs to spare,
 * that thread bounds a traced run's rate (docs/benchmarks.md). Events pass in batches, in the order
 * they were given, through one bounded queue: when the stages fall behind, {@link #accept} waits,
 * and the agent's full-ring policy takes over from there, as with a slow output. A stage's failure
 * stops the stages and is rethrown on the collector thread, from the next {@link #accept} or from
 * {@link #finish}; after {@link #finish} the stages may be used from the calling thread.
 */
final class StageThread implements Consumer<TraceEvent> {
    /** Used where the machine has at least this many CPUs; {@value #PROPERTY} (true or false) decides instead. */
    static final int MIN_CPUS = 4;

    static final String PROPERTY = "rocprofsys.pipeline.stagethread";

    /** Events per hand-off, a run's regions counted one each (as {@link SinkThreads#BATCH}). */
    static final int BATCH = 2048;

    private static final int QUEUE_BATCHES = 16;

    private record Batch(Object[] events, int size) {}

    private static final Batch END = new Batch(new Object[0], 0);

    private final Consumer<TraceEvent> stages;
    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
    private final Thread thread;
    private Object[] batch = new Object[BATCH];
    private int size;
    private int events;
    private boolean finished;
    /** A RuntimeException or Error of a stage. */
    private volatile Throwable failure;

    StageThread(Consumer<TraceEvent> stages) {
        this.stages = stages;
        this.thread =
                Thread.ofPlatform().name("rocprof-sys-stages").daemon(true).unstarted(this::run);
        thread.start();
    }

    /** Whether the stages get a thread of their own on a machine of {@code cpus} CPUs. */
    static boolean wanted(int cpus) {
        String set = System.getProperty(PROPERTY);
        return set != null ? Boolean.parseBoolean(set) : cpus >= MIN_CPUS;
    }

    @Override
    public void accept(TraceEvent e) {
        rethrow();
        batch[size++] = e;
        events += e instanceof RegionRun run ? run.size() : 1;
        if (size == BATCH || events >= BATCH) {
            handOff();
        }
    }

    /** Hands on what is batched, waits until the stages have taken every event, and stops the thread. */
    void finish() {
        if (finished) {
            return;
        }
        finished = true;
        handOff();
        put(END);
        try {
            thread.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the pipeline's stages were finishing", ex);
        }
        rethrow();
    }

    private void handOff() {
        if (size == 0) {
            return;
        }
        Batch full = new Batch(batch, size);
        batch = new Object[BATCH];
        size = 0;
        events = 0;
        put(full);
    }

    private void put(Batch b) {
        try {
            queue.put(b);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing events to the pipeline's stages", ex);
        }
    }

    private void rethrow() {
        switch (failure) {
            case null -> {}
            case RuntimeException r -> throw r;
            case Error err -> throw err;
            case Throwable t -> throw new IllegalStateException(t);
        }
    }

    private void run() {
        try {
            for (Batch b; (b = queue.take()) != END; ) {
                if (failure != null) {
                    continue; // keep taking, so that the collector never waits for dead stages
                }
                try {
                    Object[] given = b.events();
                    for (int i = 0, n = b.size(); i < n; i++) {
                        stages.accept((TraceEvent) given[i]);
                    }
                } catch (RuntimeException | Error ex) {
                    failure = ex;
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
