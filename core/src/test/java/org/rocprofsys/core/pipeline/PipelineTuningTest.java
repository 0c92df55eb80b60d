package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

/** The collector's settings (they were -Drocprofsys.* properties) reach the tuning, and their defaults are the machine's. */
class PipelineTuningTest {
    @TempDir
    Path dir;

    private Settings settings(String... keyValues) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("HOME", dir.toString()));
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
    }

    @Test
    void theDefaultsAreTheMachines() throws Exception {
        assertEquals(PipelineTuning.machine(), PipelineTuning.of(settings()));
        assertEquals(200_000, PipelineTuning.machine().caughtUpPauseNanos());
    }

    @Test
    void theSettingsDecide() throws Exception {
        PipelineTuning t = PipelineTuning.of(settings(
                PipelineTuning.HOLD_BYTES, "1048576",
                PipelineTuning.CAUGHT_UP_SLEEP_US, "0",
                PipelineTuning.STAGE_THREAD, "true"));
        assertEquals(new PipelineTuning(1 << 20, 0, true), t);
        t = PipelineTuning.of(settings(
                PipelineTuning.HOLD_BYTES, "0",
                PipelineTuning.CAUGHT_UP_SLEEP_US, "50",
                PipelineTuning.STAGE_THREAD, "false"));
        assertEquals(new PipelineTuning(0, 50_000, false), t);
    }
}
