package org.rocprofsys.sampler.source;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The CPU counters read with each stack sample, as upstream's per-thread sampled counter tracks:
 * {@code Thread <event> [<thread number>] (S)}, each value the counter's change over the interval
 * the sample stands for. Two samplers give them:
 * <ul>
 * <li>the agent's timers: raw values of the thread's counter group ({@link #accept(AgentStackSample,
 * Consumer)}); a value is the change since the thread's previous sample, and a thread's first
 * sample starts its series;</li>
 * <li>perf's samples: changes made by {@link PerfSampleCounts} ({@link #offer}); they may come
 * before the THREAD_START that numbers their thread, and wait for it (up to {@value UnnumberedThreads#MAX_HELD}),
 * or until their process ends or {@link #flush} (then numbered by their tid, as a thread the agent
 * never announced is).</li>
 * </ul>
 * The collector thread calls it, and the perf source's {@code stop} once at the end: hence synchronized.
 */
final class SampleCounters {
    /** One sample's counter changes, by the run's counter order ({@link RegionMetrics#ABSENT} where none). */
    record Changes(long timestampNs, int pid, int tid, long[] values) {}

    private final List<String> names;
    private final Map<Long, Integer> sequences = new HashMap<>();
    /** The agent's raw values of each thread's previous sample. */
    private final Map<Long, long[]> previous = new HashMap<>();
    /** perf's changes of threads not numbered yet. */
    private final UnnumberedThreads<Changes> held = new UnnumberedThreads<>();

    SampleCounters(List<String> names) {
        this.names = List.copyOf(names);
    }

    boolean isEmpty() {
        return names.isEmpty();
    }

    /** Learns a thread's number; its changes that waited for it go to {@code out}. */
    synchronized void started(ThreadStarted t, Consumer<? super CounterSample> out) {
        long k = ThreadTable.key(t.pid(), t.tid());
        sequences.put(k, t.sequence());
        previous.remove(k);
        for (Changes c : held.release(t.pid(), t.tid())) {
            emit(c, t.sequence(), out);
        }
    }

    /** The agent's sample: the change of each counter since the thread's previous sample. */
    synchronized void accept(AgentStackSample s, Consumer<? super CounterSample> out) {
        long[] now = s.counters();
        if (names.isEmpty() || now.length == 0) {
            return;
        }
        long k = ThreadTable.key(s.pid(), s.tid());
        long[] before = previous.put(k, now);
        if (before == null) {
            return;
        }
        long[] change = new long[Math.min(now.length, before.length)];
        for (int i = 0; i < change.length; i++) {
            change[i] = now[i] == RegionMetrics.ABSENT || before[i] == RegionMetrics.ABSENT
                    ? RegionMetrics.ABSENT
                    : now[i] - before[i];
        }
        emit(new Changes(s.timestampNs(), s.pid(), s.tid(), change), sequences.getOrDefault(k, s.tid()), out);
    }

    /** perf's changes: on their thread's track now, or once the thread's number is known. */
    synchronized void offer(Changes c, Consumer<? super CounterSample> out) {
        long k = ThreadTable.key(c.pid(), c.tid());
        Integer seq = sequences.get(k);
        if (seq != null) {
            emit(c, seq, out);
        } else {
            held.hold(c.pid(), c.tid(), c);
        }
    }

    /** A process ended: the changes of its threads that were never numbered go on under their tids. */
    synchronized void ended(int pid, Consumer<? super CounterSample> out) {
        for (Changes c : held.releaseProcess(pid)) {
            emit(c, c.tid(), out);
        }
    }

    /** Every change still waiting goes on under its tid (the end of the run). */
    synchronized void flush(Consumer<? super CounterSample> out) {
        for (Changes c : held.releaseAll()) {
            emit(c, c.tid(), out);
        }
    }

    private void emit(Changes c, int seq, Consumer<? super CounterSample> out) {
        for (int i = 0; i < Math.min(names.size(), c.values().length); i++) {
            if (c.values()[i] == RegionMetrics.ABSENT) {
                continue;
            }
            CounterTrack track = new CounterTrack(
                    "Thread " + names.get(i) + " [" + seq + "] (S)", "", Category.THREAD_HARDWARE_COUNTER, c.pid());
            out.accept(new CounterSample(c.timestampNs(), track, c.values()[i]));
        }
    }
}
