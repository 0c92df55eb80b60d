package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Upstream's rocprofiler-systems-invalid-config and -missing-config (inventory §9.3, both
 * WILL_FAIL), made stricter: the exit must be the configuration error's, with a message naming the
 * problem, and nothing may be written.
 */
class ConfigErrorsIT extends DistributionTest {
    private void assertConfigError(ProcessResult r, String... fragments) throws Exception {
        assertEquals(1, r.exitCode(), r::toString);
        for (String f : fragments) {
            assertTrue(r.stderr().contains(f), "expected '" + f + "' in\n" + r);
        }
        try (var files = Files.list(cwd)) {
            assertEquals(
                    0,
                    files.filter(p -> !p.getFileName().toString().endsWith(".cfg"))
                            .count(),
                    "no output may be written");
        }
    }

    @Test
    void invalidConfigFailsInEveryTool() throws Exception {
        Path cfg = cwd.resolve("invalid.cfg");
        Files.writeString(cfg, "ROCPROFSYS_VERBOSE = 1\nFOOBAR = ON\n");
        Map<String, String> env = Map.of("ROCPROFSYS_CONFIG_FILE", cfg.toString());
        for (String tool : new String[] {"rocprof-sys-run", "rocprof-sys-instrument", "rocprof-sys-sample"}) {
            assertConfigError(
                    tool(tool, cwd, env, "--", "true"),
                    "[" + tool + "] error: " + cfg + ":2: Unknown setting 'FOOBAR' (value = 'ON')");
        }
        assertConfigError(tool("rocprof-sys-avail", cwd, env), "Unknown setting 'FOOBAR'");
    }

    @Test
    void missingConfigFails() throws Exception {
        Map<String, String> env = Map.of(
                "ROCPROFSYS_CONFIG_FILE", cwd.resolve("does-not-exist.cfg").toString());
        assertConfigError(
                tool("rocprof-sys-run", cwd, env, "--", "true"),
                "Error reading configuration file: " + cwd.resolve("does-not-exist.cfg") + " does not exist");
        assertConfigError(tool("rocprof-sys-instrument", cwd, env, "--", "true"), "does-not-exist.cfg");
    }

    @Test
    void configGivenWithDashCFailsTheSameWay() throws Exception {
        Path cfg = cwd.resolve("typo.cfg");
        Files.writeString(cfg, "ROCPROFSYS_SAMPLING_FREQ = often\n");
        assertConfigError(
                tool("rocprof-sys-run", cwd, Map.of(), "-c", cfg.toString(), "--", "true"),
                "invalid value 'often' for ROCPROFSYS_SAMPLING_FREQ (double): a floating-point number is required");
    }

    @Test
    void badValueInEnvironmentNamesSettingAndAllowedValues() throws Exception {
        assertConfigError(
                tool("rocprof-sys-run", cwd, Map.of("ROCPROFSYS_MODE", "fastest"), "--", "true"),
                "environment: invalid value 'fastest' for ROCPROFSYS_MODE: 'fastest' is not one of trace, sampling,"
                        + " causal, coverage");
    }

    @Test
    void pythonHandsItsConfigFileToTheRunAndFailsTheSameWay() throws Exception {
        Path cfg = cwd.resolve("invalid.cfg");
        Files.writeString(cfg, "ROCPROFSYS_VERBOSE = 1\nFOOBAR = ON\n");
        assertConfigError(
                tool(
                        "rocprof-sys-python",
                        cwd,
                        Map.of(),
                        "-c",
                        cfg.toString(),
                        "--",
                        REPO.resolve("examples/python/external.py").toString()),
                "[rocprof-sys-run] error: " + cfg + ":2: Unknown setting 'FOOBAR' (value = 'ON')");
    }
}
