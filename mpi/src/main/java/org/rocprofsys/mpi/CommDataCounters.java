package org.rocprofsys.mpi;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.InterceptStage;

/**
 * Upstream's comm_data tracks {@code MPI Comm Send} and {@code MPI Comm Recv} (category comm_data,
 * bytes): the bytes of an MPI call at its begin, 0 at its end. The wrappers annotate a call that
 * moves data with {@code send_bytes} / {@code recv_bytes} at its begin; this stage turns them into
 * the counter samples, and keeps per thread which open MPI calls set a track, so that their ends
 * (plain ones travel in {@link RegionRun}s) set it back to 0. One process's tracks per pid.
 */
final class CommDataCounters implements InterceptStage {
    static final String SEND_TRACK = "MPI Comm Send";
    static final String RECV_TRACK = "MPI Comm Recv";
    static final String SEND_BYTES = "send_bytes";
    static final String RECV_BYTES = "recv_bytes";
    static final String UNIT = "bytes";
    private static final int SENDS = 1;
    private static final int RECEIVES = 2;

    /**
     * Per thread: the open MPI calls' tracks (2 bits each, innermost lowest; MPI calls nest little,
     * the innermost 32 are kept) and how many are open.
     */
    private final Map<Long, long[]> open = new HashMap<>();

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return event -> {
            downstream.accept(event);
            switch (event) {
                case RegionBegin b when b.category() == Category.MPI -> begin(downstream, b);
                case RegionEnd e
                when e.category() == Category.MPI -> end(downstream, e.timestampNs(), e.pid(), e.tid());
                case RegionRun r -> run(downstream, r);
                default -> {}
            }
        };
    }

    private void begin(Consumer<TraceEvent> downstream, RegionBegin b) {
        int tracks = 0;
        for (Annotation a : b.annotations()) {
            if (a.value() instanceof AnnotationValue.Signed(long bytes) && bytes > 0) {
                if (a.name().equals(SEND_BYTES)) {
                    tracks |= SENDS;
                    downstream.accept(new CounterSample(b.timestampNs(), track(SEND_TRACK, b.pid()), bytes));
                } else if (a.name().equals(RECV_BYTES)) {
                    tracks |= RECEIVES;
                    downstream.accept(new CounterSample(b.timestampNs(), track(RECV_TRACK, b.pid()), bytes));
                }
            }
        }
        push(b.pid(), b.tid(), tracks);
    }

    private void run(Consumer<TraceEvent> downstream, RegionRun r) {
        for (int i = 0; i < r.size(); i++) {
            if (r.category(i) != Category.MPI) {
                continue;
            }
            if (r.isBegin(i)) {
                push(r.pid(), r.tid(), 0);
            } else {
                end(downstream, r.time(i), r.pid(), r.tid());
            }
        }
    }

    private void push(int pid, int tid, int tracks) {
        long[] stack = open.computeIfAbsent(key(pid, tid), k -> new long[2]);
        stack[0] = (stack[0] << 2) | tracks;
        stack[1]++;
    }

    private void end(Consumer<TraceEvent> downstream, long time, int pid, int tid) {
        long[] stack = open.get(key(pid, tid));
        if (stack == null || stack[1] == 0) {
            return;
        }
        int tracks = (int) (stack[0] & 3);
        stack[0] >>>= 2;
        stack[1]--;
        if ((tracks & SENDS) != 0) {
            downstream.accept(new CounterSample(time, track(SEND_TRACK, pid), 0));
        }
        if ((tracks & RECEIVES) != 0) {
            downstream.accept(new CounterSample(time, track(RECV_TRACK, pid), 0));
        }
    }

    private static CounterTrack track(String name, int pid) {
        return new CounterTrack(name, UNIT, Category.COMM_DATA, pid);
    }

    private static long key(int pid, int tid) {
        return ((long) pid << 32) | (tid & 0xffffffffL);
    }
}
