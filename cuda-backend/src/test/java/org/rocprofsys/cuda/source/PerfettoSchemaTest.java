package org.rocprofsys.cuda.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.cuda.decode.FixtureExpectations;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Opt-in (ROCPROFSYS_PERFETTO_PROTO names the official {@code perfetto_trace.proto}): the trace of
 * every CUPTI fixture, written by the real collector path, decodes with protoc against the official
 * Perfetto schema with no unknown field ({@code tools/check-perfetto-trace.sh}, which finds protoc).
 */
class PerfettoSchemaTest {
    private static final List<String> FIXTURES =
            FixtureExpectations.recordedExamplesAnd("killed-early", "vector-add-args", "streams-args");

    @TempDir
    Path dir;

    @Test
    void everyFixtureTraceDecodesAgainstTheOfficialSchema() throws Exception {
        String proto = System.getenv("ROCPROFSYS_PERFETTO_PROTO");
        assumeTrue(
                proto != null && Files.isRegularFile(Path.of(proto)),
                "set ROCPROFSYS_PERFETTO_PROTO to google/perfetto's protos/perfetto/trace/perfetto_trace.proto");
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("user.dir"))
                .resolve("../tools/check-perfetto-trace.sh")
                .normalize()
                .toString());
        for (String fixture : FIXTURES) {
            FixtureRun run = FixtureRun.of(fixture, Files.createDirectories(dir.resolve(fixture)));
            try (Stream<Path> files = Files.list(run.outputDir())) {
                argv.add(files.filter(f -> f.getFileName().toString().endsWith(".proto"))
                        .findFirst()
                        .orElseThrow()
                        .toString());
            }
        }
        Command check = Command.of(argv).env("PERFETTO_PROTO", proto);
        if (System.getenv("PROTOC") != null) {
            check = check.env("PROTOC", System.getenv("PROTOC"));
        }
        ProcessResult r = check.run();
        System.out.println(r.stdout());
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(
                FIXTURES.size(),
                r.stdout().lines().filter(l -> l.startsWith("ok ")).count(),
                r::toString);
    }
}
