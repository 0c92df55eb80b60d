package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.tracetest.TestPaths;

class SamplingProfileSinkTest {
    static final int PID = 77;

    @TempDir
    Path dir;

    private static StackSample sample(long ms, String... names) {
        List<StackFrame> frames = java.util.Arrays.stream(names)
                .map(n -> new StackFrame(n, "/app", 0, null, 0))
                .toList();
        return new StackSample(ms * 1_000_000, PID, PID, frames, StackSample.Kind.CPU, 1_000_000);
    }

    @Test
    void everyFrameGetsTheIntervalMainToLeafAndPercentIsFlat() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SamplingProfileSink sink = new SamplingProfileSink(
                TimemoryOptions.defaults(),
                TestPaths.paths(dir, PID),
                new PrintStream(log, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        sink.accept(sample(1, "main", "heavy"));
        sink.accept(sample(2, "main", "heavy"));
        sink.accept(sample(4, "main", "light"));
        sink.finish(new RunSummary(10_000_000, 0, PID, "app", Map.of()));

        String wall = Files.readString(dir.resolve("out/sampling_wall_clock-" + PID + ".txt"));
        // main: 1 ms + 1 ms + 2 ms (the time since the previous sample); heavy 2 ms; light 2 ms
        assertTrue(
                wall.matches("(?s).*\\|0>>> main +\\| +3 \\| +0 \\| sampling_wall_clock \\| sec +\\| 0\\.004000 .*"),
                wall);
        assertTrue(
                wall.matches(
                        "(?s).*\\|0>>> \\|_heavy +\\| +2 \\| +1 \\| sampling_wall_clock \\| sec +\\| 0\\.002000 .*"),
                wall);
        String cpu = Files.readString(dir.resolve("out/sampling_cpu_clock-" + PID + ".txt"));
        assertTrue(
                cpu.matches("(?s).*\\|0>>> main +\\| +3 \\| +0 \\| sampling_cpu_clock \\| sec +\\| 0\\.003000 .*"),
                cpu);
        String json = Files.readString(dir.resolve("out/sampling_cpu_clock-" + PID + ".json"));
        assertTrue(json.startsWith("{\"timemory\":{\"sampling_cpu_clock\":{"), json);
        // 6 frames in all: main 3 -> 50 %, heavy 2 -> 33.3 %, light 1 -> 16.7 %, all at depth 0
        String percent = Files.readString(dir.resolve("out/sampling_percent-" + PID + ".txt"));
        assertTrue(
                percent.matches("(?s).*\\|0>>> heavy +\\| +2 \\| +0 \\| sampling_percent \\| % +\\| 33\\.33.*"),
                percent);
        assertEquals(
                6,
                sink.outputsByLabel().values().stream()
                        .mapToInt(m -> m.values().stream().mapToInt(List::size).sum())
                        .sum());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("[sampling_percent]> Outputting"), log::toString);
    }

    /**
     * rocprof-sys's definition (sampling.cpp, post_process_timemory, per thread): each frame adds
     * 100 / (frames of the thread's samples). A function on every sample has main's share and COUNT.
     */
    @Test
    void percentIsAShareOfTheThreadsFramesAndAFunctionOnEverySampleMatchesMain() throws Exception {
        SamplingProfileSink sink = new SamplingProfileSink(
                TimemoryOptions.defaults(),
                TestPaths.paths(dir, PID),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
        sink.accept(new org.rocprofsys.core.event.ThreadStarted(0, PID, PID, 0));
        sink.accept(new org.rocprofsys.core.event.ThreadStarted(0, PID, PID + 1, 1));
        // main thread: exec on all 4 samples, 10 frames -> main and exec 40 % each
        sink.accept(sample(1, "main", "exec", "step"));
        sink.accept(sample(2, "main", "exec", "step"));
        sink.accept(sample(3, "main", "exec"));
        sink.accept(sample(4, "main", "exec"));
        // the worker's 2 frames are its own 100 %, not a share of the process's 12
        sink.accept(new StackSample(
                5_000_000,
                PID,
                PID + 1,
                List.of(new StackFrame("worker", "/app", 0, null, 0), new StackFrame("spin", "/app", 0, null, 0)),
                StackSample.Kind.CPU,
                1_000_000));
        sink.finish(new RunSummary(10_000_000, 0, PID, "app", Map.of()));
        String percent = Files.readString(dir.resolve("out/sampling_percent-" + PID + ".txt"));
        for (String row : List.of(
                "\\|0>>> main +\\| +4 \\| +0 \\| sampling_percent \\| % +\\| 40\\.0",
                "\\|0>>> exec +\\| +4 \\| +0 \\| sampling_percent \\| % +\\| 40\\.0",
                "\\|0>>> step +\\| +2 \\| +0 \\| sampling_percent \\| % +\\| 20\\.0",
                "\\|1>>> worker +\\| +1 \\| +0 \\| sampling_percent \\| % +\\| 50\\.0",
                "\\|1>>> spin +\\| +1 \\| +0 \\| sampling_percent \\| % +\\| 50\\.0")) {
            assertTrue(percent.matches("(?s).*" + row + ".*"), row + "\n" + percent);
        }
    }
}
