package org.rocprofsys.core.pipeline;

import java.util.concurrent.TimeUnit;
import org.rocprofsys.config.Settings;

/**
 * How the collector and the stages use the machine: what the collector holds of the rings'
 * records while the target runs ({@link HeldRecords#forRings}), its pause after a pass that caught
 * up with the producers, and whether the stages get a thread of their own ({@link StageThread}).
 * A run takes them from its settings ({@link #of}); {@link #machine} is what those settings default
 * to here (docs/benchmarks.md gives the figures behind each default).
 *
 * @param holdBytes          bytes of ring records held while the target runs (0: decoded as they come)
 * @param caughtUpPauseNanos the pause after a pass that read fewer records than a batch (0: none)
 * @param stageThread        whether the filters and the normaliser run on a thread of their own
 */
public record PipelineTuning(long holdBytes, long caughtUpPauseNanos, boolean stageThread) {
    /** Bytes held ({@value}: the machine decides, {@link HeldRecords#forRings}). */
    public static final String HOLD_BYTES = "ROCPROFSYS_COLLECTOR_HOLD_BYTES";
    /** Microseconds of pause after a pass that caught up (0 turns it off). */
    public static final String CAUGHT_UP_SLEEP_US = "ROCPROFSYS_COLLECTOR_CAUGHT_UP_SLEEP_US";
    /** auto (the machine decides, {@link StageThread#wanted}), true or false. */
    public static final String STAGE_THREAD = "ROCPROFSYS_COLLECTOR_STAGE_THREAD";

    /** The pause's default: a ring holds many times what producers write in it. */
    static final long DEFAULT_CAUGHT_UP_SLEEP_US = 200;

    public PipelineTuning {
        if (holdBytes < 0 || caughtUpPauseNanos < 0) {
            throw new IllegalArgumentException("holdBytes and caughtUpPauseNanos must be >= 0");
        }
    }

    /** The defaults on this machine (the settings' defaults). */
    public static PipelineTuning machine() {
        int cpus = Runtime.getRuntime().availableProcessors();
        return new PipelineTuning(
                HeldRecords.forRings(cpus, HeldRecords.AUTOMATIC),
                TimeUnit.MICROSECONDS.toNanos(DEFAULT_CAUGHT_UP_SLEEP_US),
                StageThread.wanted(cpus, StageThread.AUTOMATIC));
    }

    /** From a run's settings. */
    public static PipelineTuning of(Settings settings) {
        int cpus = Runtime.getRuntime().availableProcessors();
        return new PipelineTuning(
                HeldRecords.forRings(cpus, settings.integer(HOLD_BYTES)),
                TimeUnit.MICROSECONDS.toNanos(Math.max(0, settings.integer(CAUGHT_UP_SLEEP_US))),
                StageThread.wanted(cpus, settings.get(STAGE_THREAD)));
    }
}
