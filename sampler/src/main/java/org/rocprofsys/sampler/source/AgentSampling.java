package org.rocprofsys.sampler.source;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.core.spi.InterceptStage;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * The collector's half of the call-stack samples that pass through the agent's rings, as a
 * background source: its {@link AgentTimers} configure the agent's timers through the target's
 * environment; its intercept stage, in front of the sinks on the collector thread, hands the raw
 * STACK_SAMPLE records to the {@link AgentSampleResolver}'s worker, and puts every sample, perf's
 * and the resolved ones, through the {@link SampledThreads} filter. Every resolved sample of a
 * process goes downstream before the process's {@link ProcessEnded}.
 */
public final class AgentSampling implements EventSource, TargetEnvironmentContribution, InterceptStage {
    private final AgentTimers timers;
    private final SampledThreads threads;
    private final AgentSampleResolver resolver;
    private final PrintStream log;
    private volatile boolean stopped;
    /** The target's pid: its main thread is announced at start, not at its THREAD_START. */
    private int rootPid = -1;

    private boolean mainThreadSeen;

    private final SampleCounters counters;

    AgentSampling(AgentTimers timers, SampledThreads threads, AgentSampleResolver resolver, PrintStream log) {
        this(timers, threads, resolver, List.of(), log);
    }

    /** @param counterNames the run's CPU counters, which the agent reads with each sample */
    AgentSampling(
            AgentTimers timers,
            SampledThreads threads,
            AgentSampleResolver resolver,
            List<String> counterNames,
            PrintStream log) {
        this.timers = timers;
        this.threads = threads;
        this.resolver = resolver;
        this.counters = new SampleCounters(counterNames);
        this.log = log;
    }

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        resolver.sessionDirectory(sessionDirectory);
        return timers.environment();
    }

    @Override
    public void start(int targetPid, Consumer<TraceEvent> out) {
        rootPid = targetPid;
        timers.announceMainThread(targetPid);
        timers.announceDuration(() -> stopped);
    }

    @Override
    public void stop(long timestampNs) {
        stopped = true;
        resolver.stop();
        if (resolver.failures() > 0) {
            log.println("[rocprof-sys] warning: " + resolver.failures()
                    + " of the agent's stack samples could not be resolved");
        }
    }

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        Consumer<StackSample> filtered = s -> threads.offer(s, downstream);
        return e -> {
            resolver.drainTo(filtered);
            switch (e) {
                case AgentStackSample a -> {
                    counters.accept(a, downstream);
                    resolver.submit(a);
                }
                case StackSample s -> threads.offer(s, downstream);
                case ProcessStarted p -> {
                    resolver.imageStarted(p);
                    downstream.accept(e);
                }
                case ThreadStarted t -> {
                    if (t.pid() == rootPid && t.sequence() == 0 && !mainThreadSeen) {
                        mainThreadSeen = true; // announced at start
                    } else {
                        timers.announce(t);
                    }
                    counters.started(t, downstream);
                    downstream.accept(e);
                    threads.started(t, downstream);
                }
                case ProcessEnded p -> {
                    // every sample of the image is drained by now: resolved and handed on before its end
                    resolver.awaitIdle();
                    resolver.drainTo(filtered);
                    threads.ended(p.pid());
                    resolver.processEnded(p.pid());
                    downstream.accept(e);
                }
                default -> downstream.accept(e);
            }
        };
    }
}
