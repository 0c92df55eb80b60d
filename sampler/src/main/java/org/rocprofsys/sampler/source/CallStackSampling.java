package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.rocprofsys.config.SettingType;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.core.counters.CpuEvents;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.spi.SessionPart;
import org.rocprofsys.sampler.counters.CpuEventResolver;
import org.rocprofsys.sampler.counters.PerfCounter;
import org.rocprofsys.sampler.perf.OverflowEvent;
import org.rocprofsys.sampler.perf.PerfEventAttr;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfException;
import org.rocprofsys.sampler.perf.PerfUnavailableException;

/**
 * Builds the call-stack samplers a run's settings ask for (inventory §5). USE_SAMPLING turns
 * sampling on; SAMPLING_CPUTIME, SAMPLING_REALTIME and SAMPLING_OVERFLOW pick the samplers (CPU
 * time when none is chosen, as upstream):
 * <ul>
 * <li>CPU time: perf_event_open cpu-clock events on the target ({@link PerfSamplingSource}, no
 * signal in the target) when perf_event_open is allowed here; otherwise, after one notice, the
 * agent's CLOCK_THREAD_CPUTIME_ID timers ({@link AgentSampling}). The environment variable
 * {@value #USE_PERF_ENV}{@code =OFF} (not a setting) forces the fallback, as if perf were refused.</li>
 * <li>Real time: always the agent's wall-clock timers, which sample sleeping threads too.</li>
 * <li>Overflow: perf samples of SAMPLING_OVERFLOW_EVENT every SAMPLING_OVERFLOW_FREQ events, a
 * sampler of its own beside the others (software events here; hardware ones where the PMU
 * exists), its samples on upstream's {@code Thread N Overflow (S) <tid>} tracks, its threads
 * SAMPLING_OVERFLOW_TIDS. No signal reaches the target (perf's rings carry the samples), so
 * SAMPLING_OVERFLOW_SIGNAL is only checked to be a signal: a program's own handler of it is never
 * disturbed. SAMPLING_OVERFLOW=ON asks for samples by itself (config's {@code Defaults}).</li>
 * </ul>
 * The CPU counters of ROCPROFSYS_PAPI_EVENTS ride in either sampler's samples (per-thread
 * {@code Thread <event> [<n>] (S)} tracks): perf's samples carry them where the kernel puts counts
 * in the samples of inherited events (Linux 6.12+); elsewhere CPU time is sampled with the agent's
 * timers instead, after the usual notice naming the kernel, as if perf were refused.
 * Each timer's frequency and delay are its own setting when above 0, else SAMPLING_FREQ and
 * SAMPLING_DELAY; its threads are its own _TIDS setting when not empty, else SAMPLING_TIDS.
 * With agent timers, the rings grow beyond RING_BUFFER_SIZE_KB where a quarter of a second of
 * samples would not fit ({@link AgentTimers#withRingKb}). One {@link SampledThreads} filter applies
 * the thread lists to perf's and the agent's samples alike.
 */
public final class CallStackSampling {
    /** Environment switch: OFF makes CPU-time sampling use the agent's timers even where perf works. */
    public static final String USE_PERF_ENV = "ROCPROFSYS_SAMPLING_USE_PERF";

    private static final String MAX_SAMPLE_RATE = "kernel/perf_event_max_sample_rate";
    /** The lowest perf_event_max_sample_rate the kernel sets itself (HZ, at least 100). */
    static final long MIN_PERF_RATE = 100;

    private CallStackSampling() {}

