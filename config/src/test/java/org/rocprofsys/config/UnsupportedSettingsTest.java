package org.rocprofsys.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnsupportedSettingsTest {
    private static Settings load(Map<String, String> env) throws ConfigException {
        java.util.Map<String, String> all = new java.util.HashMap<>(env);
        all.put("ROCPROFSYS_SUPPRESS_CONFIG", "ON");
        return new SettingsLoader(SettingsRegistry.standard(), all, Path.of(".")).load();
    }

    @Test
    void theHonouredFlagIsParsed() throws Exception {
        SettingsRegistry r = SettingsRegistry.parse(String.join(
                "\n",
                "ROCPROFSYS_A\tbool\tfalse\tcustom\t\thonoured\tall values",
                "ROCPROFSYS_B\tstring\tx\tcustom\tx,y,z\thonoured=x|y\tsome values",
                "ROCPROFSYS_C\tint\t0\tcustom\t\t\tnot yet"));
        assertInstanceOf(
                SettingSupport.Honoured.class,
                r.find("ROCPROFSYS_A").orElseThrow().support());
        SettingSupport b = r.find("ROCPROFSYS_B").orElseThrow().support();
        assertTrue(b.honours("y"));
        assertFalse(b.honours("z"));
        assertInstanceOf(
                SettingSupport.NotYet.class,
                r.find("ROCPROFSYS_C").orElseThrow().support());
    }

    @Test
    void onlyNonDefaultUnhonouredValuesAreListed() throws Exception {
        assertEquals(List.of(), load(Map.of()).unsupported());
        // default values, in any spelling, are not listed
        assertEquals(
                List.of(),
                load(Map.of(
                                "ROCPROFSYS_CI",
                                "off",
                                "ROCPROFSYS_PERFETTO_SHMEM_SIZE_HINT_KB",
                                "+4096",
                                "ROCPROFSYS_CAUSAL_DELAY",
                                "0"))
                        .unsupported());
        List<UnsupportedUse> u = load(Map.of(
                        "ROCPROFSYS_CI", "on", "ROCPROFSYS_MODE", "causal", "ROCPROFSYS_TRACE", "off"))
                .unsupported();
        assertEquals(
                List.of("ROCPROFSYS_MODE=causal", "ROCPROFSYS_CI=true"),
                u.stream().map(x -> x.name() + "=" + x.value()).toList());
        assertEquals(
                "ROCPROFSYS_CI=true (environment) is not supported yet and has no effect",
                u.get(1).message());
        // a value honoured for some values only: MODE=sampling is
        assertEquals(List.of(), load(Map.of("ROCPROFSYS_MODE", "sampling")).unsupported());
    }

    @Test
    void aDeprecatedNameIsCheckedThroughItsTarget() throws Exception {
        // USE_ROCTRACER (legacy) -> USE_ROCM=false: off is honoured (no ROCm tracing is built)
        assertEquals(
                List.of(), load(Map.of("ROCPROFSYS_USE_ROCTRACER", "false")).unsupported());
        List<UnsupportedUse> u =
                load(Map.of("ROCPROFSYS_USE_THREAD_SAMPLING", "false")).unsupported();
        assertEquals(List.of(), u, "USE_PROCESS_SAMPLING is honoured");
    }

    @Test
    void optionsReportedByTheToolComeFirst() throws Exception {
        Settings s = new SettingsLoader(
                        SettingsRegistry.standard(),
                        Map.of("ROCPROFSYS_SUPPRESS_CONFIG", "ON", "ROCPROFSYS_CI", "ON"),
                        Path.of("."))
                .unsupportedOption("--process-wait", "2")
                .load();
        assertEquals(
                List.of(
                        "--process-wait 2 (command line) is not supported yet and has no effect",
                        "ROCPROFSYS_CI=true (environment) is not supported yet and has no effect"),
                s.unsupported().stream().map(UnsupportedUse::message).toList());
    }
}
