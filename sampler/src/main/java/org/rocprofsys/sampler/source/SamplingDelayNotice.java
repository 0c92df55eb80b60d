package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.EventSource;

/**
 * Says once when the target ended before its samplers' delay (SAMPLING_DELAY) had passed, so a
 * short program's missing sampling files are explained rather than silent.
 */
final class SamplingDelayNotice implements EventSource {
    private final long delayNs;
    private final PrintStream log;
    private final LongSupplier clock;
    private long startedNs = -1;

    /** @param delayNs the earliest moment any sampler starts, after the target's start */
    SamplingDelayNotice(long delayNs, PrintStream log) {
        this(delayNs, log, System::nanoTime);
    }

    SamplingDelayNotice(long delayNs, PrintStream log, LongSupplier clock) {
        this.delayNs = delayNs;
        this.log = log;
        this.clock = clock;
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {
        startedNs = clock.getAsLong();
    }

    @Override
    public void stop(long timestampNs) {
        if (startedNs >= 0 && timestampNs - startedNs < delayNs) {
            log.println("[rocprof-sys] " + message(delayNs));
        }
        startedNs = -1; // once
    }

    static String message(long delayNs) {
        String seconds = BigDecimal.valueOf(delayNs, 9).stripTrailingZeros().toPlainString();
        return "the program ended before sampling began after " + seconds + " s; set ROCPROFSYS_SAMPLING_DELAY=0";
    }
}
