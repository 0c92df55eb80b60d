package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.config.avail.HardwareCounter;
import org.rocprofsys.rocm.counters.RocmCounterCatalog;

/** rocprof-sys-avail -H's GPU rows from the SDK's agent and counter queries, on the replay SDK. */
class RocmCounterCatalogTest {
    @Test
    void everyCounterOfEveryGpuAsRocmEventsNamesIt() throws Exception {
        ReplayBuild b = ReplayBuild.get();
        List<HardwareCounter> counters = new RocmCounterCatalog(List.of(b.sdk().toString())).hardwareCounters();
        // the replay SDK's two GPUs with six counters each; the CPU agent has none
        assertEquals(12, counters.size(), counters.toString());
        HardwareCounter waves = counters.stream()
                .filter(c -> c.name().equals("SQ_WAVES:device=0"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(counters.toString()));
        assertEquals("GPU", waves.device());
        assertEquals("GPU", waves.category());
        assertTrue(waves.available());
        assertEquals("Count number of waves sent to SQs. (per-simd, emulated, global)", waves.description());
        assertTrue(counters.stream().anyMatch(c -> c.name().equals("TA_TA_BUSY:device=1")), counters.toString());
    }

    @Test
    void noSdkNoGpuCounters() {
        assertEquals(
                List.of(), new RocmCounterCatalog(List.of("/nonexistent/librocprofiler-sdk.so")).hardwareCounters());
    }
}
