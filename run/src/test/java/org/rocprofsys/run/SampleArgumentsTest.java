package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class SampleArgumentsTest {
    @Test
    void sampleOnlyOptionsBecomeRunOptions() {
        assertEquals(List.of("--sampling-freq", "500", "--trace-wait=1", "--sampling-wait=1", "--trace-duration=2",
                "--sampling-duration=2", "--sample-cputime", "-P", "--", "app", "--freq", "-w", "3"),
                SampleArguments.toRunArguments(List.of("--freq", "500", "-w", "1", "--duration=2", "--cputime", "-P",
                        "--", "app", "--freq", "-w", "3")));
        assertEquals(List.of("-f", "100", "--sample-realtime=50", "--", "ls"),
                SampleArguments.toRunArguments(List.of("-f", "100", "--realtime=50", "--", "ls")));
    }

    @Test
    void samplingIsOnAndRealtimeAloneTurnsCputimeOff() {
        Map<String, String> env = SampleArguments.environment(List.of("--realtime", "--", "ls"), Map.of("A", "b"));
        assertEquals(Map.of("A", "b", "ROCPROFSYS_USE_SAMPLING", "true", "ROCPROFSYS_SAMPLING_CPUTIME", "false"), env);
        assertEquals("true", SampleArguments.environment(List.of("--cputime", "--realtime", "--", "ls"), Map.of())
                .get("ROCPROFSYS_USE_SAMPLING"));
        assertFalse(SampleArguments.environment(List.of("--", "ls"), Map.of("ROCPROFSYS_MODE", "causal"))
                .containsKey("ROCPROFSYS_USE_SAMPLING"));
    }
}
