package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RandomRegionStream;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.timemory.RegionAnnotations;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Region runs encoded in segments on encoder threads read, in trace_processor's terms, as the
 * trace the sink writes alone: the same tracks, slices, times, names, categories and arguments,
 * each segment restarting its sequence's incremental state.
 */
class PerfettoSegmentsTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void segmentsOfRandomStreamsReadAsTheTraceWrittenOnOneThread() throws IOException {
        for (boolean annotations : new boolean[] {true, false}) {
            for (int seed = 1; seed <= 30; seed++) {
                List<TraceEvent> events = RandomRegionStream.of(seed);
                RunSummary summary = new RunSummary(events.getLast().timestampNs() + 1, MS, 1, "app", Map.of());
                DecodedTrace serial = decode(trace(events, summary, options(annotations, 0), 0, 0));
                for (int[] sizes : new int[][] {{1, 1}, {4, 2}, {16, 3}}) {
                    String what =
                            "seed " + seed + ", annotations " + annotations + ", segments " + sizes[0] + "/" + sizes[1];
                    DecodedTrace segmented =
                            decode(trace(events, summary, options(annotations, 2), sizes[0], sizes[1]));
                    assertSameSlices(serial, segmented, what);
                    assertTrue(stateClears(segmented) > stateClears(serial), what + ": no segment was made");
                }
            }
        }
    }

    @Test
    void aLongThreadIsEncodedInManySegmentsOfTheDefaultSize() throws IOException {
        List<TraceEvent> events = longStream(3, 300_000);
        RunSummary summary = new RunSummary(events.getLast().timestampNs() + 1, MS, 1, "app", Map.of());
        DecodedTrace serial = decode(trace(events, summary, options(true, 0), 0, 0));
        DecodedTrace segmented = decode(trace(
                events,
                summary,
                options(true, 3),
                SegmentEncoders.SEGMENT_REGIONS,
                SegmentEncoders.MIN_SEGMENT_REGIONS));
        assertSameSlices(serial, segmented, "long stream");
        assertEquals(serial.sliceBegins(), segmented.sliceBegins());
        // one clear per thread's start (2 threads, the global sequence) and one per segment
        int segments = stateClears(segmented) - stateClears(serial);
        assertTrue(segments >= 300_000 / SegmentEncoders.SEGMENT_REGIONS - 2, segments + " segments");
    }

    @Test
    void regionValuesCloseOverSegments() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.resolve("home").toString());
        env.put("ROCPROFSYS_PROFILE", "ON");
        env.put("ROCPROFSYS_TRACE", "ON");
        env.put("ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock thread_cpu_clock");
        RegionAnnotations values =
                RegionAnnotations.from(new SettingsLoader(SettingsRegistry.standard(), env, dir).load());
        assertFalse(values.isEmpty());
        List<TraceEvent> events = new ArrayList<>();
        long t = 1000 * MS;
        events.add(new ProcessStarted(t, 1, 0, "/bin/app", List.of("app"), 0, 0));
        events.add(new ThreadStarted(t, 1, 1, 0));
        events.add(new RegionBegin(t + 1, 1, 1, "outer", Category.HOST, List.of(), metrics(1_000)));
        t += 2;
        for (int i = 0; i < 50; i++) {
            events.add(new RegionBegin(t++, 1, 1, "plain", Category.HOST, List.of(), RegionMetrics.NONE));
            events.add(new RegionEnd(t++, 1, 1, Category.HOST, List.of(), RegionMetrics.NONE, false));
        }
        events.add(new RegionEnd(t, 1, 1, Category.HOST, List.of(), metrics(4_000_000), false));
        RunSummary summary = new RunSummary(t + 1, MS, 1, "app", Map.of());
        PerfettoSink.Options serialOptions = new PerfettoSink.Options(true, MS, 0, "app", 1, values, 0);
        PerfettoSink.Options segmentOptions = new PerfettoSink.Options(true, MS, 0, "app", 1, values, 2);
        DecodedTrace serial = decode(trace(events, summary, serialOptions, 0, 0));
        DecodedTrace segmented = decode(trace(events, summary, segmentOptions, 8, 4));
        assertSameSlices(serial, segmented, "region values");
        DecodedTrace.Slice outer = segmented.slice("outer");
        assertEquals(0.003999, (Double) outer.args.get("thread_cpu_clock"), 1e-12, outer::toString);
    }

    @Test
    void aFailingFileFailsTheFinishAndStopsTheEncoders() throws IOException {
        List<TraceEvent> events = longStream(1, 100_000);
        RunSummary summary = new RunSummary(events.getLast().timestampNs() + 1, MS, 1, "app", Map.of());
        OutputStream full = new OutputStream() {
            private long written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                written += len;
                if (written > 200_000) {
                    throw new IOException("No space left on device");
                }
            }
        };
        PerfettoSink sink = new PerfettoSink(full, options(true, 2), 4096, 1024);
        // the feed hands on a failure of acceptRegions unchecked, one of finish as it is
        Exception e = assertThrows(Exception.class, () -> SinkFeed.runGathered(sink, events, summary, 1024));
        Throwable cause = e;
        while (!(cause instanceof IOException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof IOException && cause.getMessage().contains("No space left"), e::toString);
        sink.abandon();
        for (int i = 0; i < 100 && encoderThreadsAlive(); i++) {
            Thread.onSpinWait();
            try {
                Thread.sleep(10);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        assertFalse(encoderThreadsAlive(), "an encoder thread outlived its trace");
    }

    @Test
    void workersAreForMachinesWithCpusToSpare() {
        assertEquals(0, SegmentEncoders.threadsFor(1));
        assertEquals(0, SegmentEncoders.threadsFor(2));
        assertEquals(2, SegmentEncoders.threadsFor(4));
        assertEquals(3, SegmentEncoders.threadsFor(8));
        assertEquals(4, SegmentEncoders.threadsFor(16));
        assertEquals(4, SegmentEncoders.threadsFor(128));
    }

    private static boolean encoderThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(th -> th.getName().startsWith("rocprof-sys-trace-encoder-") && th.isAlive());
    }

    private static RegionMetrics metrics(long cpuNs) {
        return new RegionMetrics(cpuNs, RegionMetrics.ABSENT, RegionMetrics.ABSENT);
    }

    /** Two threads: nested regions of a few names, a mark now and then, the threads taking turns in long stretches. */
    private static List<TraceEvent> longStream(long seed, int regions) {
        Random r = new Random(seed);
        List<TraceEvent> out = new ArrayList<>();
        long t = 1000 * MS;
        out.add(new ProcessStarted(t, 1, 0, "/bin/app", List.of("app"), 0, 0));
        out.add(new ThreadStarted(t, 1, 1, 0));
        out.add(new ThreadStarted(t, 1, 2, 1));
        int[] depth = new int[3];
        int tid = 1;
        for (int i = 0; i < regions; i++) {
            t += 1 + r.nextInt(300);
            if (r.nextInt(40_000) == 0) {
                tid = 3 - tid;
            }
            if (r.nextInt(50_000) == 0) {
                out.add(new Mark(t, 1, tid, "m", Category.USER));
            } else if (depth[tid] > 0 && (depth[tid] > 6 || r.nextBoolean())) {
                out.add(new RegionEnd(t, 1, tid, Category.USER, List.of(), RegionMetrics.NONE, false));
                depth[tid]--;
            } else {
                out.add(new RegionBegin(t, 1, tid, "f" + r.nextInt(9), Category.USER, List.of(), RegionMetrics.NONE));
                depth[tid]++;
            }
        }
        return out;
    }

    private static PerfettoSink.Options options(boolean annotations, int encoders) {
        return new PerfettoSink.Options(annotations, MS, 0, "app", 1, RegionAnnotations.NONE, encoders);
    }

    private static byte[] trace(
            List<TraceEvent> events, RunSummary summary, PerfettoSink.Options options, int segment, int min)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PerfettoSink sink = options.encoderThreads() == 0
                ? new PerfettoSink(out, options)
                : new PerfettoSink(out, options, segment, min);
        SinkFeed.runGathered(sink, events, summary, 3);
        return out.toByteArray();
    }

    private DecodedTrace decode(byte[] bytes) throws IOException {
        Path file = Files.createTempFile(dir, "trace", ".proto");
        Files.write(file, bytes);
        return DecodedTrace.read(file);
    }

    private static int stateClears(DecodedTrace trace) {
        return trace.stateClears();
    }

    private static void assertSameSlices(DecodedTrace expected, DecodedTrace actual, String what) {
        assertEquals(expected.tracks.keySet(), actual.tracks.keySet(), what + ": tracks");
        assertEquals(expected.slices.size(), actual.slices.size(), what + ": slices");
        for (int i = 0; i < expected.slices.size(); i++) {
            DecodedTrace.Slice e = expected.slices.get(i);
            DecodedTrace.Slice a = actual.slices.get(i);
            String at = what + ": slice " + i;
            assertEquals(e.trackUuid, a.trackUuid, at);
            assertEquals(e.toString(), a.toString(), at);
        }
        assertEquals(expected.openSlices(), actual.openSlices(), what + ": slices left open");
    }
}
