package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 35 item 10: what the environment and config files give reaches the program or is named.
 * A variable a config file exports ({@code $env:NAME = VALUE}) and an unknown key with
 * ROCPROFSYS_STRICT_CONFIG off reach the program; a misspelt ROCPROFSYS_* variable in the
 * environment is warned about once, with the nearest setting.
 */
class ConfigEnvIT extends DistributionTest {
    private ProcessResult printEnv(Map<String, String> env, String variable) throws Exception {
        return tool(
                "rocprof-sys-run", cwd, env, "--", "sh", "-c", "echo \"" + variable + "=${" + variable + "-unset}\"");
    }

    @Test
    void configFileExportReachesTheProgram() throws Exception {
        Path cfg = cwd.resolve("export.cfg");
        Files.writeString(cfg, "$env:MY_APP_SETTING = from-config\nROCPROFSYS_TRACE = ON\n");
        ProcessResult r = printEnv(environment("export", "ROCPROFSYS_CONFIG_FILE", cfg.toString()), "MY_APP_SETTING");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("MY_APP_SETTING=from-config"), r::toString);

        // the user's environment wins over the file
        r = printEnv(
                environment("export-env", "ROCPROFSYS_CONFIG_FILE", cfg.toString(), "MY_APP_SETTING", "from-shell"),
                "MY_APP_SETTING");
        assertTrue(r.stdout().contains("MY_APP_SETTING=from-shell"), r::toString);
    }

    @Test
    void unknownKeyIsExportedWhenConfigIsNotStrict() throws Exception {
        Path cfg = cwd.resolve("lenient.cfg");
        Files.writeString(cfg, "ROCPROFSYS_NOT_A_SETTING = 42\n");
        ProcessResult r = printEnv(
                environment("lenient", "ROCPROFSYS_CONFIG_FILE", cfg.toString(), "ROCPROFSYS_STRICT_CONFIG", "false"),
                "ROCPROFSYS_NOT_A_SETTING");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("ROCPROFSYS_NOT_A_SETTING=42"), r::toString);
        assertTrue(r.stderr().contains("unknown setting 'ROCPROFSYS_NOT_A_SETTING' exported"), r::toString);
    }

    @Test
    void misspeltEnvironmentVariableIsWarnedOnceWithTheNearestName() throws Exception {
        ProcessResult r =
                tool("rocprof-sys-run", cwd, environment("typo", "ROCPROFSYS_SAMPLNG_FREQ", "50"), "--", "true");
        assertSucceedsWarningOnce(
                r,
                "warning: environment: unknown setting 'ROCPROFSYS_SAMPLNG_FREQ' ignored."
                        + " Did you mean ROCPROFSYS_SAMPLING_FREQ?");

        // the tools' own variables are not settings and draw no warning
        r = tool("rocprof-sys-run", cwd, environment("own", "ROCPROFSYS_SAMPLING_USE_PERF", "0"), "--", "true");
        assertFalse(r.stderr().contains("unknown setting"), r::toString);
    }

    @Test
    void misspeltVariableUnderInstrumentIsWarnedOnce() throws Exception {
        ProcessResult r =
                tool("rocprof-sys-instrument", cwd, environment("typo-instr", "ROCPROFSYS_TRACEE", "ON"), "--", "true");
        assertSucceedsWarningOnce(r, "unknown setting 'ROCPROFSYS_TRACEE' ignored. Did you mean ROCPROFSYS_TRACE?");
    }

    /** The run succeeded and said {@code warning} once on standard error. */
    private static void assertSucceedsWarningOnce(ProcessResult r, String warning) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(1, r.stderr().split(java.util.regex.Pattern.quote(warning), -1).length - 1, r::toString);
    }
}
