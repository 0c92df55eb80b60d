package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.TraceEvent;

/**
 * The sampling window of a target launched through the exec gate starts when the target is
 * released, not when the collector gets round to {@code start}: on a loaded machine opening the
 * outputs between the two took long enough that whole threads lost every sample.
 */
class PerfSamplingWindowTest {
    @Test
    void samplesTakenBeforeStartAreKeptWhenAttachedBeforeExec() throws Exception {
        Process shim = BurnProgram.held(BurnProgram.build("burn-window"), 300);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PerfSamplingSource source = new PerfSamplingSource(
                new PerfSamplingSource.Config(1000, 0, 0), new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        source.attachBeforeExec((int) shim.pid());
        String log = logBytes.toString(StandardCharsets.UTF_8);
        if (log.contains("call-stack sampling is off")) {
            shim.destroyForcibly();
            abort("perf_event_open is refused here: " + log.strip());
        }
        try (OutputStream release = shim.getOutputStream()) {
            release.write('\n');
        }
        // the whole target runs before the collector starts the source: every sample predates start()
        assertTrue(shim.waitFor(60, TimeUnit.SECONDS), "the test program did not end");
        List<StackSample> samples = new ArrayList<>();
        source.start((int) shim.pid(), (TraceEvent e) -> {
            if (e instanceof StackSample s) {
                synchronized (samples) {
                    samples.add(s);
                }
            }
        });
        source.stop(System.nanoTime());
        // three threads of 300 ms CPU each at 1 kHz: about 900 samples; a window that began at
        // start() would keep none, and rings read only from start() would overflow (~500 per CPU)
        assertTrue(samples.size() >= 300, samples.size() + " samples kept; log: " + logBytes);
        assertFalse(logBytes.toString(StandardCharsets.UTF_8).contains("dropped"), logBytes::toString);
    }

    /**
     * While the target runs only the reader works: the samples are unwound and handed on when
     * sampling stops, unless what the reader holds exceeds the budget, which is then analysed as
     * the target runs (by the unwinder at nice 19: on a machine the target fills, it may get
     * through little). Either way every sample arrives.
     */
    @Test
    void samplesAreAnalysedAfterTheRunUnlessTheHeldRecordsExceedTheBudget() throws Exception {
        int[] whileRunning = held(Long.MAX_VALUE, 300);
        assertEquals(0, whileRunning[0], "samples analysed while the target ran");
        assertEquals(0, whileRunning[1], "batches taken up while the target ran");
        assertTrue(whileRunning[2] >= 300, whileRunning[2] + " samples in all");
        int[] overBudget = held(64 * 1024, 600);
        assertTrue(overBudget[1] > 0, "a small budget is analysed while the target runs");
        assertTrue(overBudget[2] >= 600, overBudget[2] + " samples in all");
    }

    /**
     * With {@code holdBytes}: samples handed on before the target ended, batches the unwinder
     * took up by then, and samples in all.
     */
    private static int[] held(long holdBytes, int burnMs) throws Exception {
        Process shim = BurnProgram.held(BurnProgram.build("burn-hold"), burnMs);
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PerfSamplingSource source = new PerfSamplingSource(
                        new PerfSamplingSource.Config(1000, 0, 0),
                        new PrintStream(logBytes, true, StandardCharsets.UTF_8))
                .withHoldBytes(holdBytes);
        source.attachBeforeExec((int) shim.pid());
        if (logBytes.toString(StandardCharsets.UTF_8).contains("call-stack sampling is off")) {
            shim.destroyForcibly();
            abort("perf_event_open is refused here: "
                    + logBytes.toString(StandardCharsets.UTF_8).strip());
        }
        java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
        source.start((int) shim.pid(), (TraceEvent e) -> {
            if (e instanceof StackSample) {
                samples.incrementAndGet();
            }
        });
        try (OutputStream release = shim.getOutputStream()) {
            release.write('\n');
        }
        assertTrue(shim.waitFor(60, TimeUnit.SECONDS), "the test program did not end");
        int before = samples.get();
        int batches = source.batchesAnalysed();
        source.stop(System.nanoTime());
        // the kernel's own ring overflow (said as "the kernel dropped") depends on how soon the
        // reading thread runs on a busy machine; no other record may be dropped
        assertFalse(
                logBytes.toString(StandardCharsets.UTF_8)
                        .replace("the kernel dropped", "")
                        .contains("dropped"),
                logBytes::toString);
        return new int[] {before, batches, samples.get()};
    }
}
