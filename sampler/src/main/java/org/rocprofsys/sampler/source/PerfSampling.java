package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.util.List;

import org.rocprofsys.config.Settings;
import org.rocprofsys.core.session.BackgroundSource;
import org.rocprofsys.sampler.perf.OverflowEvent;
import org.rocprofsys.sampler.perf.PerfEventAttr;

/**
 * Builds the call-stack sampler a run's settings ask for (inventory §5): USE_SAMPLING turns it on;
 * the cputime timer's own frequency and delay win when set (> 0), else SAMPLING_FREQ and
 * SAMPLING_DELAY, as upstream.
 */
public final class PerfSampling {
    private PerfSampling() {
    }

    public static List<BackgroundSource> sources(Settings settings, PrintStream log) {
        if (!settings.bool("ROCPROFSYS_USE_SAMPLING")) {
            return List.of();
        }
        double freq = positiveOr(settings.number("ROCPROFSYS_SAMPLING_CPUTIME_FREQ"),
                settings.number("ROCPROFSYS_SAMPLING_FREQ"));
        double delay = positiveOr(settings.number("ROCPROFSYS_SAMPLING_CPUTIME_DELAY"),
                settings.number("ROCPROFSYS_SAMPLING_DELAY"));
        double duration = settings.number("ROCPROFSYS_SAMPLING_DURATION");
        if (!(freq > 0)) {
            throw new IllegalArgumentException("ROCPROFSYS_SAMPLING_FREQ must be above 0, not " + freq);
        }
        PerfEventAttr event = null;
        if (settings.bool("ROCPROFSYS_SAMPLING_OVERFLOW")) {
            // the overflow value counts events between samples; unset, the kernel aims at SAMPLING_FREQ
            OverflowEvent e = OverflowEvent.parse(settings.get("ROCPROFSYS_SAMPLING_OVERFLOW_EVENT"));
            double every = settings.number("ROCPROFSYS_SAMPLING_OVERFLOW_FREQ");
            event = every > 0 ? e.attr(Math.round(every))
                    : PerfEventAttr.overflowSampling(e.type(), e.config(), Math.max(1, Math.round(freq)))
                            .withFlags(PerfEventAttr.FLAG_FREQ);
        }
        PerfSamplingSource.Config config = new PerfSamplingSource.Config(Math.max(1, Math.round(freq)),
                seconds(delay), seconds(duration), settings.bool("ROCPROFSYS_SAMPLING_KEEP_INTERNAL"),
                (int) settings.integer("ROCPROFSYS_VERBOSE"), event);
        return List.of(new PerfSamplingSource(config, log));
    }

    private static double positiveOr(double value, double fallback) {
        return value > 0 ? value : fallback;
    }

    private static long seconds(double s) {
        return s > 0 ? Math.round(s * 1e9) : 0;
    }
}
