package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.pipeline.SessionDirectory;
import org.rocprofsys.testkit.Make;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * The agent's full-ring policy (docs/wire-protocol.md, "Full rings"), on agent/src/test/c/full_ring.c
 * with a 16 KiB ring: a thread waits while the collector frees space, drops only once the tail has
 * stood still for ROCPROFSYS_AGENT_STALL_MS, and then drops without waiting again.
 */
class FullRingPolicyTest {
    private static final long PAIRS = 20_000; // 40 K records: about 45 times a 16 KiB ring

    @TempDir
    static Path build;

    private static Path agent;
    private static Path program;

    @TempDir
    Path session;

    @BeforeAll
    static void buildProgram() throws Exception {
        Path agentSrc =
                Path.of(System.getProperty("user.dir")).resolve("../agent/src").normalize();
        ProcessResult make = Make.run(agentSrc.resolve("main/c"), "OUT=" + build, "all");
        assertEquals(0, make.exitCode(), "make failed:\n" + make.all());
        agent = build.resolve("librocprof-sys.so");
        program = NativeCompiler.c().compile(agentSrc.resolve("test/c/full_ring.c"), build.resolve("full_ring"), "-O2");
    }

    private Process start(String stallMs) throws IOException {
        return start(stallMs, session);
    }

    private static Process start(String stallMs, Path sessionDir) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(program.toString(), Long.toString(PAIRS));
        pb.environment().put("LD_PRELOAD", agent.toString());
        pb.environment().put(WireFormat.ENV_SESSION_DIR, sessionDir.toString());
        pb.environment().put(WireFormat.ENV_RING_KB, "16");
        pb.environment().remove(WireFormat.ENV_LOSSLESS);
        pb.environment().remove(WireFormat.ENV_INSTRUMENT_PLAN);
        pb.environment().remove(WireFormat.ENV_TIMERS);
        if (stallMs != null) {
            pb.environment().put(WireFormat.ENV_STALL_MS, stallMs);
        } else {
            pb.environment().remove(WireFormat.ENV_STALL_MS);
        }
        pb.redirectErrorStream(true);
        return pb.start();
    }

    private static Map<String, String> finish(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out");
        assertEquals(0, p.exitValue(), out);
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                kv.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return kv;
    }

    private Path ringFile() throws IOException {
        return ringFile(session);
    }

    private static Path ringFile(Path sessionDir) throws IOException {
        try (Stream<Path> files = Files.list(sessionDir)) {
            return files.filter(f -> f.toString().endsWith(".ring")).findFirst().orElse(null);
        }
    }

    private long dropped() throws Exception {
        return dropped(ringFile());
    }

    private static long dropped(Path ringFile) throws Exception {
        try (RingFile f = RingFile.open(ringFile)) {
            return f.rings().getFirst().dropped();
        }
    }

    @Test
    void withNoCollectorTheThreadWaitsOneStallThenDropsWithoutWaiting() throws Exception {
        Map<String, String> kv = finish(start("400"));
        long elapsedMs = Long.parseLong(kv.get("elapsed_ns")) / 1_000_000;
        // the ring fills in the first few hundred pairs; the thread waits for the tail once ...
        assertTrue(elapsedMs >= 400, "waited one stall: " + elapsedMs + " ms");
        // ... and not once per record after that (tens of thousands of records were dropped)
        assertTrue(elapsedMs < 40 * 400, "one stall, not one per record: " + elapsedMs + " ms");
        assertTrue(dropped() > PAIRS, "dropped " + dropped());
    }

    @Test
    void withoutTheSettingAFullRingDropsAtOnce() throws Exception {
        finish(start(null));
        assertTrue(dropped() > PAIRS, "dropped " + dropped());
        Files.delete(ringFile());
        finish(start("0"));
        assertTrue(dropped() > PAIRS, "dropped " + dropped());
    }

    /** What a test collector does between two drains (and while it waits for the ring file). */
    private interface Pause {
        void between() throws Exception;
    }

    /**
     * Runs full_ring (waiting on a full ring for up to {@code stallMs}) against a collector thread
     * that drains its ring, pausing as told between drains, until the program has exited; returns
     * how many region records the collector read, after checking that nothing was lost.
     */
    private static long drainWhileItRuns(Path sessionDir, String stallMs, Pause pause) throws Exception {
        Process p = start(stallMs, sessionDir);
        AtomicLong regions = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread collector = Thread.ofPlatform().start(() -> {
            try {
                Path file;
                while ((file = ringFile(sessionDir)) == null) {
                    pause.between();
                }
                RingFile opened;
                while ((opened = RingFile.open(file)) == null) {
                    Thread.sleep(1); // header not yet published
                }
                try (RingFile f = opened) {
                    RingDrain drain = null;
                    while (true) {
                        boolean exited = f.state() == WireFormat.STATE_EXITED;
                        if (drain == null && !f.rings().isEmpty()) {
                            drain = new RingDrain(f.pid(), f.rings().getFirst(), RegionRun.expanding(e -> {
                                if (e instanceof RegionBegin || e instanceof RegionEnd) {
                                    regions.incrementAndGet();
                                }
                            }));
                        }
                        if (drain != null) {
                            drain.drain();
                        }
                        if (exited) {
                            drain.flushPending();
                            return;
                        }
                        pause.between();
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        finish(p);
        collector.join(120_000);
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(0, dropped(ringFile(sessionDir)));
        return regions.get();
    }

    @Test
    void aDrainingCollectorLosesNothing() throws Exception {
        // a stall far longer than anything a drain takes: the thread only ever waits
        long regions = drainWhileItRuns(session, "60000", () -> {});
        // every pair, plus the main region's begin and end
        assertEquals(2 * PAIRS + 2, regions);
    }

    @Test
    void aWaitingThreadWakesACollectorThatOnlyWakesWhenRung() throws Exception {
        // a collector whose sleeps last 20 s unless the agent rings (touches its ring file when a
        // full ring makes it wait, and at exit): the program still ends in a few seconds
        try (SessionDirectory dir = SessionDirectory.create(session)) {
            AtomicLong wakeUps = new AtomicLong();
            long regions = drainWhileItRuns(dir.path(), "20000", () -> {
                long t0 = System.nanoTime();
                dir.awaitChange(TimeUnit.SECONDS.toMicros(20));
                if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(15)) {
                    throw new AssertionError("slept 15 s: the waiting thread did not ring");
                }
                wakeUps.incrementAndGet();
            });
            assertEquals(2 * PAIRS + 2, regions);
            // 40 K records fill the 16 KiB ring about 45 times
            assertTrue(wakeUps.get() >= 10, "woken " + wakeUps.get() + " times");
        }
    }
}
