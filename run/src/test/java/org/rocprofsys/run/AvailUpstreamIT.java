package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * The rocprof-sys-avail tests of upstream's ctest suite (inventory §9.3), with their upstream
 * arguments and regexes, run on the assembled distribution. Adaptations are named where they are.
 */
class AvailUpstreamIT extends DistributionTest {
    private ProcessResult avail(Map<String, String> env, String... args) throws Exception {
        return tool("rocprof-sys-avail", cwd, env, args);
    }

    private ProcessResult avail(String... args) throws Exception {
        return avail(Map.of(), args);
    }

    /** ctest PASS_REGULAR_EXPRESSION semantics: the regex is searched in stdout+stderr. */
    private static void assertMatches(String regex, String text) {
        assertTrue(
                Pattern.compile(regex, Pattern.DOTALL).matcher(text).find(), "expected /" + regex + "/ in:\n" + text);
    }

    private static void assertNoMatch(String regex, String text) {
        assertFalse(
                Pattern.compile(regex, Pattern.DOTALL).matcher(text).find(), "unexpected /" + regex + "/ in:\n" + text);
    }

    @Test
    void availHelp() throws Exception {
        var r = avail("--help");
        assertEquals(0, r.exitCode(), r::toString);
        // upstream's regex unescaped by CMake; its [..] are meant literally
        assertMatches(
                "\\[rocprof-sys-avail\\] Usage:.*\\[DEBUG OPTIONS\\].*\\[INFO OPTIONS\\].*\\[FILTER OPTIONS\\]"
                        + ".*\\[COLUMN OPTIONS\\].*\\[DISPLAY OPTIONS\\].*\\[OUTPUT OPTIONS\\]",
                r.stdout());
        assertMatches("-r, --filter REGEX\\s+Filter the names by regex", r.stdout());
        assertNoMatch("null", r.stdout());
    }

    @Test
    void availAll() throws Exception {
        var r = avail("--all");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches("ROCPROFSYS_TRACE", r.stdout());
    }

    @Test
    void availAllExpandKeys() throws Exception {
        var r = avail("--all", "--expand-keys");
        assertEquals(0, r.exitCode(), r::toString);
        assertNoMatch("%[a-zA-Z_]%", r.all()); // upstream's FAIL regex
        // and no output key is left (%MAIN% of the causal scopes is not one)
        assertNoMatch("%(tag|pid|argv|launch_time|env\\{HOME})%", r.all());
        assertMatches("rocprofsys-rocprof-sys-avail-output", r.stdout());
    }

    @Test
    void availAllOnlyAvailableAlphabetical() throws Exception {
        Path log = cwd.resolve("avail-all-only-available-alphabetical.log");
        var r = avail("--all", "--available", "--alphabetical", "--debug", "--output", log.toString());
        assertEquals(0, r.exitCode(), r::toString);
        String listing = Files.readString(log);
        assertMatches("ENVIRONMENT VARIABLE", listing);
        // "available only" drops the AVAILABLE column and every unavailable entry
        List<String> names = listing.lines()
                .filter(l -> l.startsWith("| ROCPROFSYS_"))
                .map(l -> l.substring(2, l.indexOf(' ', 2)))
                .toList();
        assertEquals(names.stream().sorted().toList(), names);
    }

    @Test
    void availAllCsv() throws Exception {
        var r = avail("--all", "--csv", "--csv-separator", "#");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches(
                "COMPONENT#AVAILABLE#VALUE_TYPE#STRING_IDS#FILENAME#DESCRIPTION#CATEGORY#.*"
                        + "ENVIRONMENT VARIABLE#VALUE#DATA TYPE#DESCRIPTION#CATEGORIES#.*"
                        + "HARDWARE COUNTER#DEVICE#AVAILABLE#DESCRIPTION#",
                r.stdout());
    }

    @Test
    void availFilterWallClockAvailable() throws Exception {
        var r = avail("-r", "wall_clock", "-C", "--available");
        assertEquals(0, r.exitCode(), r::toString);
        // upstream: a table with only the COMPONENT header and the single row wall_clock
        List<String> rows = r.stdout()
                .lines()
                .filter(l -> l.startsWith("|") && !l.startsWith("|-"))
                .toList();
        assertEquals(2, rows.size(), r::toString);
        assertTrue(rows.get(0).matches("\\|\\s+COMPONENT\\s+\\|"), r::toString);
        assertTrue(rows.get(1).matches("\\| wall_clock\\s+\\|"), r::toString);
    }

