package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SampleArgumentsTest {
    @Test
    void samplingIsOnAndRealtimeAloneTurnsCputimeOff() {
        Map<String, String> env = SampleArguments.environment(List.of("--realtime", "--", "ls"), Map.of("A", "b"));
        assertEquals(Map.of("A", "b", "ROCPROFSYS_USE_SAMPLING", "true", "ROCPROFSYS_SAMPLING_CPUTIME", "false"), env);
        assertEquals(
                "true",
                SampleArguments.environment(List.of("--cputime", "--realtime", "--", "ls"), Map.of())
                        .get("ROCPROFSYS_USE_SAMPLING"));
        assertFalse(SampleArguments.environment(List.of("--", "ls"), Map.of("ROCPROFSYS_MODE", "causal"))
                .containsKey("ROCPROFSYS_USE_SAMPLING"));
    }
}
