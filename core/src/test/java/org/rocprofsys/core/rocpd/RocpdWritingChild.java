package org.rocprofsys.core.rocpd;

import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.ThreadStarted;

/**
 * A collector that never finishes, for {@code RocpdSinkTest}'s kill test: it writes regions into
 * the database named by its argument, says {@code committed N} once a commit of at least N
 * regions has reached the file, and goes on writing (and committing) until it is killed.
 */
public final class RocpdWritingChild {
    static final String COMMITTED = "committed";
    private static final int PID = 4242;

    private RocpdWritingChild() {}

    public static void main(String[] args) throws Exception {
        RocpdSink sink = RocpdSink.create(Path.of(args[0]), PID);
        long t = 1_000_000_000L;
        sink.accept(new ProcessStarted(t, PID, 1, "/bin/app", List.of("/bin/app"), 0, 0));
        sink.accept(new ThreadStarted(t, PID, PID, 0));
        long regions = 0;
        for (; regions < RocpdSink.COMMIT_ROWS + 10_000; regions++) {
            t = region(sink, t, regions);
        }
        // half a second later, the next check of the sink commits what came before it
        Thread.sleep(RocpdSink.COMMIT_NANOS / 1_000_000 + 100);
        long committed = regions;
        for (int i = 0; i < 4096; i++) {
            t = region(sink, t, regions++);
        }
        sink.awaitWriter();
        System.out.println(COMMITTED + " " + committed);
        System.out.flush();
        while (true) {
            t = region(sink, t, regions++);
        }
    }

    private static long region(RocpdSink sink, long t, long i) throws java.io.IOException {
        sink.accept(new RegionBegin(t + 10, PID, PID, "r" + (i & 15), Category.USER, List.of(), RegionMetrics.NONE));
        sink.accept(new RegionEnd(t + 20, PID, PID, Category.USER, List.of(), RegionMetrics.NONE, false));
        return t + 20;
    }
}