    @Test
    void componentsAreWhatThisBuildCollects() throws Exception {
        var r = avail("-C", "-d");
        assertEquals(0, r.exitCode(), r::toString);
        List<String> names = r.stdout()
                .lines()
                .filter(l -> l.startsWith("| ") && !l.contains("COMPONENT"))
                .map(l -> l.substring(2, l.indexOf(' ', 2)))
                .toList();
        assertEquals(
                List.of(
                        "cpu_clock",
                        "cpu_util",
                        "kernel_mode_time",
                        "num_major_page_faults",
                        "num_minor_page_faults",
                        "page_rss",
                        "papi_array",
                        "peak_rss",
                        "priority_context_switch",
                        "thread_cpu_clock",
                        "thread_cpu_util",
                        "trip_count",
                        "user_mode_time",
                        "virtual_memory",
                        "voluntary_context_switch",
                        "wall_clock"),
                names);
    }

    @Test
    void availCategoryFilterRocprofilerSystems() throws Exception {
        var r = avail("--categories", "settings::rocprofsys", "--brief");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches("ROCPROFSYS_(SETTINGS_DESC|OUTPUT_FILE|OUTPUT_PREFIX)", r.stdout()); // upstream's PASS regex
        // Upstream 1.2.0 has no SETTINGS_DESC setting (an environment knob only) and OUTPUT_FILE is
        // advanced there, so of the three only OUTPUT_PREFIX is listed, as upstream.
        assertMatches("\\| ROCPROFSYS_OUTPUT_PREFIX\\s+\\|", r.stdout());
        assertMatches("\\| ROCPROFSYS_TRACE\\s+\\|", r.stdout());
        assertNoMatch(
                "ROCPROFSYS_(ADD_SECONDARY|SCIENTIFIC|PRECISION|MEMORY_PRECISION|TIMING_PRECISION)\\b", r.stdout());
    }

    @Test
    void availCategoryFilterTimemory() throws Exception {
        var r = avail("--categories", "settings::timemory", "--brief", "--advanced");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches("ROCPROFSYS_(ADD_SECONDARY|SCIENTIFIC|PRECISION|MEMORY_PRECISION|TIMING_PRECISION)", r.stdout());
        // ADD_SECONDARY is hidden upstream (its hidden list), so it is not listed here either
        for (String name : List.of("SCIENTIFIC", "PRECISION", "MEMORY_PRECISION", "TIMING_PRECISION")) {
            assertMatches("ROCPROFSYS_" + name + "\\b", r.stdout());
        }
        assertNoMatch("ROCPROFSYS_(SETTINGS_DESC|OUTPUT_FILE)\\b", r.stdout());
    }

    @Test
    void availRegexNegation() throws Exception {
        var r = avail(argv(
                "-R rocprofsys ~timemory -r _P ~PERFETTO ~PROCESS_SAMPLING ~KOKKOSP ~PAGE --csv --brief --advanced"));
        assertEquals(0, r.exitCode(), r::toString);
        // upstream's list, plus the unified-memory settings of seed 000 (newer than the suite), whose
        // names also hold "_P" (_PATH, _PROFILING)
        assertEquals(
                List.of(
                        "ENVIRONMENT VARIABLE,",
                        "ROCPROFSYS_THREAD_POOL_SIZE,",
                        "ROCPROFSYS_UNIFIED_MEMORY_OUTPUT_PATH,",
                        "ROCPROFSYS_USE_PID,",
                        "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING,"),
                r.stdout().lines().filter(l -> !l.isBlank()).toList(),
                r::toString);
        assertNoMatch("ROCPROFSYS_TRACE", r.stdout());
    }

    @Test
    void availWriteConfig() throws Exception {
        writeConfig("rocprof-sys-test", Map.of());
    }