    /**
     * @param environment the target's environment (for {@value #USE_PERF_ENV})
     * @throws IllegalArgumentException a frequency that is not above 0, or a malformed thread list
     */
    public static List<SessionPart> sources(Settings settings, Map<String, String> environment, PrintStream log) {
        if (!settings.bool("ROCPROFSYS_USE_SAMPLING")) {
            return List.of();
        }
        boolean cputime = settings.bool("ROCPROFSYS_SAMPLING_CPUTIME");
        boolean realtime = settings.bool("ROCPROFSYS_SAMPLING_REALTIME");
        boolean overflow = settings.bool("ROCPROFSYS_SAMPLING_OVERFLOW");
        PerfEventAttr overflowEvent = null;
        String overflowName = null;
        if (overflow) {
            // perf samples one event every SAMPLING_OVERFLOW_FREQ occurrences (unset: the kernel aims at
            // SAMPLING_FREQ samples a second)
            OverflowEvent e = OverflowEvent.parse(settings.get("ROCPROFSYS_SAMPLING_OVERFLOW_EVENT"));
            overflowName = e.name().replace("PERF_COUNT_", "");
            long signal = settings.integer("ROCPROFSYS_SAMPLING_OVERFLOW_SIGNAL");
            if (signal < 1 || signal > 64) {
                throw new IllegalArgumentException(
                        "ROCPROFSYS_SAMPLING_OVERFLOW_SIGNAL must be a signal number (1-64), not " + signal);
            }
            double every = settings.number("ROCPROFSYS_SAMPLING_OVERFLOW_FREQ");
            overflowEvent = every > 0
                    ? e.attr(Math.round(every))
                    : PerfEventAttr.overflowSampling(
                                    e.type(),
                                    e.config(),
                                    Math.max(1, Math.round(settings.number("ROCPROFSYS_SAMPLING_FREQ"))))
                            .withFlags(PerfEventAttr.FLAG_FREQ);
        }
        if (!cputime && !realtime && !overflow) {
            cputime = true;
        }
        // The agent's frames (its main wrapper, its hooks) are this build's, not upstream's rocprof-sys
        // frames that upstream's default (true) keeps: they show only when the user sets ON.
        boolean keepInternal = settings.bool("ROCPROFSYS_SAMPLING_KEEP_INTERNAL")
                && settings.value("ROCPROFSYS_SAMPLING_KEEP_INTERNAL").isSet();
        double freq = settings.number("ROCPROFSYS_SAMPLING_FREQ");
        double delay = settings.number("ROCPROFSYS_SAMPLING_DELAY");
        long durationNs = seconds(settings.number("ROCPROFSYS_SAMPLING_DURATION"));
        ThreadFilter allTids = ThreadFilter.parse("ROCPROFSYS_SAMPLING_TIDS", settings.get("ROCPROFSYS_SAMPLING_TIDS"));
        int verbose = (int) settings.integer("ROCPROFSYS_VERBOSE");
        List<String> counterNames = CpuEvents.from(settings).names();

        List<SessionPart> sources = new ArrayList<>();
        List<AgentTimer> timers = new ArrayList<>();
        ThreadFilter cpuThreads = ThreadFilter.all();
        ThreadFilter wallThreads = ThreadFilter.all();
        ThreadFilter overflowThreads = ThreadFilter.all();
        long firstStartNs = Long.MAX_VALUE;
        if (overflow) {
            long delayNs = seconds(delay);
            firstStartNs = Math.min(firstStartNs, delayNs);
            overflowThreads = tids(settings, "ROCPROFSYS_SAMPLING_OVERFLOW_TIDS", allTids);
            long hz = Math.max(1, Math.round(freq));
            String refused = perfRefusal(environment, hz);
            if (refused == null) {
                sources.add(new PerfSamplingSource(
                                new PerfSamplingSource.Config(
                                        hz,
                                        delayNs,
                                        durationNs,
                                        keepInternal,
                                        verbose,
                                        overflowEvent,
                                        settings.bool("ROCPROFSYS_SAMPLING_INCLUDE_INLINES"),
                                        List.of(),
                                        List.of()),
                                log)
                        .overflowSamples(overflowName));
            } else {
                log.println(
                        "[rocprof-sys] warning: ROCPROFSYS_SAMPLING_OVERFLOW needs perf_event_open (" + refused + ")"
                                + (cputime || realtime
                                        ? ": no overflow samples"
                                        : "; sampling CPU time with the agent's timers instead"));
                cputime |= !realtime;
            }
        }
        if (cputime) {
            double hz = positiveOr(settings.number("ROCPROFSYS_SAMPLING_CPUTIME_FREQ"), freq);
            long delayNs = seconds(positiveOr(settings.number("ROCPROFSYS_SAMPLING_CPUTIME_DELAY"), delay));
            firstStartNs = Math.min(firstStartNs, delayNs);
            cpuThreads = tids(settings, "ROCPROFSYS_SAMPLING_CPUTIME_TIDS", allTids);
            if (!(hz > 0)) {
                throw new IllegalArgumentException("ROCPROFSYS_SAMPLING_FREQ must be above 0, not " + hz);
            }
            String refused = null;
            if (!perfForcedOff(environment)) {
                long rate = Math.max(1, Math.round(hz));
                OptionalLong max = maxSampleRate(ProcFs.system());
                long allowed = perfRate(rate, max, log);
                if (allowed == 0) {
                    refused = "kernel.perf_event_max_sample_rate=" + max.getAsLong() + " in /proc/sys/"
                            + MAX_SAMPLE_RATE + " is below " + rate + " Hz";
                } else if (allowed != rate) {
                    hz = allowed;
                }
            }
            if (refused == null) {
                refused = perfRefusal(environment, Math.max(1, Math.round(hz)));
            }
            // the counters perf's samples would carry (each probed: only where perf samples at all)
            List<Optional<PerfCounter>> counterSlots = refused != null || counterNames.isEmpty()
                    ? List.of()
                    : CpuEventResolver.resolve(counterNames).slots();
            if (refused == null) {
                refused = perfCountersRefusal(Math.max(1, Math.round(hz)), counterSlots);
            }
            if (refused == null) {
                // one pair of duration lines: this sampler's, not the overflow sampler's too
                sources.replaceAll(x -> x instanceof PerfSamplingSource p ? p.withoutDurationLines() : x);
                sources.add(new PerfSamplingSource(
                        new PerfSamplingSource.Config(
                                Math.max(1, Math.round(hz)),
                                delayNs,
                                durationNs,
                                keepInternal,
                                verbose,
                                null,
                                settings.bool("ROCPROFSYS_SAMPLING_INCLUDE_INLINES"),
                                counterNames,
                                counterSlots),
                        log));
            } else {
                log.println("[rocprof-sys] perf_event_open refused (" + refused
                        + "): falling back to the agent's timer sampler");
                timers.add(new AgentTimer(
                        StackSample.Kind.CPU,
                        (int) settings.integer("ROCPROFSYS_SAMPLING_CPUTIME_SIGNAL"),
                        hz,
                        delayNs,
                        cpuThreads));
            }
        }
        if (realtime) {
            double hz = positiveOr(settings.number("ROCPROFSYS_SAMPLING_REALTIME_FREQ"), freq);
            long delayNs = seconds(positiveOr(settings.number("ROCPROFSYS_SAMPLING_REALTIME_DELAY"), delay));
            firstStartNs = Math.min(firstStartNs, delayNs);
            if (!(hz > 0)) {
                throw new IllegalArgumentException("ROCPROFSYS_SAMPLING_FREQ must be above 0, not " + hz);
            }
            wallThreads = tids(settings, "ROCPROFSYS_SAMPLING_REALTIME_TIDS", allTids);
            timers.add(new AgentTimer(
                    StackSample.Kind.WALL,
                    (int) settings.integer("ROCPROFSYS_SAMPLING_REALTIME_SIGNAL"),
                    hz,
                    delayNs,
                    wallThreads));
        }
        SampledThreads threads = new SampledThreads(cpuThreads, wallThreads, overflowThreads);
        if (!timers.isEmpty() || !threads.isAll()) {
            AgentTimers agentTimers = new AgentTimers(timers, durationNs, verbose, log)
                    .withRingKb(settings.integer("ROCPROFSYS_RING_BUFFER_SIZE_KB"));
            // one pair of duration lines, after every trigger line (upstream's order): the timers print
            // them when they sample, which is after perf's CPU-time line
            if (!timers.isEmpty()) {
                sources.replaceAll(x -> x instanceof PerfSamplingSource p ? p.withoutDurationLines() : x);
            } else if (sources.stream().anyMatch(x -> x instanceof PerfSamplingSource)) {
                agentTimers = agentTimers.withoutDurationLines();
            }
            sources.add(new AgentSampling(
                    agentTimers,
                    threads,
                    new AgentSampleResolver(
                            agentTimers,
                            settings.bool("ROCPROFSYS_SAMPLING_INCLUDE_INLINES"),
                            keepInternal,
                            Path.of("/proc")),
                    CpuEvents.from(settings).names(),
                    log));
        }
        if (cputime || realtime) {
            // after the samplers' stages: their samples as the thread filters kept them
            sources.add(new SampledThreadMetrics(cputime));
        }
        if (firstStartNs > 0 && firstStartNs != Long.MAX_VALUE) {
            sources.add(new SamplingDelayNotice(firstStartNs, log));
        }
        return sources;
    }

