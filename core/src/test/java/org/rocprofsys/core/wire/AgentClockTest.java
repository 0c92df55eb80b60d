package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The collector's own calibration pairs: the real librocprof-sys.so, built here, loaded into this
 * JVM (its agent dormant), its rocprofsys_wire_read_clock_pair called through FFM.
 */
class AgentClockTest {
    @TempDir
    static Path build;

    private static Path library;

    @BeforeAll
    static void buildAgent() throws Exception {
        AgentMake.build(build, "all");
        library = build.resolve("librocprof-sys.so");
    }

    @Test
    void readsPairsThroughTheAgentLibrary() throws Exception {
        assertEquals(null, System.getenv(WireFormat.ENV_SESSION_DIR), "the agent must stay dormant in this JVM");
        AgentClock clock = AgentClock.of(library.toString()).orElseThrow();
        assertTrue(AgentClock.of(library.toString()).orElseThrow() == clock, "loaded once per path");
        ClockConversion.Pair a = clock.read();
        long now = System.nanoTime();
        assertTrue(
                Math.abs(now - a.monotonicNs()) < TimeUnit.SECONDS.toNanos(1), "CLOCK_MONOTONIC, as System.nanoTime");
        assumeTrue(a.ticks() != 0, "no time-stamp counter on this machine");
        Thread.sleep(30);
        ClockConversion.Pair b = clock.read();
        assertTrue(b.ticks() > a.ticks() && b.monotonicNs() > a.monotonicNs());
        // the ticks convert back onto CLOCK_MONOTONIC: a third pair lies on the line of the first two
        Thread.sleep(30);
        ClockConversion.Pair c = clock.read();
        long error = ClockConversion.through(a, b).toMonotonicNs(c.ticks()) - c.monotonicNs();
        assertTrue(Math.abs(error) < 100_000, "a pair 30 ms later is off the line by " + error + " ns");
    }

    /**
     * The real agent in real programs: the file names its library, and the collector converts with
     * the exit pair (a 30 ms run) or, for a run shorter than 10 ms, with its own pair.
     */
    @ParameterizedTest
    @CsvSource({"'/bin/sleep 0.03', 0", "'/bin/sh -c exit 3', 3"})
    void aRealAgentFileNamesItsLibraryAndItsTicksConvert(String command, int exitCode, @TempDir Path session)
            throws Exception {
        long before = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(command.split(" ", 3)).inheritIO();
        pb.environment().put("LD_PRELOAD", library.toString());
        pb.environment().put(WireFormat.ENV_SESSION_DIR, session.toString());
        pb.environment().remove(WireFormat.ENV_CLOCK);
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(exitCode, p.exitValue());
        long after = System.nanoTime();
        Path file;
        try (var files = java.nio.file.Files.list(session)) {
            file = files.filter(f -> f.getFileName().toString().endsWith(".ring"))
                    .findFirst()
                    .orElseThrow();
        }
        try (RingFile f = RingFile.open(file)) {
            assertEquals(WireFormat.STATE_EXITED, f.state());
            assertEquals(exitCode, f.exitCode());
            assertEquals(library.toRealPath().toString(), f.agentPath());
            String cpuinfo = java.nio.file.Files.readString(Path.of("/proc/cpuinfo"));
            String flags = cpuinfo.lines()
                    .filter(l -> l.startsWith("flags"))
                    .findFirst()
                    .orElse("");
            boolean tsc = System.getProperty("os.arch").equals("amd64")
                    && java.util.Arrays.asList(flags.split("\\s+"))
                            .containsAll(java.util.List.of("constant_tsc", "nonstop_tsc"));
            assertEquals(tsc ? WireFormat.CLOCK_TSC : WireFormat.CLOCK_MONOTONIC_NS, f.clockKind());
            assertTrue(
                    before <= f.initMonotonicNs()
                            && f.initMonotonicNs() <= f.exitMonotonicNs()
                            && f.exitMonotonicNs() <= after,
                    "the pairs' CLOCK_MONOTONIC lies within the run");
            assertEquals(f.initMonotonicNs(), f.initTimeNs());
            // exact through the exit pair; a run shorter than 10 ms converts with the collector's own pair
            long exitError = f.exitTimeNs() - f.exitMonotonicNs();
            boolean shortRun = f.exitMonotonicNs() - f.initMonotonicNs() < WireFormat.CALIBRATION_MIN_SPAN_NS;
            assertTrue(
                    Math.abs(exitError) <= (tsc && shortRun ? 2000 : 1),
                    "exit time converts near its pair: " + exitError + " ns off");
            List<org.rocprofsys.core.event.TraceEvent> events = new java.util.ArrayList<>();
            for (RingFile.Ring r : f.rings()) {
                RingDrain d = new RingDrain(f.pid(), r, org.rocprofsys.core.event.RegionRun.expanding(events::add));
                d.drain();
                d.flushPending();
            }
            assertEquals(4, events.size(), "THREAD_START, main BEGIN and END, THREAD_END: " + events);
            long previous = f.initTimeNs();
            for (var e : events) {
                assertTrue(
                        e.timestampNs() >= previous && e.timestampNs() <= f.exitTimeNs(),
                        "in order, within the run: " + e);
                previous = e.timestampNs();
            }
            if (tsc) {
                // the file is final: its conversion uses the exit pair, or the collector's own one for a short run
                ClockConversion.Pair own =
                        AgentClock.of(f.agentPath()).orElseThrow().read();
                long ownError = f.clock().toMonotonicNs(own.ticks()) - own.monotonicNs();
                long sinceNs = own.monotonicNs() - f.initMonotonicNs();
                assertTrue(
                        shortRun || Math.abs(ownError) < 1000 + sinceNs / 1000,
                        "a pair read now lies near the line: " + ownError + " ns off after " + sinceNs + " ns");
            }
        }
    }

    @Test
    void aMissingLibraryOrNoneIsNoPair() {
        assertTrue(AgentClock.of("").isEmpty());
        assertTrue(AgentClock.of(null).isEmpty());
        assertTrue(AgentClock.of(build.resolve("no-such-library.so").toString()).isEmpty());
    }
}
