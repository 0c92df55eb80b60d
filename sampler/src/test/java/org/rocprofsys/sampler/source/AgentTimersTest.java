package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;

/** The agent's timer configuration: its environment, ring size, first-sample period and verbose lines. */
class AgentTimersTest {
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    @Test
    void environmentRingAndPeriods() {
        AgentTimer cpu = new AgentTimer(StackSample.Kind.CPU, 27, 1000, 250_000_000, ThreadFilter.parse("T", "0"));
        AgentTimer wall = new AgentTimer(StackSample.Kind.WALL, 40, 50, 0, ThreadFilter.parse("T", "1,3-5"));
        AgentTimers t = new AgentTimers(List.of(cpu, wall), 2_500_000_000L, 0, log).withRingKb(1024);
        assertEquals(
                Map.of(
                        "ROCPROFSYS_AGENT_TIMERS",
                        "cputime:27:1000000:250000000:0;realtime:40:20000000:0:1,3-5",
                        "ROCPROFSYS_AGENT_TIMER_DURATION_NS",
                        "2500000000",
                        "ROCPROFSYS_AGENT_RING_KB",
                        "2166"),
                t.environment());
        assertEquals(1_000_000, t.periodNs(StackSample.Kind.CPU));
        assertEquals(20_000_000, t.periodNs(StackSample.Kind.WALL));
        // a ring already large enough is left alone
        assertEquals(
                null,
                new AgentTimers(List.of(cpu), 0, 0, log)
                        .withRingKb(1 << 20)
                        .environment()
                        .get("ROCPROFSYS_AGENT_RING_KB"));
        assertEquals(
                Map.of(), new AgentTimers(List.of(), 5, 0, log).withRingKb(0).environment());
        assertThrows(
                IllegalArgumentException.class,
                () -> new AgentTimer(StackSample.Kind.CPU, 27, 0, 0, ThreadFilter.all()));
        assertEquals("", logBytes.toString(StandardCharsets.UTF_8), "VERBOSE 0 prints nothing");
    }

    @Test
    void verboseLinesNameTheThreadsEachTimerSamples() {
        AgentTimer cpu = new AgentTimer(StackSample.Kind.CPU, 27, 100, 0, ThreadFilter.parse("T", "0"));
        AgentTimer wall = new AgentTimer(StackSample.Kind.WALL, 34, 8, 0, ThreadFilter.all());
        AgentTimers t = new AgentTimers(List.of(cpu, wall), 0, 1, log);
        t.announce(new ThreadStarted(1, 42, 42, 0));
        t.announce(new ThreadStarted(2, 42, 43, 1));
        assertEquals(
                List.of(
                        "[rocprof-sys][42][SIG27] Sampler for thread 0 will be triggered 100.0x per second of CPU-time"
                                + " (every 10.000 milliseconds)...",
                        "[rocprof-sys][42][SIG34] Sampler for thread 0 will be triggered 8.0x per second of wall-time"
                                + " (every 125.000 milliseconds)...",
                        "[rocprof-sys][42][SIG34] Sampler for thread 1 will be triggered 8.0x per second of wall-time"
                                + " (every 125.000 milliseconds)..."),
                logBytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    @Test
    void durationLinesOnlyWhenThisSamplerAnnouncesThem() throws Exception {
        AgentTimer wall = new AgentTimer(StackSample.Kind.WALL, 34, 100, 0, ThreadFilter.all());
        new AgentTimers(List.of(wall), 1_000_000_000L, 1, log)
                .withoutDurationLines()
                .announceDuration(() -> false);
        assertEquals("", logBytes.toString(StandardCharsets.UTF_8));
        new AgentTimers(List.of(wall), 1_000_000L, 1, log).announceDuration(() -> false);
        String first = "[rocprof-sys] Sampling will be disabled after 0.001000 seconds...";
        String last = "[rocprof-sys] Sampling duration of 0.001000 seconds has elapsed. Shutting down sampling...";
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!logBytes.toString(StandardCharsets.UTF_8).contains(last) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(
                List.of(first, last),
                logBytes.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
