package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A thread that takes batches of events from one bounded queue and gives every event, in order, to
 * one consumer: each output's thread in {@link SinkThreads}, the stages' in {@link StageThread}.
 * {@link #put} waits while the queue is full, so a slow consumer holds back whoever hands on. The
 * consumer's first failure stops it; later batches are still taken (and dropped), so the thread
 * handing on never waits for a dead consumer, and {@link #rethrow} throws the failure there.
 */
final class BatchThread {
    /** What each event is given to; an output may fail writing its file. */
    interface Consumer {
        void accept(Object event) throws IOException;
    }

    private record Batch(Object[] events, int size) {}

    private static final Batch END = new Batch(new Object[0], 0);

    private final Consumer consumer;
    private final BlockingQueue<Batch> queue;
    private final Thread thread;
    /** An IOException, RuntimeException or Error of the consumer. */
    private volatile Throwable failure;

    /** Starts the thread, named {@code name}, with room for {@code batches} batches in its queue. */
    BatchThread(String name, int batches, Consumer consumer) {
        this.consumer = consumer;
        this.queue = new ArrayBlockingQueue<>(batches);
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::run);
        thread.start();
    }

    /** Hands on the first {@code size} events of {@code events}, which the caller no longer touches. */
    void put(Object[] events, int size) {
        put(new Batch(events, size));
    }

    /** Tells the thread that no batch follows; {@link #join} then waits for it to take the rest. */
    void close() {
        put(END);
    }

    void join() {
        try {
            thread.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + thread.getName() + " was finishing", ex);
        }
    }

    /** Throws the consumer's failure, if it failed. */
    void rethrow() {
        switch (failure) {
            case null -> {}
            case IOException io -> throw new UncheckedIOException(io);
            case RuntimeException r -> throw r;
            case Error err -> throw err;
            case Throwable t -> throw new IllegalStateException(t);
        }
    }

    private void put(Batch b) {
        try {
            queue.put(b);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing events to " + thread.getName(), ex);
        }
    }

    private void run() {
        try {
            for (Batch b; (b = queue.take()) != END; ) {
                if (failure != null) {
                    continue; // keep taking, so that the thread handing on never waits for a dead consumer
                }
                try {
                    Object[] events = b.events();
                    for (int i = 0, n = b.size(); i < n; i++) {
                        consumer.accept(events[i]);
                    }
                } catch (IOException | RuntimeException | Error ex) {
                    failure = ex;
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
