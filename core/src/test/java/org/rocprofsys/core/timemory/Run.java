package org.rocprofsys.core.timemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.tracetest.TestPaths;

/** Runs a sink over events into {@code dir} and keeps what it printed. */
final class Run {
    final TimemorySink sink;
    final String log;
    final String stdout;
    final Path dir;

    private Run(TimemorySink sink, String log, String stdout, Path dir) {
        this.sink = sink;
        this.log = log;
        this.stdout = stdout;
        this.dir = dir;
    }

    static Run of(Path dir, TimemoryOptions options, List<? extends TraceEvent> events, long endNs, int rootPid)
            throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TimemorySink s = new TimemorySink(
                options, TestPaths.paths(dir, rootPid), new PrintStream(log, true), new PrintStream(out, true));
        SinkFeed.run(s, events, Events.summary(endNs, rootPid));
        return new Run(s, log.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8), dir);
    }

    Path file(String name) {
        return dir.resolve("out").resolve(name);
    }

    String text(String name) throws IOException {
        return Files.readString(file(name));
    }

    JsonNode json(String name) throws IOException {
        return new ObjectMapper().readTree(file(name).toFile());
    }
}
