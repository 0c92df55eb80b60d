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
}
