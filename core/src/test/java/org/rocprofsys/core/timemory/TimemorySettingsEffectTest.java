package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.core.timemory.Events.MS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.RegionMetrics;

/**
 * The profile writer's layout and output settings, each set as a user sets it (through the
 * settings loader, by its environment name) and compared with the same events written with the
 * defaults: the file the setting governs must change in the way the setting says, and a timing
 * setting must leave the memory table alone (and the other way round). A setting the writer
 * ignored gives the default's file and fails its row.
 */
class TimemorySettingsEffectTest {
    @TempDir
    Path dir;

    static final int PID = 900;
    static final String WALL = "wall_clock-900.txt";
    static final String PEAK = "peak_rss-900.txt";
    static final String LONG_NAME = "initialize_the_input_buffers";

    /** What a setting must do to the files: {@code before} and {@code after} are file name to text. */
    @FunctionalInterface
    interface Effect {
        void check(Map<String, String> before, Map<String, String> after);
    }

    /** A timing setting: {@code e}, and the memory table stays as it was. */
    static Effect timingOnly(Effect e) {
        return (before, after) -> {
            e.check(before, after);
            assertEquals(before.get(PEAK), after.get(PEAK), "a timing setting leaves memory alone");
        };
    }

    /** A memory setting: {@code e}, and the timing table stays as it was. */
    static Effect memoryOnly(Effect e) {
        return (before, after) -> {
            e.check(before, after);
            assertEquals(before.get(WALL), after.get(WALL), "a memory setting leaves timing alone");
        };
    }

    /** The narrowest column of {@code table} goes from 8 characters to 14. */
    static Effect widensFrom8To14(String table) {
        return (before, after) -> {
            assertEquals(8, narrowest(before.get(table)));
            assertEquals(14, narrowest(after.get(table)), after.get(table));
        };
    }

    /** {@code table} has no number in scientific notation before, and {@code cell} after. */
    static Effect scientific(String table, String cell) {
        return (before, after) -> {
            assertFalse(SCIENTIFIC.matcher(before.get(table)).find(), before.get(table));
            assertTrue(after.get(table).contains(cell), after.get(table));
        };
    }

    record Case(String setting, String value, Effect effect) {
        @Override
        public String toString() {
            return setting + "=" + value;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("ROCPROFSYS_TIMELINE_PROFILE", "ON", (before, after) -> {
                    // the two calls of the long-named region: one entry of 2 by default, two of 1 each
                    assertEquals(List.of("2"), counts(before.get(WALL), LONG_NAME));
                    assertEquals(List.of("1", "1"), counts(after.get(WALL), LONG_NAME));
                }),
                new Case("ROCPROFSYS_FILE_OUTPUT", "OFF", (before, after) -> {
                    assertTrue(
                            before.keySet().containsAll(List.of(WALL, PEAK, "wall_clock-900.json")),
                            before.keySet().toString());
                    assertEquals(Map.of(), after, "no text or JSON file at all");
                }),
                new Case("ROCPROFSYS_MAX_WIDTH", "24", (before, after) -> {
                    // cut to MAX_WIDTH-3 characters plus "..." (above 20)
                    assertTrue(before.get(WALL).contains("|0>>> |_" + LONG_NAME + " |"), before.get(WALL));
                    assertFalse(after.get(WALL).contains(LONG_NAME), after.get(WALL));
                    assertTrue(after.get(WALL).contains("| |0>>> |_initialize_th... |"), after.get(WALL));
                    assertTrue(after.get(PEAK).contains("| |0>>> |_initialize_th... |"), "every table");
                }),
                new Case("ROCPROFSYS_SEPARATOR_FREQ", "2", (before, after) -> {
                    // 3 rows (app, the long-named region, compute): one separator line after the 2nd
                    assertEquals(3, dataRows(before.get(WALL)));
                    assertEquals(inner(before.get(WALL)) + 1, inner(after.get(WALL)), after.get(WALL));
                    assertEquals(inner(before.get(PEAK)) + 1, inner(after.get(PEAK)), "every table");
                }),
                new Case("ROCPROFSYS_TIMING_WIDTH", "14", timingOnly(widensFrom8To14(WALL))),
                new Case("ROCPROFSYS_TIMING_SCIENTIFIC", "ON", timingOnly(scientific(WALL, "| 1.000000e+00 |"))),
                new Case("ROCPROFSYS_MEMORY_PRECISION", "1", memoryOnly((before, after) -> {
                    // app's peak grew by 6.5 MB: 3 decimals by default, 1 with the setting
                    assertTrue(before.get(PEAK).contains("|  6.500 |"), before.get(PEAK));
                    assertTrue(after.get(PEAK).contains("|    6.5 |"), after.get(PEAK));
                })),
                new Case("ROCPROFSYS_MEMORY_UNITS", "KB", memoryOnly((before, after) -> {
                    assertTrue(before.get(PEAK).contains("| peak_rss | MB     |  6.500 |"), before.get(PEAK));
                    assertTrue(after.get(PEAK).contains("| peak_rss | KB     | 6500.000 |"), after.get(PEAK));
                })),
                new Case("ROCPROFSYS_TIMING_UNITS", "msec", timingOnly((before, after) -> {
                    assertTrue(before.get(WALL).contains("| wall_clock | sec    | 1.000000 |"), before.get(WALL));
                    assertTrue(after.get(WALL).contains("| wall_clock | msec   | 1000.000000 |"), after.get(WALL));
                })),
                new Case("ROCPROFSYS_MEMORY_WIDTH", "14", memoryOnly(widensFrom8To14(PEAK))),
                new Case("ROCPROFSYS_MEMORY_SCIENTIFIC", "ON", memoryOnly(scientific(PEAK, "| 6.500e+00 |"))));
    }

