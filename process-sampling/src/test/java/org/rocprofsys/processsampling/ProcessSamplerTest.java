package org.rocprofsys.processsampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.TraceEvent;

/** The readers on a fake /proc and /sys tree written in the kernel's exact formats. */
class ProcessSamplerTest {
    @TempDir
    Path root;

    private void file(String path, String content) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    /** A process whose stat line has a command name with spaces and parentheses, as the kernel allows. */
    private void process(
            int pid,
            String children,
            long rssPages,
            long vmKb,
            long hwmKb,
            long vol,
            long nonvol,
            long minflt,
            long majflt,
            long utime,
            long stime)
            throws IOException {
        file("proc/" + pid + "/statm", "12345 " + rssPages + " 300 10 0 500 0\n");
        file(
                "proc/" + pid + "/status",
                "Name:\tapp\nVmPeak:\t  99999 kB\nVmSize:\t " + vmKb + " kB\nVmHWM:\t "
                        + hwmKb + " kB\nVmRSS:\t 1 kB\nvoluntary_ctxt_switches:\t" + vol
                        + "\nnonvoluntary_ctxt_switches:\t"
                        + nonvol + "\n");
        file(
                "proc/" + pid + "/stat",
                pid + " (my (odd) app) S 1 " + pid + " " + pid + " 0 -1 4194560 " + minflt + " 0 " + majflt + " 0 "
                        + utime + " " + stime + " 0 0 20 0 1 0 100 1000 200 18446744073709551615\n");
        file(
                "proc/" + pid + "/io",
                "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 1048576\nwrite_bytes: 2097152\n"
                        + "cancelled_write_bytes: 0\n");
        file("proc/" + pid + "/task/" + pid + "/children", children);
        thread(pid, pid, vol, nonvol); // a process's own status file is its main thread's
    }

    /** Thread {@code tid} of process {@code pid}, with its own context switches. */
    private void thread(int pid, int tid, long vol, long nonvol) throws IOException {
        file(
                "proc/" + pid + "/task/" + tid + "/status",
                "Name:\tapp\nvoluntary_ctxt_switches:\t" + vol + "\nnonvoluntary_ctxt_switches:\t" + nonvol + "\n");
    }

    private long now = 1_000_000_000L;

    /** One tick, a second after the previous one (so the slowly refreshed parts are read too). */
    private Map<String, Double> read(MetricReader r) {
        Map<String, Double> values = new LinkedHashMap<>();
        now += 1_000_000_000L;
        r.read(now, s -> values.put(s.track().name() + " [" + s.track().unit() + "]", s.value()));
        return values;
    }

    @Test
    void processTreeIsSummedAndCountersBecomeDeltas() throws IOException {
        process(100, "101 ", 2560, 20480, 8192, 10, 5, 1000, 3, 250, 50);
        process(101, "", 512, 4096, 2048, 1, 1, 10, 0, 100, 0);
        file(
                "proc/100/net/dev",
                "Inter-|   Receive                                                |  Transmit\n"
                        + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
                        + "    lo: 999999      10    0    0    0     0          0         0   999999      10    0    0    0     0       0          0\n"
                        + "  eth0: 1048576     100    0    0    0     0          0         0  2097152     200    0    0    0     0       0          0\n");
        ProcessTreeReader reader = new ProcessTreeReader(root, 100);
        Map<String, Double> first = read(reader);
        assertEquals(12.0, first.get("CPU Memory Usage (S) [MB]"), 1e-9); // (2560 + 512) pages of 4 KiB
        assertEquals(24.0, first.get("CPU Virtual Memory Usage (S) [MB]"), 1e-9);
        assertEquals(10.0, first.get("CPU Peak Memory (S) [MB]"), 1e-9);
        assertEquals(0.0, first.get("CPU Context Switches (S) []")); // the first tick has no previous one
        assertEquals(0.0, first.get("Network Receive (S) [MB]")); // loopback is not counted

        process(100, "101 ", 2560, 20480, 8192, 20, 7, 1100, 4, 300, 60);
        process(101, "", 512, 4096, 2048, 2, 1, 10, 0, 110, 0);
        file("proc/100/io", "read_bytes: 3145728\nwrite_bytes: 2097152\n");
        file("proc/100/net/dev", "h1\nh2\n  eth0: 2097152 1 0 0 0 0 0 0 2097152 1 0 0 0 0 0 0\n");
        Map<String, Double> second = read(reader);
        assertEquals(13.0, second.get("CPU Context Switches (S) []"));
        assertEquals(101.0, second.get("CPU Page Faults (S) []"));
        assertEquals(0.6, second.get("CPU User Time (S) [sec]"), 1e-9);
        assertEquals(0.1, second.get("CPU Kernel Time (S) [sec]"), 1e-9);
        assertEquals(2.0, second.get("CPU I/O Read (S) [MB]"), 1e-9);
        assertEquals(0.0, second.get("CPU I/O Write (S) [MB]"), 1e-9);
        assertEquals(1.0, second.get("Network Receive (S) [MB]"), 1e-9);
        assertEquals(0.0, second.get("Network Transmit (S) [MB]"), 1e-9);
    }

