package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.core.spi.SessionPart;
import org.rocprofsys.core.spi.SourceProvider;

/** The run's background sources come from one list of providers, in its order. */
class SourceProviderTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    @Test
    void providersAreAskedInOrderWithTheRunsSettingsAndEnvironment() throws Exception {
        Settings settings = load(Map.of());
        Map<String, String> env = Map.of("X", "y");
        List<String> asked = new ArrayList<>();
        SessionPart a = new Named();
        SessionPart b = new Named();
        SessionPart c = new Named();
        SourceProvider first = (s, e, l) -> {
            assertTrue(s == settings && e == env && l == log);
            asked.add("first");
            return List.of(a, b);
        };
        SourceProvider none = (s, e, l) -> {
            asked.add("none");
            return List.of();
        };
        SourceProvider last = (s, e, l) -> {
            asked.add("last");
            return List.of(c);
        };
        assertEquals(List.of(a, b, c), SourceProvider.all(List.of(first, none, last), settings, env, log));
        assertEquals(List.of("first", "none", "last"), asked);
    }

    @Test
    void theRunsListIsProcessSamplingThenCallStackSampling() throws Exception {
        // nothing asked for: no source but the Python targets' stage (it has no thread)
        Settings off = load(Map.of(
                "ROCPROFSYS_USE_AMD_SMI", "false", "ROCPROFSYS_USE_CUDA", "false", "ROCPROFSYS_USE_ROCM", "false"));
        assertEquals(
                List.of("PythonTargets"),
                SourceProvider.all(RunCommand.SOURCES, off, Map.of(), log).stream()
                        .map(x -> x.getClass().getSimpleName())
                        .toList());

        // -H (process tree, no GPUs) and agent realtime samples: one source of each, in list order
        Settings both = load(Map.of(
                "ROCPROFSYS_USE_AMD_SMI",
                "false",
                "ROCPROFSYS_USE_CUDA",
                "false",
                "ROCPROFSYS_USE_ROCM",
                "false",
                "ROCPROFSYS_CPU_FREQ_ENABLED",
                "true",
                "ROCPROFSYS_USE_SAMPLING",
                "true",
                "ROCPROFSYS_SAMPLING_REALTIME",
                "true",
                "ROCPROFSYS_SAMPLING_CPUTIME",
                "false"));
        List<SessionPart> s = SourceProvider.all(RunCommand.SOURCES, both, Map.of(), log);
        assertEquals(
                // the sampler's per-thread CPU-time tracks and its notice of a program that ends
                // before SAMPLING_DELAY come with it
                List.of(
                        "ProcessSampler",
                        "AgentSampling",
                        "SampledThreadMetrics",
                        "SamplingDelayNotice",
                        "PythonTargets"),
                s.stream().map(x -> x.getClass().getSimpleName()).toList());
        assertEquals("", logBytes.toString(StandardCharsets.UTF_8));

        // a provider's refusal of its settings reaches the caller (a usage error there)
        Settings bad = load(Map.of(
                "ROCPROFSYS_USE_AMD_SMI",
                "false",
                "ROCPROFSYS_USE_SAMPLING",
                "true",
                "ROCPROFSYS_SAMPLING_REALTIME",
                "true",
                "ROCPROFSYS_SAMPLING_CPUTIME",
                "false",
                "ROCPROFSYS_SAMPLING_TIDS",
                "main"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SourceProvider.all(RunCommand.SOURCES, bad, Map.of(), log));
        assertTrue(e.getMessage().contains("ROCPROFSYS_SAMPLING_TIDS"), e.getMessage());
    }

    private Settings load(Map<String, String> env) throws Exception {
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("HOME", dir.resolve("home").toString());
        return new SettingsLoader(SettingsRegistry.standard(), e, dir).load();
    }

    /** A source that does nothing; identity is what the test compares. */
    private static final class Named implements EventSource {
        @Override
        public void start(int targetPid, Consumer<TraceEvent> out) {}

        @Override
        public void stop(long timestampNs) {}
    }
}