    private static final Pattern SCIENTIFIC = Pattern.compile("\\d\\.\\d+e[+-]\\d\\d");

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSettingChangesTheProfileAsItSays(Case c) throws Exception {
        Map<String, String> before = write("default", Map.of());
        Map<String, String> after = write("set", Map.of(c.setting(), c.value()));
        assertFalse(before.equals(after), c + " changed none of " + before.keySet());
        c.effect().check(before, after);
    }

    /**
     * app [0, 1000 ms] calls the long-named region twice and compute once; the peak RSS grows by
     * 4 MB in the first call, by 2 MB in the second and by 0.5 MB in compute.
     */
    private static Events events() {
        long mb = 1_000_000;
        long a = RegionMetrics.ABSENT;
        return Events.program(PID, "app")
                .begin(0, PID, "app", new RegionMetrics(a, 10 * mb, 20 * mb))
                .begin(10 * MS, PID, LONG_NAME, new RegionMetrics(a, 10 * mb, 20 * mb))
                .end(110 * MS, PID, new RegionMetrics(a, 14 * mb, 24 * mb), false)
                .begin(200 * MS, PID, LONG_NAME, new RegionMetrics(a, 14 * mb, 24 * mb))
                .end(400 * MS, PID, new RegionMetrics(a, 15 * mb, 26 * mb), false)
                .begin(500 * MS, PID, "compute", new RegionMetrics(a, 15 * mb, 26 * mb))
                .end(700 * MS, PID, new RegionMetrics(a, 15 * mb, 26 * mb + mb / 2), false)
                .end(1000 * MS, PID, new RegionMetrics(a, 15 * mb, 26 * mb + mb / 2), false)
                .threadEnd(1000 * MS, PID, false)
                .processEnd(1001 * MS);
    }

    /** The files the writer gives for the events under these settings (wall_clock and peak_rss). */
    private Map<String, String> write(String name, Map<String, String> settings) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        Map<String, String> env = new HashMap<>(settings);
        env.put("HOME", d.resolve("home").toString());
        env.put("ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock,peak_rss");
        Settings s = new SettingsLoader(SettingsRegistry.standard(), env, d).load();
        Run.of(d, TimemoryOptions.from(s), events().list, 2000 * MS, PID);
        Map<String, String> files = new TreeMap<>();
        Path out = d.resolve("out");
        if (Files.isDirectory(out)) {
            try (Stream<Path> l = Files.list(out)) {
                for (Path f : l.toList()) {
                    files.put(f.getFileName().toString(), Files.readString(f));
                }
            }
        }
        return files;
    }

    /** The COUNT cells of the rows whose label ends with {@code name}. */
    private static List<String> counts(String table, String name) {
        Pattern row = Pattern.compile("\\| \\|0>>> [ |]*_" + Pattern.quote(name) + " +\\| +(\\d+) \\|.*");
        return table.lines()
                .map(row::matcher)
                .filter(java.util.regex.Matcher::matches)
                .map(m -> m.group(1))
                .toList();
    }

    /** Lines of data (a label cell starting with |0>>>). */
    private static long dataRows(String table) {
        return table.lines().filter(l -> l.startsWith("| |0>>>")).count();
    }

    /** Separator lines drawn with '|' between the columns: under the header, and SEPARATOR_FREQ's. */
    private static long inner(String table) {
        return table.lines().filter(l -> l.matches("\\|-+(\\|-+)+\\|")).count();
    }

    /** The width of the narrowest column, from the line under the header. */
    private static int narrowest(String table) {
        String rule = table.lines()
                .filter(l -> l.matches("\\|-+(\\|-+)+\\|"))
                .findFirst()
                .orElseThrow();
        return Stream.of(rule.substring(1, rule.length() - 1).split("\\|"))
                .mapToInt(String::length)
                .min()
                .orElseThrow();
    }
}
