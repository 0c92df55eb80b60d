package org.rocprofsys.core.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.tracetest.TestPaths;

/** The seam: only enabled formats open, each sees the events, metadata.json lists what they report. */
class RunOutputsTest {
    @TempDir
    Path dir;

    /** A format that writes one line per event into {@code <key>.txt} and announces it when reporting. */
    private record LinesFormat(String key, boolean on, List<SinkEvent> seen) implements OutputFormat {
        @Override
        public boolean enabled(Settings settings) {
            return on;
        }

        @Override
        public OutputWriter open(OutputContext context) {
            Path file = context.paths().file(key, "txt");
            return new OutputWriter() {
                @Override
                public void accept(SinkEvent event) {
                    seen.add(event);
                }

                @Override
                public void finish(RunSummary summary) throws IOException {
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, seen.size() + "\n");
                }

                @Override
                public List<WrittenFile> report() {
                    context.log().println("[" + key + "]> Outputting '" + file + "'");
                    return List.of(new WrittenFile("text", key, file));
                }
            };
        }
    }

    /** The context of pid 42's run of "app" under {@code dir}, its log lines to {@code log}. */
    private OutputContext context(ByteArrayOutputStream log) throws Exception {
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), Map.of("HOME", dir.toString()), dir).load();
        return new OutputContext(
                settings,
                TestPaths.paths(dir, 42),
                42,
                "app",
                0,
                new PrintStream(log, true, StandardCharsets.UTF_8),
                System.out);
    }

    @Test
    void enabledFormatsWriteAndAreListed() throws Exception {
        LinesFormat a = new LinesFormat("alpha", true, new ArrayList<>());
        LinesFormat off = new LinesFormat("off", false, new ArrayList<>());
        LinesFormat b = new LinesFormat("beta", true, new ArrayList<>());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        OutputContext ctx = context(log);
        RunOutputs outputs = RunOutputs.open(List.of(a, off, b), ctx);
        assertEquals(2, outputs.writers().size());
        outputs.finish(
                new RunSummary(1, 0, 42, "app", Map.of()),
                List.of("./app"),
                ZonedDateTime.of(2025, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                Map.of());
        String[] lines = log.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(3, lines.length);
        assertTrue(lines[0].startsWith("[alpha]> Outputting"));
        assertTrue(lines[1].startsWith("[beta]> Outputting"));
        assertEquals(
                "[rocprof-sys][42][metadata]> Outputting '" + dir.resolve("out/metadata-42.json") + "'...", lines[2]);
        JsonNode text = new ObjectMapper()
                .readTree(dir.resolve("out/metadata-42.json").toFile())
                .findValue("text");
        assertTrue(text.toString().contains("alpha") && text.toString().contains("beta"), text.toString());
        assertTrue(!text.toString().contains("\"off\""), text.toString());
    }

    /** A format whose stream fails at its first event, as a trace on a full disk does. */
    private record FailingFormat(Path file) implements OutputFormat {
        @Override
        public boolean enabled(Settings settings) {
            return true;
        }

        @Override
        public OutputWriter open(OutputContext context) {
            return new OutputWriter() {
                @Override
                public void accept(SinkEvent event) throws IOException {
                    throw new FileWriteException(file, "No space left on device", null);
                }

                @Override
                public void finish(RunSummary summary) {
                    throw new AssertionError("a failed output is not finished");
                }

                @Override
                public List<WrittenFile> report() {
                    throw new AssertionError("a failed output reports nothing");
                }

                @Override
                public boolean growsWhileRunning() {
                    return true;
                }
            };
        }
    }

    @Test
    void aFailedOutputIsSaidAndListedAndTheOthersAreWritten() throws Exception {
        Path lost = dir.resolve("out/trace.proto");
        LinesFormat a = new LinesFormat("alpha", true, new ArrayList<>());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        OutputContext ctx = context(log);
        RunOutputs outputs = RunOutputs.open(List.of(new FailingFormat(lost), a), ctx);
        SinkEvent event = new org.rocprofsys.core.event.Mark(5, 42, 42, "m", org.rocprofsys.core.event.Category.USER);
        for (OutputWriter w : outputs.writers()) {
            w.accept(event); // the failing one's exception stays its own
        }
        List<UnwrittenFile> unwritten = outputs.finish(
                new RunSummary(1, 0, 42, "app", Map.of()),
                List.of("./app"),
                ZonedDateTime.of(2025, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                Map.of());
        assertEquals(List.of(new UnwrittenFile(java.util.Optional.of(lost), "No space left on device")), unwritten);
        assertTrue(Files.exists(dir.resolve("out/alpha-42.txt")));
        String said = log.toString(StandardCharsets.UTF_8);
        assertTrue(
                said.contains(
                        "[rocprof-sys][42] error: cannot write " + lost + ": No space left on device (not written)"),
                said);
        JsonNode notWritten = new ObjectMapper()
                .readTree(dir.resolve("out/metadata-42.json").toFile())
                .findValue("not_written");
        assertEquals(lost.toString(), notWritten.get(0).get("file").asText());
        assertEquals("No space left on device", notWritten.get(0).get("reason").asText());
    }
}
