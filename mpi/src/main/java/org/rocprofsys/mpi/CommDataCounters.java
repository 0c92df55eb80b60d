package org.rocprofsys.mpi;

import java.util.function.Consumer;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.InterceptStage;

/**
 * Upstream's comm_data tracks {@code MPI Comm Send} and {@code MPI Comm Recv} (category comm_data,
 * bytes): the bytes of an MPI call at its begin, 0 at its end. The wrappers annotate both ends of a
 * call that moves data with {@code send_bytes} / {@code recv_bytes}; this stage turns them into the
 * counter samples, one process's tracks per pid.
 */
final class CommDataCounters implements InterceptStage {
    static final String SEND_TRACK = "MPI Comm Send";
    static final String RECV_TRACK = "MPI Comm Recv";
    static final String SEND_BYTES = "send_bytes";
    static final String RECV_BYTES = "recv_bytes";
    static final String UNIT = "bytes";

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return event -> {
            downstream.accept(event);
            switch (event) {
                case RegionBegin b
                when b.category() == Category.MPI && !b.annotations().isEmpty() ->
                    samples(downstream, b.timestampNs(), b.pid(), b.annotations(), true);
                case RegionEnd e
                when e.category() == Category.MPI && !e.annotations().isEmpty() ->
                    samples(downstream, e.timestampNs(), e.pid(), e.annotations(), false);
                default -> {}
            }
        };
    }

    private static void samples(
            Consumer<TraceEvent> downstream, long time, int pid, Iterable<Annotation> annotations, boolean begin) {
        for (Annotation a : annotations) {
            String track = switch (a.name()) {
                case SEND_BYTES -> SEND_TRACK;
                case RECV_BYTES -> RECV_TRACK;
                default -> null;
            };
            if (track != null && a.value() instanceof AnnotationValue.Signed(long bytes)) {
                downstream.accept(new CounterSample(
                        time, new CounterTrack(track, UNIT, Category.COMM_DATA, pid), begin ? bytes : 0));
            }
        }
    }
}
