package org.rocprofsys.core.pipeline;

import java.util.List;

/**
 * What the stage thread and the output threads share: events gathered into one {@link EventBatch}
 * and handed on to {@link BatchThread}s, a failure there rethrown on the calling thread, and the
 * finish that hands on the rest, stops the threads and waits for them.
 */
abstract class BatchHandOff {
    protected final EventBatch batch = new EventBatch();
    private final List<BatchThread> threads;
    private boolean finished;

    BatchHandOff(List<BatchThread> threads) {
        this.threads = List.copyOf(threads);
    }

    /** Hands what is batched to the threads (a no-op on an empty batch). */
    protected abstract void handOff();

    /**
     * Hands on what is batched, waits until every thread has taken every event, and stops the
     * threads; afterwards what they ran may be used from the calling thread. Rethrows a failure.
     */
    final void finish() {
        if (finished) {
            return;
        }
        finished = true;
        handOff();
        threads.forEach(BatchThread::close);
        threads.forEach(BatchThread::join);
        rethrow();
    }

    /** Rethrows the first failure of a thread, if any. */
    protected final void rethrow() {
        threads.forEach(BatchThread::rethrow);
    }
}