    /** Issue 36, item 6: every thread's switches count, and a thread that ends takes none back. */
    @Test
    void contextSwitchesAreSummedOverTheThreads() throws IOException {
        process(100, "", 2560, 20480, 8192, 2, 0, 10, 0, 1, 1);
        thread(100, 102, 1000, 5);
        thread(100, 103, 2000, 5);
        ProcessTreeReader reader = new ProcessTreeReader(root, 100);
        assertEquals(0.0, read(reader).get("CPU Context Switches (S) []"));

        process(100, "", 2560, 20480, 8192, 3, 0, 10, 0, 1, 1);
        thread(100, 102, 1500, 5);
        thread(100, 103, 2100, 10);
        thread(100, 104, 40, 2); // began since the last tick: all of its switches are new
        assertEquals(1.0 + 500 + 105 + 42, read(reader).get("CPU Context Switches (S) []"));

        Files.walk(root.resolve("proc/100/task/103"))
                .sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        thread(100, 102, 1510, 5);
        assertEquals(10.0, read(reader).get("CPU Context Switches (S) []"));
    }

    @Test
    void goneTargetReportsNothing() {
        assertTrue(read(new ProcessTreeReader(root, 4242)).isEmpty());
    }

    @Test
    void cpuFrequencyFromCpufreqElseCpuinfo() throws IOException {
        file("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2394000\n");
        file("proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 1000.000\n\nprocessor\t: 1\ncpu MHz\t\t: 2994.374\n\n");
        Map<String, Double> mhz = read(new CpuFrequencyReader(root, List.of(0, 1)));
        assertEquals(Map.of("CPU Frequency [0] (S) [MHz]", 2394.0, "CPU Frequency [1] (S) [MHz]", 2994.374), mhz);
    }

