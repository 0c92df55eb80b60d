package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.perfetto.DecodedTrace;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 11 item 5 end to end: settings that are honoured show their effect in the outputs, and
 * settings that are not give one warning on stderr and are listed in metadata.json.
 */
class SettingsSupportIT extends DistributionTest {
    private static Path examples;

    @BeforeAll
    static void buildExamples() throws Exception {
        examples = examples();
    }

    private Path out(String name) {
        return cwd.resolve("out").resolve(name);
    }

    private ProcessResult run(String name, List<String> options, String... extra) throws Exception {
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("--", examples.resolve("regions").toString(), "50"));
        return tool(
                "rocprof-sys-run", cwd, testEnvironment(cwd.resolve("out"), name, extra), args.toArray(String[]::new));
    }

    private static List<String> sliceNames(Path proto) throws Exception {
        return DecodedTrace.read(proto).slices.stream()
                .map(s -> s.name)
                .distinct()
                .toList();
    }

    private static String graph(Path json) throws Exception {
        return new ObjectMapper()
                .readTree(json.toFile())
                .get("timemory")
                .get("wall_clock")
                .get("ranks")
                .get(0)
                .get("graph")
                .toString();
    }

    @Test
    void disabledRunsTheProgramAndWritesNothing() throws Exception {
        var r = run("disabled", List.of("-T", "-P"), "ROCPROFSYS_ENABLED", "false");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("[regions] 50 iterations"), r::toString);
        assertFalse(Files.exists(out("disabled")), r::toString);
        assertFalse(r.stderr().contains("Outputting"), r::toString);
    }

    @Test
    void disabledCategoriesLeaveEveryOutput() throws Exception {
        var all = run("all", List.of("-T", "-P"));
        assertEquals(0, all.exitCode(), all::toString);
        assertTrue(sliceNames(out("all").resolve("perfetto-trace.proto")).containsAll(List.of("outer", "inner")));
        assertTrue(graph(out("all").resolve("wall_clock.json")).contains("outer"));

        for (String[] setting : List.of(
                new String[] {"ROCPROFSYS_DISABLE_CATEGORIES", "user"},
                new String[] {"ROCPROFSYS_ENABLE_CATEGORIES", "host,sampling"})) {
            String name = setting[0].toLowerCase(java.util.Locale.ROOT);
            var r = run(name, List.of("-T", "-P"), setting[0], setting[1]);
            assertEquals(0, r.exitCode(), r::toString);
            assertFalse(r.stderr().contains(setting[0] + "="), r::toString);
            List<String> slices = sliceNames(out(name).resolve("perfetto-trace.proto"));
            assertFalse(slices.contains("outer") || slices.contains("inner"), slices::toString);
            Path json = out(name).resolve("wall_clock.json");
            assertTrue(!Files.exists(json) || !graph(json).contains("outer"), r::toString);
        }
    }

    @Test
    void unsupportedSettingsWarnOnceAndAreListedInMetadata() throws Exception {
        var r = run(
                "unsupported",
                List.of("-T", "--trace-clock-id", "monotonic", "--process-wait", "1"),
                "ROCPROFSYS_PERFETTO_SHMEM_SIZE_HINT_KB",
                "100",
                "ROCPROFSYS_CI",
                "OFF");
        assertEquals(0, r.exitCode(), r::toString);
        for (String w : List.of(
                "[rocprof-sys-run] warning: ROCPROFSYS_PERFETTO_SHMEM_SIZE_HINT_KB=100 (environment) is"
                        + " not supported yet and has no effect",
                "[rocprof-sys-run] warning: ROCPROFSYS_TRACE_PERIOD_CLOCK_ID=1"
                        + " (command line: --trace-clock-id) is not supported yet and has no effect",
                "[rocprof-sys-run] warning: --process-wait 1"
                        + " (command line) is not supported yet and has no effect")) {
            assertEquals(1, r.stderr().lines().filter(w::equals).count(), w + "\n" + r);
        }
        assertEquals(
                3,
                r.stderr().lines().filter(l -> l.contains("not supported yet")).count(),
                r::toString);
        JsonNode meta = new ObjectMapper()
                .readTree(out("unsupported").resolve("metadata.json").toFile())
                .get("rocprofiler-systems")
                .get("metadata")
                .get("not_supported");
        List<String> keys = new ArrayList<>();
        meta.forEach(n -> keys.add(n.get("key").asText() + "=" + n.get("value").asText()));
        assertEquals(
                List.of(
                        "--process-wait=1",
                        "ROCPROFSYS_TRACE_PERIOD_CLOCK_ID=1",
                        "ROCPROFSYS_PERFETTO_SHMEM_SIZE_HINT_KB=100"),
                keys);

        var plain = run("plain", List.of("-T"), "ROCPROFSYS_CI", "OFF");
        assertEquals(0, plain.exitCode(), plain::toString);
        assertFalse(plain.stderr().contains("not supported yet"), plain::toString);
        JsonNode none = new ObjectMapper()
                .readTree(out("plain").resolve("metadata.json").toFile())
                .get("rocprofiler-systems")
                .get("metadata")
                .get("not_supported");
        assertEquals(0, none.size());
    }
}
