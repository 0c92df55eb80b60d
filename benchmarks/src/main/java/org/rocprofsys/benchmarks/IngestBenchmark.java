package org.rocprofsys.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.rocprofsys.core.wire.RingDrain;
import org.rocprofsys.core.wire.RingFile;
import org.rocprofsys.core.wire.WireFormat;

/**
 * JMH half of benchmark 2 (collector ingest): one operation turns every record of a ring that the
 * agent itself filled (the file named by {@code -Dbench.ring=}, see {@link IngestBench}) into
 * events. The ring is "refilled" before each operation by moving its tail back to 0: the
 * producer has exited, so the bytes up to head are exactly what the agent wrote, read again from
 * the shared mapping. Baselines over the same bytes in the same fork:
 * <ul>
 * <li>{@link #scanRecords}: walks the record headers and sums the timestamps (what any reader
 * must touch, without making events);</li>
 * <li>{@link #scanBytes}: sums every 8-byte word (the memory-bandwidth floor).</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IngestBenchmark {
    static final String RING_PROPERTY = "bench.ring";

    private RingFile file;
    private RingFile.Ring ring;
    private MemorySegment data;
    private long head;
    private int pid;

    @Setup(Level.Trial)
    public void open() throws Exception {
        Path p = Path.of(System.getProperty(RING_PROPERTY));
        file = RingFile.open(p);
        if (file == null) {
            throw new IllegalStateException(p + ": header not published");
        }
        ring = IngestBench.fullestRing(file);
        pid = file.pid();
        head = ring.head();
        data = ring.data();
        if (head > data.byteSize()) {
            throw new IllegalStateException("the ring wrapped: its first records are gone");
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        file.close();
    }

    /** RingDrain into a consumer that only keeps the events from being optimised away. */
    @Benchmark
    public int drain(Blackhole bh) throws Exception {
        ring.release(0);
        RingDrain d = new RingDrain(pid, ring, bh::consume);
        int n = d.drain();
        d.flushPending();
        return n;
    }

    @Benchmark
    public long scanRecords() {
        long sum = 0;
        long size = data.byteSize();
        long pos = 0;
        while (pos < head) {
            long off = pos & (size - 1);
            int word = data.get(JAVA_INT, off);
            int type = word & 0xffff;
            int len = word >>> 16;
            if (type == WireFormat.REC_PAD) {
                pos += size - off;
                continue;
            }
            if (len < 8) {
                throw new IllegalStateException("corrupt record at " + pos);
            }
            sum += data.get(JAVA_LONG, off + 8);
            pos += len;
        }
        return sum;
    }

    @Benchmark
    public long scanBytes() {
        long sum = 0;
        for (long off = 0; off < head; off += 8) {
            sum += data.get(JAVA_LONG, off);
        }
        return sum;
    }
}
