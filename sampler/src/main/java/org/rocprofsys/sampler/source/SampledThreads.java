package org.rocprofsys.sampler.source;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.tracker.ThreadTable;

/**
 * The one thread filter of the call-stack samples, perf's and the agent's alike: a sample goes on
 * when its kind's {@link ThreadFilter} (SAMPLING_TIDS, SAMPLING_CPUTIME_TIDS for CPU time,
 * SAMPLING_REALTIME_TIDS for wall time, SAMPLING_OVERFLOW_TIDS for overflows) selects its thread's number, which the agent's THREAD_START
 * records give. perf's samples can come before the thread's ring says its number: they wait for it
 * (up to {@value UnnumberedThreads#MAX_HELD} in all), and those of a process that never said it are dropped at its
 * end. The agent's timers run only on their selected threads and start after THREAD_START, so its
 * samples pass here as they were taken. Used on the collector thread only.
 */
final class SampledThreads {
    private final ThreadFilter cpu;
    private final ThreadFilter wall;
    private final ThreadFilter overflow;
    /** (pid, tid) -> thread number, from THREAD_START; kept after a process ends (its perf samples may be late). */
    private final Map<Long, Integer> numbers = new HashMap<>();
    /** Samples of threads whose number is not known yet. */
    private final UnnumberedThreads<StackSample> held = new UnnumberedThreads<>();

    /**
     * @param cpu  the threads whose CPU-time samples go on
     * @param wall the threads whose wall-time samples go on
     */
    SampledThreads(ThreadFilter cpu, ThreadFilter wall) {
        this(cpu, wall, ThreadFilter.all());
    }

    /** @param overflow the threads whose overflow samples go on (SAMPLING_OVERFLOW_TIDS) */
    SampledThreads(ThreadFilter cpu, ThreadFilter wall, ThreadFilter overflow) {
        this.cpu = cpu;
        this.wall = wall;
        this.overflow = overflow;
    }

    /** Whether every sample goes on. */
    boolean isAll() {
        return cpu.isAll() && wall.isAll() && overflow.isAll();
    }

    private ThreadFilter filter(StackSample.Kind kind) {
        return switch (kind) {
            case CPU -> cpu;
            case WALL -> wall;
            case OVERFLOW -> overflow;
        };
    }

    /** Hands {@code s} to {@code out}, drops it, or keeps it until its thread's number is known. */
    void offer(StackSample s, Consumer<? super StackSample> out) {
        ThreadFilter f = filter(s.kind());
        if (f.isAll()) {
            out.accept(s);
            return;
        }
        Integer seq = numbers.get(ThreadTable.key(s.pid(), s.tid()));
        if (seq != null) {
            if (f.selects(seq)) {
                out.accept(s);
            }
        } else {
            held.hold(s.pid(), s.tid(), s);
        }
    }

    /** Learns a thread's number; its samples that waited for it go on (the selected ones) to {@code out}. */
    void started(ThreadStarted t, Consumer<? super StackSample> out) {
        numbers.put(ThreadTable.key(t.pid(), t.tid()), t.sequence());
        for (StackSample s : held.release(t.pid(), t.tid())) {
            if (filter(s.kind()).selects(t.sequence())) {
                out.accept(s);
            }
        }
    }

    /** Drops the waiting samples of a process that has ended: their threads never said their number. */
    void ended(int pid) {
        held.releaseProcess(pid);
    }
}
