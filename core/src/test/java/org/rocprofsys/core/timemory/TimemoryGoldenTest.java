package org.rocprofsys.core.timemory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.core.event.AbruptEndsScenario;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.tracetest.GoldenFile;
import org.rocprofsys.tracetest.TestPaths;

/** Events in, profile out: the text reports and the "Outputting" lines against checked-in files. */
class TimemoryGoldenTest {
    @TempDir
    Path dir;

    /** {@code maxRun} 0: regions one by one; else in runs of at most that many (the same profile). */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 64})
    void abruptEnds(int maxRun) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        TimemoryOptions options =
                TimemoryOptions.defaults().withComponents(List.of(Component.WALL_CLOCK, Component.TRIP_COUNT));
        TimemorySink sink = new TimemorySink(
                options,
                TestPaths.paths(dir, AbruptEndsScenario.PID),
                new PrintStream(log, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        if (maxRun == 0) {
            SinkFeed.run(sink, AbruptEndsScenario.events(), AbruptEndsScenario.summary());
        } else {
            SinkFeed.runGathered(sink, AbruptEndsScenario.events(), AbruptEndsScenario.summary(), maxRun);
        }
        StringBuilder text =
                new StringBuilder(log.toString(StandardCharsets.UTF_8).replace(dir.toString(), "<dir>"));
        for (var f : sink.files()) {
            if (f.kind().equals("text")) {
                text.append("==> ")
                        .append(dir.relativize(f.path()))
                        .append('\n')
                        .append(Files.readString(f.path()));
            }
        }
        GoldenFile.assertMatches("timemory-abrupt-ends.txt", text.toString());
    }

    @Test
    void sampledProfilesOfAbruptEnds() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SamplingProfileSink sink = new SamplingProfileSink(
                TimemoryOptions.defaults(),
                TestPaths.paths(dir, AbruptEndsScenario.PID),
                new PrintStream(log, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        SinkFeed.run(sink, AbruptEndsScenario.events(), AbruptEndsScenario.summary());
        StringBuilder text =
                new StringBuilder(log.toString(StandardCharsets.UTF_8).replace(dir.toString(), "<dir>"));
        for (var byLabel :
                sink.outputsByLabel().getOrDefault("text", java.util.Map.of()).values()) {
            for (Path p : byLabel) {
                text.append("==> ").append(dir.relativize(p)).append('\n').append(Files.readString(p));
            }
        }
        GoldenFile.assertMatches("timemory-sampled-abrupt-ends.txt", text.toString());
    }
}
