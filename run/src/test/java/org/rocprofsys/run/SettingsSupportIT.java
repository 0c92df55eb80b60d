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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

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

    @Test
    void disabledRunsTheProgramAndWritesNothing() throws Exception {
        var r = run("disabled", List.of("-T", "-P"), "ROCPROFSYS_ENABLED", "false");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("[regions] 50 iterations"), r::toString);
        assertFalse(Files.exists(out("disabled")), r::toString);
        assertFalse(r.stderr().contains("Outputting"), r::toString);
    }

    /** Labels of every row of a timemory profile, .txt or .json ("|0>>> |_inner" gives inner). */
    private static final Pattern PROFILE_LABEL = Pattern.compile("\\|\\d+>>> [ |_]*([^ |\"]+)");

    /**
     * Output file name -> the region names it holds: the trace's slices and the labels of every
     * timemory profile the run wrote (.txt and .json, whatever component), so that a profile added
     * later is checked too. The trace and both wall_clock files must be there.
     */
    private Map<String, Set<String>> namesPerOutput(String name) throws Exception {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(out(name))) {
            for (Path f : files.sorted().toList()) {
                String file = f.getFileName().toString();
                if (file.equals("perfetto-trace.proto")) {
                    out.put(file, new TreeSet<>(sliceNames(f)));
                } else if (!file.equals("metadata.json") && file.matches(".*\\.(txt|json)")) {
                    Set<String> labels = new TreeSet<>();
                    Matcher m = PROFILE_LABEL.matcher(Files.readString(f));
                    while (m.find()) {
                        labels.add(m.group(1));
                    }
                    out.put(file, labels);
                }
            }
        }
        assertTrue(
                out.keySet().containsAll(List.of("perfetto-trace.proto", "wall_clock.json", "wall_clock.txt")),
                out::toString);
        return out;
    }

    /** Every output of the run holds each of {@code kept} and none of {@code gone}. */
    private void assertEveryOutput(String name, ProcessResult r, List<String> kept, List<String> gone)
            throws Exception {
        namesPerOutput(name).forEach((file, names) -> {
            assertTrue(names.containsAll(kept), () -> name + "/" + file + " lacks " + kept + ": " + names + "\n" + r);
            assertTrue(
                    gone.stream().noneMatch(names::contains),
                    () -> name + "/" + file + " still has one of " + gone + ": " + names + "\n" + r);
        });
    }

    @Test
    void disabledCategoriesLeaveEveryOutput() throws Exception {
        // regions pushes user regions outer > inner under the host region of the program itself
        var all = run("all", List.of("-T", "-P"));
        assertEquals(0, all.exitCode(), all::toString);
        assertEveryOutput("all", all, List.of("regions", "outer", "inner"), List.of());

        for (String[] setting : List.of(
                new String[] {"ROCPROFSYS_DISABLE_CATEGORIES", "user"},
                new String[] {"ROCPROFSYS_ENABLE_CATEGORIES", "host,sampling"})) {
            String name = setting[0].toLowerCase(java.util.Locale.ROOT);
            var r = run(name, List.of("-T", "-P"), setting[0], setting[1]);
            assertEquals(0, r.exitCode(), r::toString);
            assertFalse(r.stderr().contains(setting[0] + "="), r::toString);
            assertEveryOutput(name, r, List.of("regions"), List.of("outer", "inner"));
        }

        // the other way round: the program's host region goes, the user regions stay and move up a
        // level (outer becomes a root of the call graph)
        var host = run("host", List.of("-T", "-P"), "ROCPROFSYS_DISABLE_CATEGORIES", "host");
        assertEquals(0, host.exitCode(), host::toString);
        assertEveryOutput("host", host, List.of("outer", "inner"), List.of("regions"));
        String wall = Files.readString(out("host").resolve("wall_clock.txt"));
        assertTrue(wall.contains("|0>>> outer ") && wall.contains("|0>>> |_inner "), wall);
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
