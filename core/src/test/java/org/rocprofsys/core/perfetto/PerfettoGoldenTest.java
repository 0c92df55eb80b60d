package org.rocprofsys.core.perfetto;

import com.google.protobuf.TextFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.core.event.AbruptEndsScenario;
import org.rocprofsys.core.event.SinkFeed;
import org.rocprofsys.core.perfetto.proto.Trace;
import org.rocprofsys.core.perfetto.proto.TracePacket;
import org.rocprofsys.tracetest.GoldenFile;

/** Events in, trace out: every packet, decoded to protobuf text, against the checked-in trace. */
class PerfettoGoldenTest {
    @TempDir
    Path dir;

    /** {@code maxRun} 0: regions one by one; else in runs of at most that many (the same trace). */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 64})
    void abruptEndsWithAnnotations(int maxRun) throws IOException, NoSuchAlgorithmException {
        assertGolden(true, "perfetto-abrupt-ends-annotated.txt", maxRun);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 64})
    void abruptEndsWithoutAnnotations(int maxRun) throws IOException, NoSuchAlgorithmException {
        assertGolden(false, "perfetto-abrupt-ends.txt", maxRun);
    }

    private void assertGolden(boolean annotations, String golden, int maxRun)
            throws IOException, NoSuchAlgorithmException {
        Path out = dir.resolve("perfetto-trace.proto");
        PerfettoSink sink =
                new PerfettoSink(out, new PerfettoSink.Options(annotations, AbruptEndsScenario.REALTIME_OFFSET, "app"));
        if (maxRun == 0) {
            SinkFeed.run(sink, AbruptEndsScenario.events(), AbruptEndsScenario.summary());
        } else {
            SinkFeed.runGathered(sink, AbruptEndsScenario.events(), AbruptEndsScenario.summary(), maxRun);
        }
        byte[] bytes = Files.readAllBytes(out);
        // the digest holds the bytes (field order included); the text shows what changed when it differs
        StringBuilder text = new StringBuilder("sha-256: ")
                .append(HexFormat.of()
                        .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)))
                .append('\n');
        for (TracePacket p : Trace.parseFrom(bytes).getPacketList()) {
            text.append("packet {\n")
                    .append(TextFormat.printer().printToString(p))
                    .append("}\n");
        }
        GoldenFile.assertMatches(golden, text.toString());
    }
}
