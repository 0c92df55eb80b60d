package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.wire.WireFormat;

/**
 * The configuration of the agent's timers: what the target's environment tells the agent (timers,
 * duration, a ring large enough for their samples), and upstream's verbose lines about them.
 */
final class AgentTimers {
    /** Bytes of stack the agent copies per sample (its default, ROCPROFSYS_AGENT_SAMPLE_STACK). */
    static final int STACK_BYTES = 8192;
    /** A ring holds at least this much of a thread's samples, so that a busy collector loses none. */
    static final double RING_SECONDS = 0.25;

    private final List<AgentTimer> timers;
    private final long durationNs;
    private final int verbose;
    private final PrintStream log;
    private long ringKb;
    private boolean announcesDuration = true;

    /**
     * @param timers     may be empty (then only perf's samples are filtered by thread)
     * @param durationNs > 0: timers stop this long after their delay
     * @param verbose    ROCPROFSYS_VERBOSE
     */
    AgentTimers(List<AgentTimer> timers, long durationNs, int verbose, PrintStream log) {
        this.timers = List.copyOf(timers);
        this.durationNs = durationNs;
        this.verbose = verbose;
        this.log = log;
    }

    List<AgentTimer> list() {
        return timers;
    }

    boolean isEmpty() {
        return timers.isEmpty();
    }

    /**
     * Rings of at least {@code configuredKb}, raised to hold {@value #RING_SECONDS} s of a thread's
     * samples at the timers' rates (about 8.4 KB a sample with its stack copy): 1 MiB covers the
     * default 300 Hz, 2000 Hz of wall-clock samples asks for 4 MiB.
     */
    AgentTimers withRingKb(long configuredKb) {
        double hz = timers.stream().mapToDouble(AgentTimer::hz).sum();
        long needed = (long) Math.ceil(hz * (STACK_BYTES + 256) * RING_SECONDS / 1024);
        this.ringKb = needed > configuredKb ? needed : 0;
        return this;
    }

    /** Leaves the sampling-duration lines to the perf sampler running beside (one pair per run). */
    AgentTimers withoutDurationLines() {
        announcesDuration = false;
        return this;
    }

    /** The variables that set the agents' timers up (none without timers). */
    Map<String, String> environment() {
        if (timers.isEmpty()) {
            return Map.of();
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put(
                WireFormat.ENV_TIMERS,
                String.join(";", timers.stream().map(AgentTimer::agentSpec).toList()));
        if (durationNs > 0) {
            env.put(WireFormat.ENV_TIMER_DURATION_NS, Long.toString(durationNs));
        }
        if (ringKb > 0) {
            env.put(WireFormat.ENV_RING_KB, Long.toString(ringKb));
        }
        return env;
    }

    /** What a thread's first sample of {@code kind} stands for: one period of its timer. */
    long periodNs(StackSample.Kind kind) {
        for (AgentTimer t : timers) {
            if (t.kind() == kind) {
                return t.periodNs();
            }
        }
        return 1;
    }

    /**
     * Upstream's pair of duration lines (VERBOSE >= 1): now, and when the duration has elapsed
     * unless {@code stopped} by then.
     */
    void announceDuration(BooleanSupplier stopped) {
        if (durationNs <= 0 || timers.isEmpty() || verbose < 1 || !announcesDuration) {
            return;
        }
        String d = String.format(Locale.ROOT, "%f", durationNs / 1e9);
        log.println("[rocprof-sys] Sampling will be disabled after " + d + " seconds...");
        long delay = timers.stream().mapToLong(AgentTimer::delayNs).max().orElse(0);
        Thread.ofVirtual().name("rocprof-sys-sampling-duration").start(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(delay + durationNs);
            } catch (InterruptedException e) {
                return;
            }
            if (!stopped.getAsBoolean()) {
                log.println(
                        "[rocprof-sys] Sampling duration of " + d + " seconds has elapsed. Shutting down sampling...");
            }
        });
    }

    /** Upstream's line per sampled thread and timer (VERBOSE >= 1). */
    void announce(ThreadStarted t) {
        announce(t.pid(), t.sequence());
    }

    /**
     * The lines of the target's main thread (number 0), which exists from the launch: upstream
     * prints them when its samplers start, before the duration lines.
     */
    void announceMainThread(int pid) {
        announce(pid, 0);
    }

    private void announce(int pid, int sequence) {
        if (verbose < 1) {
            return;
        }
        for (AgentTimer timer : timers) {
            if (timer.threads().selects(sequence)) {
                log.println(String.format(
                        Locale.ROOT,
                        "[rocprof-sys][%d][SIG%d] Sampler for thread %d will be triggered %.1fx per second of "
                                + "%s-time (every %.3f milliseconds)...",
                        pid,
                        timer.signal(),
                        sequence,
                        timer.hz(),
                        timer.kind() == StackSample.Kind.CPU ? "CPU" : "wall",
                        1e3 / timer.hz()));
            }
        }
    }
}
