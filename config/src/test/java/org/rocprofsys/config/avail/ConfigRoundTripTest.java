package org.rocprofsys.config.avail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.config.SettingValue;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

/** A config written by {@code rocprof-sys-avail -G} reads back to the settings it was written from. */
class ConfigRoundTripTest {
    @TempDir
    Path dir;

    private Map<String, String> env(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("HOME", dir.resolve("home").toString());
        return env;
    }

    private static Map<String, String> values(Settings s) {
        Map<String, String> m = new TreeMap<>();
        for (SettingValue v : s.all()) {
            if (!v.definition().envName().equals("ROCPROFSYS_CONFIG_FILE")) {
                m.put(v.definition().envName(), v.value());
            }
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"txt", "json", "xml"})
    void generatedConfigReadsBackToTheSameSettings(String format) throws Exception {
        Map<String, String> tweaks = Map.of(
                "ROCPROFSYS_TRACE",
                "OFF",
                "ROCPROFSYS_PROFILE",
                "ON",
                "ROCPROFSYS_SAMPLING_FREQ",
                "123.5",
                "ROCPROFSYS_TIMEMORY_COMPONENTS",
                "wall_clock cpu_clock",
                "ROCPROFSYS_OUTPUT_PATH",
                "out-%tag%",
                "ROCPROFSYS_AMD_SMI_METRICS",
                "busy, temp");
        Settings original = new SettingsLoader(SettingsRegistry.standard(), env(tweaks), dir).load();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AvailCommand avail = new AvailCommand(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                env(tweaks),
                dir,
                AvailCatalog.of(List.of(), List.of()));
        int rc = avail.run(new String[] {"-G", "gen.cfg", "-F", format, "--all"});
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        Path file = dir.resolve("gen." + (format.equals("txt") ? "cfg" : format));
        assertTrue(Files.isRegularFile(file), out.toString(StandardCharsets.UTF_8));

        Settings reread = new SettingsLoader(
                        SettingsRegistry.standard(), env(Map.of("ROCPROFSYS_CONFIG_FILE", file.toString())), dir)
                .load();
        assertEquals(values(original), values(reread));
        assertEquals("false", reread.get("ROCPROFSYS_TRACE"));
        assertEquals("123.5", reread.get("ROCPROFSYS_SAMPLING_FREQ"));
    }
}
