package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;

/**
 * Sampler settings that no other test names, each set as a user sets it (by its environment
 * name, through the settings loader) and compared with the defaults in what the sampler's sources
 * hand on: what the agent is told to do, or what the user is told. A source that ignored its
 * setting gives the default's and fails its row.
 */
class SamplerSettingsEffectTest {
    @TempDir
    Path dir;

    /** What a source makes of the settings {@code env}, as text; {@code log} is where it writes. */
    @FunctionalInterface
    interface Observed {
        String of(Map<String, String> env, Settings settings, PrintStream log) throws Exception;
    }

    /**
     * @param base     settings both runs share (what makes the source run at all)
     * @param observed what is compared
     * @param before   what the defaults give
     * @param after    what the setting gives
     */
    record Case(
            String setting, String value, Map<String, String> base, Observed observed, String before, String after) {
        @Override
        public String toString() {
            return setting + "=" + value;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                // the agent's CPU-time timers (perf refused or forced off) signal with SIGPROF (27) by default
                new Case(
                        "ROCPROFSYS_SAMPLING_CPUTIME_SIGNAL",
                        "40",
                        Map.of("ROCPROFSYS_USE_SAMPLING", "ON", CallStackSampling.USE_PERF_ENV, "OFF"),
                        (env, s, log) -> {
                            List<?> sources = CallStackSampling.sources(s, env, log);
                            AgentSampling a = assertInstanceOf(AgentSampling.class, sources.getFirst());
                            return a.targetEnvironment(Path.of("/nonexistent")).get("ROCPROFSYS_AGENT_TIMERS");
                        },
                        "cputime:27:3333333:500000000:*",
                        "cputime:40:3333333:500000000:*"),
                // an event this machine does not know is left out with a warning, which PAPI_QUIET silences
                new Case(
                        "ROCPROFSYS_PAPI_QUIET",
                        "ON",
                        Map.of(
                                "ROCPROFSYS_PROFILE",
                                "ON",
                                "ROCPROFSYS_TIMEMORY_COMPONENTS",
                                "wall_clock papi_array",
                                "ROCPROFSYS_PAPI_EVENTS",
                                "NO_SUCH_CPU_EVENT"),
                        (env, s, log) -> {
                            CpuCounters.sources(s, log);
                            return "";
                        },
                        "[rocprof-sys] warning: ROCPROFSYS_PAPI_EVENTS: unknown CPU event 'NO_SUCH_CPU_EVENT'"
                                + " (rocprof-sys-avail -H lists the CPU events by name); it is not recorded\n",
                        ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSettingChangesWhatTheSourceDoes(Case c) throws Exception {
        assertEquals(c.before(), observe(c, c.base()), "with the defaults");
        Map<String, String> set = new HashMap<>(c.base());
        set.put(c.setting(), c.value());
        assertEquals(c.after(), observe(c, set), "with " + c);
    }

    /** The observed text, followed by what the source logged. */
    private String observe(Case c, Map<String, String> settings) throws Exception {
        Map<String, String> env = new HashMap<>(settings);
        env.put("HOME", dir.toString());
        Settings s = new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        String seen = c.observed().of(env, s, log);
        String logged = bytes.toString(StandardCharsets.UTF_8);
        // the timer fallback's notice is the same either way; only the source's own words are compared
        return seen
                + logged.lines()
                        .filter(l -> !l.contains("perf_event_open refused"))
                        .map(l -> l + "\n")
                        .reduce("", String::concat);
    }
}
