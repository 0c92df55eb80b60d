package org.rocprofsys.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsLoaderTest {
    @TempDir
    Path dir;

    private Settings load(Map<String, String> env) throws ConfigException {
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("HOME", dir.resolve("home").toString());
        return new SettingsLoader(SettingsRegistry.standard(), e, dir).load();
    }

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void defaultsTraceOnProfileOff() throws Exception {
        Settings s = load(Map.of());
        assertTrue(s.bool("ROCPROFSYS_TRACE"));
        assertFalse(s.bool("ROCPROFSYS_PROFILE"));
        assertEquals(ValueSource.DEFAULT, s.value("trace").source());
    }

    @Test
    void askingOnlyForProfileTurnsTraceOff() throws Exception {
        Settings s = load(Map.of("ROCPROFSYS_PROFILE", "ON"));
        assertTrue(s.bool("ROCPROFSYS_PROFILE"));
        assertFalse(s.bool("ROCPROFSYS_TRACE"));
        assertTrue(load(Map.of("ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "yes"))
                .bool("ROCPROFSYS_TRACE"));
    }

    @Test
    void precedenceCommandLineOverEnvironmentOverFileOverDefault() throws Exception {
        Path cfg = write("a.cfg", "ROCPROFSYS_SAMPLING_FREQ = 50\nROCPROFSYS_SAMPLING_DELAY = 0.25\nverbose = 3\n");
        Map<String, String> env = Map.of(
                "ROCPROFSYS_CONFIG_FILE", cfg.toString(), "ROCPROFSYS_SAMPLING_FREQ", "75", "HOME", dir.toString());
        Settings s = new SettingsLoader(SettingsRegistry.standard(), env, dir)
                .commandLine("ROCPROFSYS_VERBOSE", "2")
                .load();
        assertEquals("75", s.get("ROCPROFSYS_SAMPLING_FREQ"));
        assertEquals(ValueSource.ENVIRON, s.value("ROCPROFSYS_SAMPLING_FREQ").source());
        assertEquals("0.25", s.get("ROCPROFSYS_SAMPLING_DELAY"));
        assertEquals(cfg + ":2", s.value("ROCPROFSYS_SAMPLING_DELAY").origin());
        assertEquals("2", s.get("ROCPROFSYS_VERBOSE"));
        assertEquals(ValueSource.USER, s.value("ROCPROFSYS_VERBOSE").source());
    }

    @Test
    void aVariableSetByAToolOptionHasThatOptionAsItsOrigin() throws Exception {
        Map<String, String> env = Map.of("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID", "1", "ROCPROFSYS_SAMPLING_FREQ", "75");
        Settings s = new SettingsLoader(SettingsRegistry.standard(), env, dir)
                .setByOption("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID", "--trace-clock-id")
                .load();
        assertEquals(
                "command line: --trace-clock-id",
                s.value("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID").origin());
        assertEquals(
                ValueSource.ENVIRON, s.value("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID").source());
        assertEquals("environment", s.value("ROCPROFSYS_SAMPLING_FREQ").origin());
        assertTrue(
                s.unsupported().stream()
                        .anyMatch(u -> u.message()
                                .equals("ROCPROFSYS_TRACE_PERIOD_CLOCK_ID=1 (command line: --trace-clock-id)"
                                        + " is not supported yet and has no effect")),
                s.unsupported().toString());
    }

    @Test
    void unknownKeyNamesFileLineAndNearestSetting() throws Exception {
        Path cfg = write("bad.cfg", "# comment\nROCPROFSYS_TRACE = ON\nROCPROFSYS_SAMPLNG_FREQ = 10\n");
        ConfigException e =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString())));
        assertTrue(e.getMessage().contains(cfg + ":3"), e.getMessage());
        assertTrue(e.getMessage().contains("Unknown setting 'ROCPROFSYS_SAMPLNG_FREQ'"), e.getMessage());
        assertTrue(e.getMessage().contains("ROCPROFSYS_SAMPLING_FREQ"), e.getMessage());
    }

    @Test
    void aFileOfRandomBytesIsNamedAsNotText() throws Exception {
        Path cfg = dir.resolve("random.cfg");
        byte[] bytes = new byte[4096];
        new java.util.Random(11).nextBytes(bytes);
        bytes[0] = 'R'; // valid text first, then the first invalid byte further on
        bytes[1] = (byte) 0xff;
        Files.write(cfg, bytes);
        ConfigException e =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString())));
        assertTrue(e.getMessage().contains(cfg.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("not a text file (byte 1 is not valid UTF-8)"), e.getMessage());
        assertFalse(e.getMessage().contains("Input length"), e.getMessage());
        Path nul = dir.resolve("nul.cfg");
        Files.write(nul, new byte[] {'A', '=', '1', 0, '\n'});
        ConfigException n =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_CONFIG_FILE", nul.toString())));
        assertTrue(n.getMessage().contains("byte 3 is a NUL"), n.getMessage());
    }

    @Test
    void upstreamInvalidConfigFoobar() throws Exception {
        Path cfg = write("invalid.cfg", "FOOBAR = ON\n");
        ConfigException e =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString())));
        assertTrue(e.getMessage().contains("Unknown setting 'FOOBAR' (value = 'ON')"), e.getMessage());
    }

    @Test
    void missingExplicitConfigFileIsAnError() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> load(
                        Map.of("ROCPROFSYS_CONFIG_FILE", dir.resolve("nope.cfg").toString())));
        assertTrue(e.getMessage().contains("nope.cfg does not exist"), e.getMessage());
    }

    @Test
    void missingDefaultConfigFilesAreIgnoredButPresentOnesRead() throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home);
        assertEquals("0", load(Map.of("HOME", home.toString())).get("ROCPROFSYS_VERBOSE"));
        Files.writeString(home.resolve(".rocprof-sys.cfg"), "ROCPROFSYS_VERBOSE = 4\n");
        assertEquals("4", load(Map.of("HOME", home.toString())).get("ROCPROFSYS_VERBOSE"));
        Files.delete(home.resolve(".rocprof-sys.cfg"));
        Files.writeString(
                home.resolve(".rocprofiler-systems.json"),
                "{\"rocprofiler-systems\": {\"settings\": {\"ROCPROFSYS_VERBOSE\": {\"value\": 5}}}}");
        assertEquals("5", load(Map.of("HOME", home.toString())).get("ROCPROFSYS_VERBOSE"));
    }

    @Test
    void badValuesNameSettingValueAndWhatIsAllowed() throws Exception {
        ConfigException notNumber =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_SAMPLING_FREQ", "fast")));
        assertTrue(notNumber.getMessage().contains("'fast'"), notNumber.getMessage());
        assertTrue(notNumber.getMessage().contains("ROCPROFSYS_SAMPLING_FREQ"), notNumber.getMessage());
        assertTrue(notNumber.getMessage().contains("floating-point number"), notNumber.getMessage());

        ConfigException notBool = assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_TRACE", "maybe")));
        assertTrue(notBool.getMessage().contains("boolean"), notBool.getMessage());

        Path cfg = write("mode.cfg", "ROCPROFSYS_MODE = fastest\n");
        ConfigException choice =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString())));
        assertTrue(choice.getMessage().contains(cfg + ":1"), choice.getMessage());
        assertTrue(choice.getMessage().contains("not one of trace, sampling, causal, coverage"), choice.getMessage());
    }

    @Test
    void envSubstitutionAndVariables() throws Exception {
        Path cfg = write(
                "vars.cfg",
                String.join(
                        "\n",
                        "$env:ROCPROFSYS_TEST_EXPORTED = exported-value",
                        "$OUT = /tmp/out-dir",
                        "ROCPROFSYS_SAMPLING_GPUS = $env:HIP_VISIBLE_DEVICES",
                        "ROCPROFSYS_OUTPUT_PATH = ${OUT}/run",
                        "ROCPROFSYS_OUTPUT_PREFIX = $env:UNSET_VARIABLE_X",
                        ""));
        Settings s = load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString(), "HIP_VISIBLE_DEVICES", "0,1"));
        assertEquals("0,1", s.get("ROCPROFSYS_SAMPLING_GPUS"));
        assertEquals("/tmp/out-dir/run", s.get("ROCPROFSYS_OUTPUT_PATH"));
        assertEquals("", s.get("ROCPROFSYS_OUTPUT_PREFIX"));
        assertEquals("exported-value", s.exportedEnvironment().get("ROCPROFSYS_TEST_EXPORTED"));
    }

    @Test
    void configFileListIsColonSeparatedAndLaterFilesWin() throws Exception {
        Path a = write("a.cfg", "ROCPROFSYS_VERBOSE = 1\nROCPROFSYS_DEBUG = on\n");
        Path b = write("b.cfg", "ROCPROFSYS_VERBOSE = 2\n");
        Settings s = load(Map.of("ROCPROFSYS_CONFIG_FILE", a + ":" + b));
        assertEquals("2", s.get("ROCPROFSYS_VERBOSE"));
        assertTrue(s.bool("ROCPROFSYS_DEBUG"));
        assertEquals(2, s.configFilesRead().size());
    }

    @Test
    void deprecatedNameSetsItsTargetWithAWarning() throws Exception {
        Settings s = load(Map.of("ROCPROFSYS_USE_PERFETTO", "off"));
        assertFalse(s.bool("ROCPROFSYS_TRACE"));
        assertTrue(
                s.warnings().stream().anyMatch(w -> w.contains("ROCPROFSYS_USE_PERFETTO is deprecated")),
                s.warnings().toString());
        // the new name, when given, wins over the deprecated one
        Settings both = load(Map.of("ROCPROFSYS_USE_PERFETTO", "off", "ROCPROFSYS_TRACE", "on"));
        assertTrue(both.bool("ROCPROFSYS_TRACE"));
    }

    @Test
    void legacyNameIsAcceptedAsAlias() throws Exception {
        Path cfg = write("legacy.cfg", "ROCPROFSYS_USE_ROCTRACER = false\n");
        Settings s = load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString()));
        assertFalse(s.bool("ROCPROFSYS_USE_ROCM"));
        assertTrue(
                s.warnings().stream().anyMatch(w -> w.contains("legacy")),
                s.warnings().toString());
    }

    @Test
    void strictConfigOffKeepsUnknownPrefixedKeysAsEnvironment() throws Exception {
        Path cfg = write("lax.cfg", "ROCPROFSYS_NOT_A_SETTING = 1\nOTHER = 2\n");
        Settings s = load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString(), "ROCPROFSYS_STRICT_CONFIG", "off"));
        assertEquals("1", s.exportedEnvironment().get("ROCPROFSYS_NOT_A_SETTING"));
        assertEquals(2, s.warnings().size(), s.warnings().toString());
    }

    @Test
    void nestedConfigFileKeyReadsRelativeToTheFile() throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        write("sub/inner.cfg", "ROCPROFSYS_VERBOSE = 7\n");
        Path outer = write("sub/outer.cfg", "ROCPROFSYS_CONFIG_FILE = inner.cfg\nROCPROFSYS_DEBUG = true\n");
        Settings s = load(Map.of("ROCPROFSYS_CONFIG_FILE", outer.toString()));
        assertEquals("7", s.get("ROCPROFSYS_VERBOSE"));
    }

    @Test
    void jsonUnknownKeyHasLine() throws Exception {
        Path cfg = write(
                "bad.json",
                "{\n \"rocprofiler-systems\": {\n  \"settings\": {\n"
                        + "   \"ROCPROFSYS_TRACE\": {\"value\": true},\n   \"ROCPROFSYS_NOPE\": {\"value\": 1}\n  }\n }\n}\n");
        ConfigException e =
                assertThrows(ConfigException.class, () -> load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString())));
        assertTrue(e.getMessage().contains(cfg + ":5"), e.getMessage());
    }

    @Test
    void samplingWithoutTimerEnablesCpuTime() throws Exception {
        assertTrue(load(Map.of("ROCPROFSYS_USE_SAMPLING", "on")).bool("ROCPROFSYS_SAMPLING_CPUTIME"));
        assertFalse(load(Map.of("ROCPROFSYS_USE_SAMPLING", "on", "ROCPROFSYS_SAMPLING_REALTIME", "on"))
                .bool("ROCPROFSYS_SAMPLING_CPUTIME"));
    }

    @Test
    void suppressConfigSkipsFiles() throws Exception {
        Path cfg = write("s.cfg", "FOOBAR = 1\n");
        Settings s = load(Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString(), "ROCPROFSYS_SUPPRESS_CONFIG", "true"));
        assertTrue(s.configFilesRead().isEmpty());
    }
}