    @Test
    void cpuSelection() {
        assertEquals(List.of(), CpuSelection.parse("none", 8));
        assertEquals(List.of(0, 1, 2, 3), CpuSelection.parse("", 4));
        assertEquals(List.of(0, 1, 2, 6), CpuSelection.parse("0-2,6", 8));
        assertEquals(List.of(0, 1), CpuSelection.parse("0-4", 2));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CpuSelection.parse("3-1", 8))
                .getMessage()
                .contains("'3-1'"));
    }

    /** A reader of one series that reads 1 at every tick. */
    /** Readers made once {@code detected} is counted down, as after the GPUs' detection; then counts down {@code made}. */
    private static IntFunction<List<MetricReader>> readersOnce(CountDownLatch detected, CountDownLatch made) {
        return pid -> {
            try {
                detected.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            made.countDown();
            return List.of(ones());
        };
    }

    private static MetricReader ones() {
        return (t, out) -> out.accept(new CounterSample(
                t,
                new org.rocprofsys.core.event.CounterTrack("X (S)", "", org.rocprofsys.core.event.Category.NONE, 0),
                1));
    }

    /** A sampler of {@link #ones} at {@code hz}, started, handing its values to {@code events}. */
    private static ProcessSampler started(double hz, List<TraceEvent> events) {
        ProcessSampler sampler = new ProcessSampler(hz, 0, pid -> List.of(ones()), System.err, () -> {});
        sampler.start(1, events::add);
        return sampler;
    }

    @Test
    void samplerTicksAtItsFrequencyAndEndsEverySeriesWithZero() throws Exception {
        List<TraceEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        ProcessSampler sampler = started(100, events);
        Thread.sleep(300);
        sampler.stop(42);
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        int ticks = events.size() - 1;
        // at most one tick per 10 ms of the time it ran (a busy machine may give its thread fewer
        // ticks, never more), and at least one
        assertTrue(ticks >= 1 && ticks <= elapsedMs / 10 + 2, ticks + " ticks in " + elapsedMs + " ms at 100 Hz");
        CounterSample last = (CounterSample) events.getLast();
        assertEquals(42, last.timestampNs());
        assertEquals(0.0, last.value());
    }

    /** While the target runs nothing is handed on: the collector's thread has no work from it then. */
    @Test
    void valuesWaitUntilTheSamplerStops() throws Exception {
        List<TraceEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        ProcessSampler sampler = started(200, events);
        Thread.sleep(200);
        assertEquals(0, events.size(), "values handed on while sampling");
        sampler.stop(System.nanoTime());
        assertTrue(
                events.size() >= 2, events.size() + " values"); // some values (fewer on a busy machine), the closing 0
        // the held values in their order (the last event is the series' closing 0, at stop's time)
        for (int i = 1; i < events.size() - 1; i++) {
            assertTrue(events.get(i).timestampNs() >= events.get(i - 1).timestampNs(), "in time order");
        }
    }

    @Test
    void durationStopsSampling() throws Exception {
        List<TraceEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        MetricReader reader = ones();
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        ProcessSampler sampler =
                new ProcessSampler(100, 0.05, pid -> List.of(reader), new java.io.PrintStream(log, true), () -> {});
        sampler.start(1, events::add);
        Thread.sleep(400);
        sampler.stop(1);
        int ticks = events.size() - 1; // the last is the series' closing 0
        // none after the 50 ms (a busy machine may start the thread late and give it none before)
        assertTrue(ticks <= 10, "sampling stopped after 50 ms: " + ticks);
        assertTrue(
                log.toString().contains("Background process sampling duration of 0.050000 seconds has elapsed"),
                log::toString);
    }

    @Test
    void readersAreMadeOnTheSamplingThreadSoStartNeverWaitsForThem() throws Exception {
        // the factory waits, as it does for the GPUs' detection: start must not
        CountDownLatch detected = new CountDownLatch(1);
        List<TraceEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        ProcessSampler sampler =
                new ProcessSampler(100, 0, readersOnce(detected, new CountDownLatch(1)), System.err, () -> {});
        Thread.ofPlatform()
                .daemon()
                .start(
                        () -> { // the detection ends a second later
                            try {
                                Thread.sleep(1000);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            detected.countDown();
                        });
        long t0 = System.nanoTime();
        sampler.start(1, events::add);
        long took = System.nanoTime() - t0;
        assertTrue(took < 500_000_000L, "start waited for the readers: " + took / 1_000_000 + " ms");
        detected.await();
        Thread.sleep(200);
        sampler.stop(7);
        assertTrue(events.size() >= 2, "samples once the readers came, then the closing 0: " + events);
    }

    @Test
    void aStopBeforeTheReadersAreMadeDoesNotWaitForThemAndNothingIsSampledAfterIt() throws Exception {
        // a run shorter than the GPUs' detection: its end must not wait for the detection
        CountDownLatch detected = new CountDownLatch(1);
        CountDownLatch made = new CountDownLatch(1);
        List<TraceEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean released = new AtomicBoolean();
        ProcessSampler sampler =
                new ProcessSampler(1000, 0, readersOnce(detected, made), System.err, () -> released.set(true));
        sampler.start(1, events::add);
        Thread.sleep(50);
        // stopped from a thread of its own, so that a stop that waits fails the test, not hangs it
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            sampler.stop(7);
            stopped.complete(null);
        });
        boolean waited = false;
        try {
            stopped.get(2, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            waited = true;
        } finally {
            detected.countDown(); // the detection ends after the run
        }
        assertFalse(waited, "stop waited for the readers");
        assertTrue(released.get());
        assertTrue(made.await(5, TimeUnit.SECONDS));
        Thread.sleep(100);
        assertEquals(List.of(), events);
    }

    @Test
    void aSamplerWithNothingToReadEndsAtOnceAndWritesNothing() throws Exception {
        List<TraceEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean released = new AtomicBoolean();
        ProcessSampler sampler = new ProcessSampler(1000, 0, pid -> List.of(), System.err, () -> released.set(true));
        sampler.start(1, events::add);
        Thread.sleep(100);
        sampler.stop(7);
        assertEquals(List.of(), events);
        assertTrue(released.get());
    }
}
