package org.rocprofsys.core.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

/** ROCPROFSYS_PERFETTO_ENCODERS (it was -Drocprofsys.perfetto.encoders): -1 leaves the encoders to the machine. */
class EncodersSettingTest {
    @TempDir
    Path dir;

    private int encoders(String value) throws Exception {
        Map<String, String> env = value == null
                ? Map.of("HOME", dir.toString())
                : Map.of("HOME", dir.toString(), PerfettoFormat.ENCODERS, value);
        return PerfettoFormat.encoderThreads(new SettingsLoader(SettingsRegistry.standard(), env, dir).load());
    }

    @Test
    void theSettingOrTheMachineDecides() throws Exception {
        int here = SegmentEncoders.threadsFor(Runtime.getRuntime().availableProcessors());
        assertEquals(here, encoders(null));
        assertEquals(here, encoders("-1"));
        assertEquals(0, encoders("0"));
        assertEquals(2, encoders("2"));
        assertEquals(0, encoders("-5"));
    }
}
