package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.spi.SessionPart;

/** Which samplers the settings give, with perf forced off (the fallback) so that no perf is opened. */
class CallStackSamplingTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    private List<SessionPart> sources(String... kv) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", dir.toString());
        env.put("ROCPROFSYS_USE_SAMPLING", "ON");
        env.put(CallStackSampling.USE_PERF_ENV, "OFF");
        for (int i = 0; i + 1 < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), env, dir).load();
        return CallStackSampling.sources(settings, env, log);
    }

    private String logged() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void cpuTimeFallsBackToTheAgentWithOneNotice() throws Exception {
        List<SessionPart> s = sources();
        // the sampler, its threads' metric tracks, and the notice of a program shorter than the delay
        assertEquals(3, s.size());
        AgentSampling a = assertInstanceOf(AgentSampling.class, s.getFirst());
        assertInstanceOf(SamplingDelayNotice.class, s.getLast());
        // SAMPLING_FREQ 300, SAMPLING_DELAY 0.5 s, SIGPROF, every thread
        assertEquals(Map.of("ROCPROFSYS_AGENT_TIMERS", "cputime:27:3333333:500000000:*"), a.targetEnvironment(dir));
        assertEquals(
                1,
                logged().lines()
                        .filter(l -> l.equals("[rocprof-sys] perf_event_open refused"
                                + " (ROCPROFSYS_SAMPLING_USE_PERF=OFF): falling back to the agent's timer sampler"))
                        .count(),
                logged());
    }

    @Test
    void perTimerSettingsWinWhenSet() throws Exception {
        List<SessionPart> s = sources(
                "ROCPROFSYS_SAMPLING_CPUTIME",
                "ON",
                "ROCPROFSYS_SAMPLING_REALTIME",
                "ON",
                "ROCPROFSYS_SAMPLING_CPUTIME_FREQ",
                "1000",
                "ROCPROFSYS_SAMPLING_REALTIME_FREQ",
                "-1",
                "ROCPROFSYS_SAMPLING_FREQ",
                "50",
                "ROCPROFSYS_SAMPLING_CPUTIME_DELAY",
                "0.25",
                "ROCPROFSYS_SAMPLING_REALTIME_DELAY",
                "0",
                "ROCPROFSYS_SAMPLING_DELAY",
                "1",
                "ROCPROFSYS_SAMPLING_TIDS",
                "0",
                "ROCPROFSYS_SAMPLING_REALTIME_TIDS",
                "1, 3-5",
                "ROCPROFSYS_SAMPLING_DURATION",
                "2.5",
                "ROCPROFSYS_SAMPLING_REALTIME_SIGNAL",
                "40");
        AgentSampling a = assertInstanceOf(AgentSampling.class, s.getFirst());
        assertEquals(
                "cputime:27:1000000:250000000:0;realtime:40:20000000:1000000000:1,3-5",
                a.targetEnvironment(dir).get("ROCPROFSYS_AGENT_TIMERS"));
        assertEquals("2500000000", a.targetEnvironment(dir).get("ROCPROFSYS_AGENT_TIMER_DURATION_NS"));
        // 1050 Hz of samples: a quarter of a second of them does not fit in the default 1 MiB ring
        assertEquals("2166", a.targetEnvironment(dir).get("ROCPROFSYS_AGENT_RING_KB"));
    }

    @Test
    void realtimeAloneOpensNoCpuTimeSampler() throws Exception {
        List<SessionPart> s = sources("ROCPROFSYS_SAMPLING_REALTIME", "ON");
        AgentSampling a = assertInstanceOf(AgentSampling.class, s.getFirst());
        assertEquals(3, s.size());
        assertEquals("realtime:34:3333333:500000000:*", a.targetEnvironment(dir).get("ROCPROFSYS_AGENT_TIMERS"));
        assertFalse(logged().contains("refused"), logged());
    }

    @Test
    void aProgramThatEndsBeforeTheDelaySaysSoOnce() throws Exception {
        assertEquals(2, sources("ROCPROFSYS_SAMPLING_DELAY", "0").size()); // no delay, no notice
        long[] now = {1_000};
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        var notice = new SamplingDelayNotice(500_000_000, out, () -> now[0]);
        notice.start(1, e -> {});
        notice.stop(now[0] + 300_000_000);
        notice.stop(now[0] + 300_000_000);
        assertEquals(
                List.of("[rocprof-sys] the program ended before sampling began after 0.5 s;"
                        + " set ROCPROFSYS_SAMPLING_DELAY=0"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
        var longer = new SamplingDelayNotice(500_000_000, out, () -> now[0]);
        longer.start(1, e -> {});
        longer.stop(now[0] + 600_000_000);
        assertEquals(1, bytes.toString(StandardCharsets.UTF_8).lines().count());
    }

    @Test
    void aFrequencyAboveTheKernelsPerfLimitIsLoweredToItNamingTheLimit() {
        assertEquals(100_000, CallStackSampling.perfRate(1_000_000_000, java.util.OptionalLong.of(100_000), log));
        assertEquals(
                List.of("[rocprof-sys] warning: the sampling frequency of 1000000000 Hz is above the kernel's limit"
                        + " of 100000 samples per second (/proc/sys/kernel/perf_event_max_sample_rate): sampling at"
                        + " 100000 Hz (raise the limit with: sudo sysctl -w kernel.perf_event_max_sample_rate=N)"),
                logged().lines().toList());
        assertEquals(100_000, CallStackSampling.perfRate(100_000, java.util.OptionalLong.of(100_000), log));
        assertEquals(
                1_000_000_000,
                CallStackSampling.perfRate(1_000_000_000, java.util.OptionalLong.of(Long.MAX_VALUE), log));
        assertEquals(1_000_000_000, CallStackSampling.perfRate(1_000_000_000, java.util.OptionalLong.empty(), log));
        // a limit set below the kernel's own floor: perf is not used (the caller falls back and says why)
        assertEquals(0, CallStackSampling.perfRate(300, java.util.OptionalLong.of(1), log));
        assertEquals(1, logged().lines().count());
    }

    @Test
    void noSamplingNoSources() throws Exception {
        assertTrue(sources("ROCPROFSYS_USE_SAMPLING", "OFF").isEmpty());
    }

    @Test
    void badThreadListsAreReported() {
        var e = assertThrows(IllegalArgumentException.class, () -> sources("ROCPROFSYS_SAMPLING_TIDS", "0,x"));
        assertTrue(e.getMessage().contains("ROCPROFSYS_SAMPLING_TIDS"), e.getMessage());
    }

    @Test
    void threadFilters() {
        ThreadFilter f = ThreadFilter.parse("T", " 0, 2-4 7");
        assertEquals("0,2-4,7", f.agentSpec());
        assertTrue(f.selects(0) && f.selects(3) && f.selects(7));
        assertFalse(f.selects(1) || f.selects(5));
        assertTrue(ThreadFilter.parse("T", "").isAll());
        assertEquals("*", ThreadFilter.parse("T", " ").agentSpec());
        assertThrows(IllegalArgumentException.class, () -> ThreadFilter.parse("T", "3-1"));
        assertThrows(IllegalArgumentException.class, () -> ThreadFilter.parse("T", "-1"));
    }

    @Test
    void onlyAnOldKernelsRefusalOfCountersInSamplesMakesTheAgentsTimersSample() {
        // what PerfEvents reports for EINVAL on an inherited event with PERF_SAMPLE_READ
        var old = new org.rocprofsys.sampler.perf.PerfUnavailableException(
                org.rocprofsys.sampler.perf.PerfUnavailableException.Reason.NO_SAMPLE_READ, "EINVAL", 22);
        String why = CallStackSampling.countersRefusal(old);
        assertTrue(
                why.contains("need Linux 6.12 or later")
                        && why.contains("this is Linux " + System.getProperty("os.version"))
                        && why.contains("ROCPROFSYS_PAPI_EVENTS"),
                why);
        // any other failure is the source's to report when it opens its events
        assertEquals(
                null, CallStackSampling.countersRefusal(new org.rocprofsys.sampler.perf.PerfException("EMFILE", 24)));
    }
}
