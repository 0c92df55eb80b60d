package org.rocprofsys.core.pipeline;

/**
 * The events gathered on the collector side for one hand-off to {@link BatchThread}s (the outputs'
 * in {@link SinkThreads}, the stages' in {@link StageThread}): a queue operation per event would
 * cost more than most consumers' work. Full at {@value #CAPACITY} objects or {@value #CAPACITY}
 * events, a run's regions counted one each.
 */
final class EventBatch {
    static final int CAPACITY = 2048;

    /**
     * An Object[], not a SinkEvent[]: a store into an array of an interface type checks the
     * element's type, a scan of its secondary supertypes, for every event.
     */
    private Object[] events = new Object[CAPACITY];

    private int size;
    /** Events gathered, a run's regions counted one each. */
    private int weight;

    /** Adds {@code event}, which counts as {@code weight} events; true when the batch is now full. */
    boolean add(Object event, int weight) {
        events[size++] = event;
        this.weight += weight;
        return size == CAPACITY || this.weight >= CAPACITY;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Hands what is gathered to {@code thread}; the batch may go to several threads, which only read it. */
    void handTo(BatchThread thread) {
        thread.put(events, size);
    }

    /** Starts a new batch: the one handed on belongs to its threads now. */
    void clear() {
        events = new Object[CAPACITY];
        size = 0;
        weight = 0;
    }
}
