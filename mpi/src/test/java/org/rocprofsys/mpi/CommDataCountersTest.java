package org.rocprofsys.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.Annotation;
import org.rocprofsys.core.event.AnnotationValue;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.TraceEvent;

class CommDataCountersTest {
    private static final CounterTrack SEND = new CounterTrack("MPI Comm Send", "bytes", Category.COMM_DATA, 7);
    private static final CounterTrack RECV = new CounterTrack("MPI Comm Recv", "bytes", Category.COMM_DATA, 7);

    @Test
    void aCallsBytesRiseAtItsBeginAndFallToZeroAtItsEnd() {
        List<TraceEvent> out = new ArrayList<>();
        var stage = new CommDataCounters().intercept(out::add);
        var bytes = List.of(
                new Annotation("count", new AnnotationValue.Signed(16)),
                new Annotation("send_bytes", new AnnotationValue.Signed(128)),
                new Annotation("recv_bytes", new AnnotationValue.Signed(64)));
        var begin = new RegionBegin(100, 7, 8, "MPI_Allreduce", Category.MPI, bytes, RegionMetrics.NONE);
        var end = new RegionEnd(200, 7, 8, Category.MPI, List.of(), RegionMetrics.NONE, false);
        stage.accept(begin);
        stage.accept(end);
        assertEquals(
                List.of(
                        begin,
                        new CounterSample(100, SEND, 128),
                        new CounterSample(100, RECV, 64),
                        end,
                        new CounterSample(200, SEND, 0),
                        new CounterSample(200, RECV, 0)),
                out);
    }

    @Test
    void anEndInARunOfPlainRegionsSetsTheTracksBackToZero() {
        List<TraceEvent> out = new ArrayList<>();
        var stage = new CommDataCounters().intercept(out::add);
        var send = new RegionBegin(
                100,
                7,
                8,
                "MPI_Send",
                Category.MPI,
                List.of(new Annotation("send_bytes", new AnnotationValue.Signed(1000))),
                RegionMetrics.NONE);
        var run = new RegionRun(7, 8, 4);
        run.addBegin(150, "MPI_Comm_rank", Category.MPI); // nested, moves nothing
        run.addEnd(160, Category.MPI);
        run.addEnd(200, Category.MPI); // MPI_Send's end
        stage.accept(send);
        stage.accept(run);
        assertEquals(List.of(send, new CounterSample(100, SEND, 1000), run, new CounterSample(200, SEND, 0)), out);
    }

    @Test
    void otherCategoriesAndPlainCallsPassUntouched() {
        List<TraceEvent> out = new ArrayList<>();
        var stage = new CommDataCounters().intercept(out::add);
        var user = new RegionBegin(
                1,
                7,
                8,
                "r",
                Category.USER,
                List.of(new Annotation("send_bytes", new AnnotationValue.Signed(5))),
                RegionMetrics.NONE);
        var barrier = new RegionBegin(2, 7, 8, "MPI_Barrier", Category.MPI, List.of(), RegionMetrics.NONE);
        stage.accept(user);
        stage.accept(barrier);
        assertEquals(List.of(user, barrier), out);
    }
}
