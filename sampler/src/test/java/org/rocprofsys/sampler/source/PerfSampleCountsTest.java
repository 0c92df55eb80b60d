package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.sampler.counters.PerfCounter;
import org.rocprofsys.sampler.perf.PerfRecord;

/** The CPU counters in perf's samples: per-(thread, CPU) changes, and the per-thread tracks of a real run. */
class PerfSampleCountsTest {
    private static final String CLOCK = "perf::PERF_COUNT_SW_CPU_CLOCK";
    private static final String FAULTS = "perf::PERF_COUNT_SW_PAGE_FAULTS";

    private static Optional<PerfCounter> counter(String name) {
        return PerfCounter.ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** A sample of {@code tid} on {@code cpu} carrying the leader's count (id 1) then members' (ids 10, 11). */
    private static PerfRecord.Sample sample(int tid, int cpu, long leader, long... members) {
        long[] values = new long[1 + members.length];
        long[] ids = new long[values.length];
        values[0] = leader;
        ids[0] = 1;
        for (int i = 0; i < members.length; i++) {
            values[1 + i] = members[i];
            ids[1 + i] = 10 + i;
        }
        return new PerfRecord.Sample(
                0,
                7,
                tid,
                cpu,
                0,
                0,
                PerfRecord.CPUMODE_USER,
                new long[0],
                new long[0],
                0,
                new long[0],
                new byte[0],
                new PerfRecord.Counts(values, ids));
    }

    private static int member(long id) {
        return id >= 10 ? (int) (id - 10) : -1;
    }

    @Test
    void changesArePerThreadAndCpuFromZero() {
        // slot 1 was refused: its values are absent, the members are slots 0 and 2
        PerfSampleCounts c = new PerfSampleCounts(
                List.of(CLOCK, "perf::CYCLES", FAULTS), List.of(counter(CLOCK), Optional.empty(), counter(FAULTS)));
        assertEquals(2, c.members().size());
        long a = RegionMetrics.ABSENT;
        // a copy's first sample: its whole count (it counts from the thread's start on that CPU)
        assertArrayEquals(
                new long[] {1_000, a, 3}, c.changes(sample(8, 0, 1_000, 1_000, 3), PerfSampleCountsTest::member));
        assertArrayEquals(
                new long[] {900, a, 0}, c.changes(sample(8, 0, 1_900, 1_900, 3), PerfSampleCountsTest::member));
        // the same thread on another CPU: another copy, from 0
        assertArrayEquals(new long[] {500, a, 1}, c.changes(sample(8, 1, 500, 500, 1), PerfSampleCountsTest::member));
        assertArrayEquals(
                new long[] {1_100, a, 2}, c.changes(sample(8, 0, 3_000, 3_000, 5), PerfSampleCountsTest::member));
        // another thread on CPU 0
        assertArrayEquals(new long[] {40, a, 0}, c.changes(sample(9, 0, 40, 40, 0), PerfSampleCountsTest::member));
        // thread 8 ends; a new thread with its tid starts from 0 again
        c.threadEnded(8);
        assertArrayEquals(new long[] {70, a, 1}, c.changes(sample(8, 0, 70, 70, 1), PerfSampleCountsTest::member));
        // a count that went backwards without an exit seen: a new copy too, never a negative change
        assertArrayEquals(new long[] {10, a, 0}, c.changes(sample(8, 0, 10, 10, 0), PerfSampleCountsTest::member));
        // a sample without counts
        assertNull(c.changes(sample(8, 0, 10), PerfSampleCountsTest::member));
        assertTrue(PerfSampleCounts.none().isEmpty());
    }

    /**
     * burn.c through the source with perf::PERF_COUNT_SW_CPU_CLOCK and page faults: the intercept
     * stage names the changes by the THREAD_START numbers, and each thread's cpu-clock changes add
     * up to the CPU time it spun.
     */
    @Test
    void aRealRunGivesEachThreadsTracksWhoseChangesAddUpToItsCpuTime() throws Exception {
        Path burn = BurnProgram.build("burn-counters");
        int millis = 400;
        Process shim = BurnProgram.held(burn, millis);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PerfSamplingSource source = new PerfSamplingSource(
                new PerfSamplingSource.Config(1000, 0, 0)
                        .withCounters(List.of(CLOCK, FAULTS), List.of(counter(CLOCK), counter(FAULTS))),
                new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        source.attachBeforeExec((int) shim.pid());
        String log = logBytes.toString(StandardCharsets.UTF_8);
        if (log.contains("call-stack sampling is off")) {
            shim.destroyForcibly();
            abort("perf_event_open is refused here: " + log.strip());
        }
        if (log.contains("carry no CPU counters")) {
            shim.destroyForcibly();
            abort("this kernel does not put counters in perf samples of inherited events: " + log.strip());
        }
        List<CounterSample> counters = new ArrayList<>();
        Consumer<TraceEvent> head = source.intercept(e -> {
            if (e instanceof CounterSample c) {
                synchronized (counters) {
                    counters.add(c);
                }
            }
        });
        source.start((int) shim.pid(), head);
        try (OutputStream release = shim.getOutputStream()) {
            release.write('\n');
        }
        assertTrue(shim.waitFor(60, TimeUnit.SECONDS), "the test program did not end");
        String out = new String(shim.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("pid=(\\d+) tid1=(\\d+) tid2=(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        int pid = Integer.parseInt(m.group(1));
        // the agent's THREAD_START records, late (perf's changes wait for them)
        head.accept(new ThreadStarted(1, pid, pid, 0));
        head.accept(new ThreadStarted(2, pid, Integer.parseInt(m.group(2)), 1));
        head.accept(new ThreadStarted(3, pid, Integer.parseInt(m.group(3)), 2));
        source.stop(System.nanoTime());

        Map<String, double[]> tracks = new TreeMap<>(); // name -> {sum, count, min}
        synchronized (counters) {
            for (CounterSample c : counters) {
                assertEquals(pid, c.pid());
                double[] t = tracks.computeIfAbsent(c.track().name(), k -> new double[] {0, 0, Double.MAX_VALUE});
                t[0] += c.value();
                t[1]++;
                t[2] = Math.min(t[2], c.value());
            }
        }
        System.out.println("perf sample counters: "
                + tracks.entrySet().stream()
                        .map(e -> e.getKey() + " sum " + (long) e.getValue()[0] + " over " + (long) e.getValue()[1])
                        .toList());
        for (int seq = 0; seq <= 2; seq++) {
            double[] clock = tracks.get("Thread " + CLOCK + " [" + seq + "] (S)");
            double[] faults = tracks.get("Thread " + FAULTS + " [" + seq + "] (S)");
            assertTrue(clock != null && faults != null, "thread " + seq + " has both tracks: " + tracks.keySet());
            assertTrue(clock[2] >= 0 && faults[2] >= 0, "changes are never negative");
            // the thread spun `millis` ms of its own CPU time
            assertTrue(
                    clock[0] >= millis * 1e6 * 0.85 && clock[0] <= millis * 1e6 * 1.3,
                    "thread " + seq + ": " + clock[0] + " ns of cpu-clock over its samples");
            assertTrue(clock[1] >= millis / 4, clock[1] + " samples of thread " + seq);
        }
        assertTrue(tracks.get("Thread " + FAULTS + " [0] (S)")[0] > 0, "the main thread faults its pages in");
        assertEquals(6, tracks.size(), "no track named by a tid: " + tracks.keySet());
    }
}
