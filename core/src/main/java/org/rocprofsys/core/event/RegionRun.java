package org.rocprofsys.core.event;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Consecutive region begins and ends of one thread, in the order the thread recorded them, held in
 * arrays instead of one {@link RegionBegin} or {@link RegionEnd} per record: the form a ring's
 * plain regions (no annotations, no readings) take through the pipeline, so that the collector
 * makes no object per record (docs/architecture.md, "Region runs"). Element {@code i} is a begin
 * when it has a name, else an end; {@link #event} makes it the event it stands for, and an output
 * that reads runs element by element sees exactly those events.
 *
 * <p>Not thread-safe and mutable while the pipeline's stages hold it: each stage may drop elements
 * ({@link #keep}, {@link #truncate}) before handing it on; once handed to the outputs it is only
 * read.
 */
public final class RegionRun implements TraceEvent {
    private final int pid;
    private final int tid;
    private long[] times;
    /** The begin's name; null for an end. */
    private String[] names;

    private Category[] categories;
    private int size;

    /** @param capacity the elements it holds before its arrays grow */
    public RegionRun(int pid, int tid, int capacity) {
        this.pid = pid;
        this.tid = tid;
        this.times = new long[capacity];
        this.names = new String[capacity];
        this.categories = new Category[capacity];
    }

    /** A run of the given events, each a plain (no annotations, no readings, not forced) region of one thread. */
    public static RegionRun of(List<? extends SinkEvent> events) {
        SinkEvent first = events.getFirst();
        RegionRun run = new RegionRun(first.pid(), tid(first), events.size());
        for (SinkEvent e : events) {
            if (e.pid() != run.pid || tid(e) != run.tid) {
                throw new IllegalArgumentException("a run holds one thread's regions, not " + e);
            }
            switch (e) {
                case RegionBegin b
                when b.annotations().isEmpty() && RegionMetrics.NONE.equals(b.metrics()) ->
                    run.addBegin(b.timestampNs(), b.name(), b.category());
                case RegionEnd en
                when en.annotations().isEmpty() && RegionMetrics.NONE.equals(en.metrics()) && !en.forced() ->
                    run.addEnd(en.timestampNs(), en.category());
                default -> throw new IllegalArgumentException("a run holds plain regions, not " + e);
            }
        }
        return run;
    }

    private static int tid(SinkEvent e) {
        return switch (e) {
            case RegionBegin b -> b.tid();
            case RegionEnd en -> en.tid();
            default -> throw new IllegalArgumentException("a run holds regions, not " + e);
        };
    }

    @Override
    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    /** The first element's time. */
    @Override
    public long timestampNs() {
        return times[0];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public boolean isBegin(int i) {
        return names[i] != null;
    }

    public long time(int i) {
        return times[i];
    }

    /** The begin's name; null for an end. */
    public String name(int i) {
        return names[i];
    }

    public Category category(int i) {
        return categories[i];
    }

    public void addBegin(long timestampNs, String name, Category category) {
        add(timestampNs, name == null ? "" : name, category);
    }

    public void addEnd(long timestampNs, Category category) {
        add(timestampNs, null, category);
    }

    private void add(long timestampNs, String name, Category category) {
        if (size == times.length) {
            int capacity = Math.max(8, size * 2); // from a capacity of 0 too
            times = Arrays.copyOf(times, capacity);
            names = Arrays.copyOf(names, capacity);
            categories = Arrays.copyOf(categories, capacity);
        }
        times[size] = timestampNs;
        names[size] = name;
        categories[size++] = category;
    }

    /** Moves element {@code from} to {@code to} (<= from): how a stage compacts the elements it keeps. */
    public void keep(int from, int to) {
        if (from != to) {
            times[to] = times[from];
            names[to] = names[from];
            categories[to] = categories[from];
        }
    }

    /** Leaves the first {@code newSize} elements. */
    public void truncate(int newSize) {
        Arrays.fill(names, newSize, size, null);
        Arrays.fill(categories, newSize, size, null);
        size = newSize;
    }

    /** Takes the last element off the run and returns it as its event. */
    public SinkEvent removeLast() {
        SinkEvent e = event(size - 1);
        truncate(size - 1);
        return e;
    }

    /** Element {@code i} as the event it stands for. */
    public SinkEvent event(int i) {
        return names[i] != null
                ? new RegionBegin(times[i], pid, tid, names[i], categories[i], List.of(), RegionMetrics.NONE)
                : new RegionEnd(times[i], pid, tid, categories[i], List.of(), RegionMetrics.NONE, false);
    }

    /** Hands every element, in order, to {@code to} as its event. */
    public void forEachEvent(Consumer<? super SinkEvent> to) {
        for (int i = 0; i < size; i++) {
            to.accept(event(i));
        }
    }

    /** A consumer that hands runs on to {@code to} element by element, and every other event as it is. */
    public static Consumer<TraceEvent> expanding(Consumer<? super TraceEvent> to) {
        return e -> {
            if (e instanceof RegionRun r) {
                r.forEachEvent(to);
            } else {
                to.accept(e);
            }
        };
    }

    @Override
    public String toString() {
        return "RegionRun[pid=" + pid + ", tid=" + tid + ", size=" + size + "]";
    }
}