    /** The kernel's limit on perf samples per second (kernel.perf_event_max_sample_rate), if readable. */
    static OptionalLong maxSampleRate(ProcFs proc) {
        try {
            return proc.sysctl(MAX_SAMPLE_RATE)
                    .map(v -> OptionalLong.of(Long.parseLong(v.trim())))
                    .orElse(OptionalLong.empty());
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * perf refuses a frequency above kernel.perf_event_max_sample_rate (EINVAL, which says nothing).
     * Such a frequency is lowered to the limit, with one warning that names it; a limit below
     * {@value #MIN_PERF_RATE} Hz (the kernel never throttles that far itself: someone set it) gives
     * 0, perf is not used and the caller says why.
     */
    static long perfRate(long hz, OptionalLong max, PrintStream log) {
        if (max.isEmpty() || hz <= max.getAsLong()) {
            return hz;
        }
        if (max.getAsLong() < MIN_PERF_RATE) {
            return 0;
        }
        log.println("[rocprof-sys] warning: the sampling frequency of " + hz + " Hz is above the kernel's limit of "
                + max.getAsLong() + " samples per second (/proc/sys/" + MAX_SAMPLE_RATE + "): sampling at "
                + max.getAsLong() + " Hz (raise the limit with: sudo sysctl -w kernel.perf_event_max_sample_rate=N)");
        return max.getAsLong();
    }

    private static boolean perfForcedOff(Map<String, String> environment) {
        String forced = environment.get(USE_PERF_ENV);
        if (forced == null || forced.isBlank()) {
            return false;
        }
        try {
            return !SettingType.parseBool(forced.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Why perf cannot sample here, or null when it can. */
    static String perfRefusal(Map<String, String> environment, long hz) {
        if (perfForcedOff(environment)) {
            return USE_PERF_ENV + "=" + environment.get(USE_PERF_ENV).trim();
        }
        try {
            PerfEvents.probe(PerfSamplingSource.attr(hz));
            return null;
        } catch (PerfException e) {
            return PerfEvents.shortReason(e);
        } catch (RuntimeException | LinkageError e) {
            return e.toString();
        }
    }

    /**
     * Why perf's samples cannot carry the counters here (they would come without them), or null:
     * probes the sampling event with the counters in its group. Only a kernel that refuses counts
     * in the samples of inherited events (before Linux 6.12) answers here; a counter refused on its
     * own was left out already, with its warning.
     */
    static String perfCountersRefusal(long hz, List<Optional<PerfCounter>> slots) {
        List<PerfEventAttr> members =
                slots.stream().flatMap(Optional::stream).map(PerfCounter::attr).toList();
        if (members.isEmpty()) {
            return null;
        }
        try {
            PerfEvents.probe(PerfSamplingSource.attr(hz), members);
            return null;
        } catch (PerfException e) {
            return countersRefusal(e);
        } catch (RuntimeException | LinkageError e) {
            return null; // the source says so itself when it opens its events
        }
    }

    /** The notice's reason for a refused counter group: only an old kernel's refusal makes the agent's timers sample. */
    static String countersRefusal(PerfException e) {
        return e instanceof PerfUnavailableException u && u.reason() == PerfUnavailableException.Reason.NO_SAMPLE_READ
                ? "the CPU counters of " + CpuEvents.SETTING + " in perf's samples need Linux 6.12 or later"
                        + " (PERF_SAMPLE_READ with inherit), this is Linux " + System.getProperty("os.version")
                : null;
    }

    private static ThreadFilter tids(Settings settings, String key, ThreadFilter fallback) {
        String v = settings.get(key);
        return v == null || v.isBlank() ? fallback : ThreadFilter.parse(key, v);
    }

    private static double positiveOr(double value, double fallback) {
        return value > 0 ? value : fallback;
    }

    private static long seconds(double s) {
        return s > 0 ? Math.round(s * 1e9) : 0;
    }
}
