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
import org.rocprofsys.core.event.TraceEvent;

/**
 * The CPU counters the agent reads with each of its stack samples, as upstream's per-thread
 * sampled counter tracks: {@code Thread <event> [<thread number>] (S)}, each value the counter's
 * change since the thread's previous sample (the first sample of a thread starts its series).
 */
final class SampleCounters {
    private final List<String> names;
    private final Map<Long, Integer> sequences = new HashMap<>();
    private final Map<Long, long[]> previous = new HashMap<>();

    SampleCounters(List<String> names) {
        this.names = List.copyOf(names);
    }

    void started(ThreadStarted t) {
        sequences.put(key(t.pid(), t.tid()), t.sequence());
        previous.remove(key(t.pid(), t.tid()));
    }

    void accept(AgentStackSample s, Consumer<TraceEvent> out) {
        long[] now = s.counters();
        if (names.isEmpty() || now.length == 0) {
            return;
        }
        long k = key(s.pid(), s.tid());
        long[] before = previous.put(k, now);
        if (before == null) {
            return;
        }
        int seq = sequences.getOrDefault(k, s.tid());
        for (int i = 0; i < Math.min(names.size(), Math.min(now.length, before.length)); i++) {
            if (now[i] == RegionMetrics.ABSENT || before[i] == RegionMetrics.ABSENT) {
                continue;
            }
            CounterTrack track = new CounterTrack(
                    "Thread " + names.get(i) + " [" + seq + "] (S)", "", Category.THREAD_HARDWARE_COUNTER, s.pid());
            out.accept(new CounterSample(s.timestampNs(), track, now[i] - before[i]));
        }
    }

    private static long key(int pid, int tid) {
        return ((long) pid << 32) | (tid & 0xffffffffL);
    }
}