    @Test
    void availWriteConfigTweak() throws Exception {
        Path out = writeConfig("rocprof-sys-tweak", Map.of("ROCPROFSYS_TRACE", "OFF", "ROCPROFSYS_PROFILE", "ON"));
        String text = Files.readString(out.resolve("rocprof-sys-tweak.cfg"));
        assertMatches("(?m)^ROCPROFSYS_TRACE\\s+= false$", text);
        assertMatches("(?m)^ROCPROFSYS_PROFILE\\s+= true$", text);
    }

    private Path writeConfig(String name, Map<String, String> env) throws Exception {
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("TWD", cwd.toString());
        var r = avail(
                e,
                "-G",
                "%env{TWD}%/rocprof-sys-avail/" + name + ".cfg",
                "-F",
                "txt",
                "json",
                "xml",
                "--force",
                "--all",
                "-c",
                "rocprofsys");
        assertEquals(0, r.exitCode(), r::toString);
        Path out = cwd.resolve("rocprof-sys-avail");
        String q = Pattern.quote(out.toString());
        assertMatches(
                "Outputting JSON configuration file '" + q + "/" + name + "\\.json'(.*)"
                        + "Outputting XML configuration file '" + q + "/" + name + "\\.xml'(.*)"
                        + "Outputting text configuration file '" + q + "/" + name + "\\.cfg'",
                r.stdout());
        for (String ext : List.of(".cfg", ".json", ".xml")) {
            assertTrue(Files.size(out.resolve(name + ext)) > 0, ext);
        }
        // -c rocprofsys: only settings of that category
        String text = Files.readString(out.resolve(name + ".cfg"));
        assertNoMatch("(?m)^ROCPROFSYS_PRECISION\\b", text);
        assertMatches("(?m)^ROCPROFSYS_CONFIG_FILE\\s+= $", text);
        return out;
    }

    @Test
    void writeConfigRefusesToOverwriteWithoutForce() throws Exception {
        Path existing = cwd.resolve("mine.cfg");
        Files.writeString(existing, "# my own settings\n");
        var r = avail("-G", existing.toString());
        assertEquals(1, r.exitCode(), r::toString);
        assertMatches("exists; use --force", r.stderr());
        assertEquals("# my own settings\n", Files.readString(existing));
    }

    @Test
    void availListKeys() throws Exception {
        var r = avail("--list-keys");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches("Output Keys:\n.*%argv%.*%argv_hash%", r.stdout());
    }

    @Test
    void availListKeysMarkdown() throws Exception {
        var r = avail("--list-keys", "--markdown");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches("`%argv%`.*`%argv_hash%`", r.stdout());
    }

    @Test
    void availListCategories() throws Exception {
        var r = avail("--list-categories");
        assertEquals(0, r.exitCode(), r::toString);
        // upstream's " component::… hw_counters::… settings::"; the CPU counters (PAPI presets and
        // perf events) are the hw_counters category CPU
        assertMatches(
                "Categories:\n component::counting\n component::hardware_counter\n component::memory\n"
                        + " component::resource_usage\n component::timing\n hw_counters::CPU\n settings::",
                r.stdout());
        assertMatches(" settings::rocprofsys\n", r.stdout());
        assertMatches(" settings::timemory\n", r.stdout());
    }

    @Test
    void availCoreCategories() throws Exception {
        var r = avail("-c", "core");
        assertEquals(0, r.exitCode(), r::toString);
        assertMatches(
                "ROCPROFSYS_CONFIG_FILE.*ROCPROFSYS_ENABLED.*ROCPROFSYS_SUPPRESS_CONFIG"
                        + ".*ROCPROFSYS_SUPPRESS_PARSING.*ROCPROFSYS_VERBOSE",
                r.stdout());
    }

    @Test
    void badOptionIsAClearErrorWithNonZeroExit() throws Exception {
        var r = avail("--no-such-option");
        assertEquals(1, r.exitCode(), r::toString);
        assertMatches("Unknown option: '--no-such-option'", r.stderr());
        var bad = avail("-r", "([unclosed");
        assertEquals(1, bad.exitCode(), bad::toString);
        assertMatches("invalid regular expression '\\(\\[unclosed'", bad.stderr());
        assertTrue(Arrays.stream(bad.stdout().split("\n")).allMatch(String::isBlank), bad::toString);
    }
}
