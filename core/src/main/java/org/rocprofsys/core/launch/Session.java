package org.rocprofsys.core.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.rocprofsys.config.SettingType;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.config.output.OutputSettings;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputLocation;
import org.rocprofsys.core.output.RunOutputs;
import org.rocprofsys.core.pipeline.CategoryFilter;
import org.rocprofsys.core.pipeline.Collector;
import org.rocprofsys.core.pipeline.Pipeline;
import org.rocprofsys.core.pipeline.PipelineTuning;
import org.rocprofsys.core.pipeline.SessionDirectory;
import org.rocprofsys.core.pipeline.TraceWindows;
import org.rocprofsys.core.spi.EventSource;
import org.rocprofsys.core.spi.ExecGateAttacher;
import org.rocprofsys.core.spi.RecordDecoder;
import org.rocprofsys.core.spi.SessionPart;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;
import org.rocprofsys.core.timemory.Component;
import org.rocprofsys.core.timemory.TimemoryOptions;
import org.rocprofsys.core.wire.WireFormat;

/**
 * One profiled run: creates the session directory, launches the target with the agent preloaded,
 * collects until the target (and its descendants) end, then writes every output. The target's
 * crash or kill does not lose what its agent recorded: the rings live in shared memory that the
 * collector still reads.
 */
public final class Session {
    /** Descendants still running this long after the target ended are cut off. */
    private static final long DESCENDANT_GRACE_NS = TimeUnit.SECONDS.toNanos(5);

    /**
     * What to launch.
     *
     * @param command      the target's argv
     * @param environment  its environment (the launcher's updates already applied)
     * @param workingDirectory where relative paths and outputs go; the target runs in this JVM's own
     *                         working directory (the same one, named in bytes the JVM may not decode)
     * @param agentLibrary the librocprof-sys.so to preload
     */
    public record Launch(
            List<String> command, Map<String, String> environment, Path workingDirectory, Path agentLibrary) {}

    private final Settings settings;
    private final Launch launch;
    private final PrintStream log;
    private final List<SessionPart> sources;
    private final List<OutputFormat> formats;
    /** ROCPROFSYS_OUTPUT_PATH made from its bytes, when a string cannot name it ({@link BytePath}). */
    private Optional<Path> outputDirectory = Optional.empty();

    /**
     * @param sources the run's session parts (samplers, GPU backends), in the order their roles are
     *                asked (their intercept stages see the events in it)
     * @param formats the outputs the run may write; those the settings enable are opened
     */
    public Session(
            Settings settings,
            Launch launch,
            PrintStream log,
            List<? extends SessionPart> sources,
            List<OutputFormat> formats) {
        this.settings = settings;
        this.launch = launch;
        this.log = log;
        this.sources = List.copyOf(sources);
        this.formats = List.copyOf(formats);
    }

    /** Runs the target to its end and writes the outputs; returns how the target ended. */
    public TargetOutcome run() throws IOException, InterruptedException, SessionException {
        long realtimeOffset = Instant.now().toEpochMilli() * 1_000_000L - System.nanoTime();
        TraceWindows windows;
        try {
            windows = TraceWindows.from(settings);
        } catch (IllegalArgumentException e) {
            throw new SessionException(e.getMessage());
        }
        Optional<String> badComponents =
                TimemoryOptions.validateComponents(settings.get("ROCPROFSYS_TIMEMORY_COMPONENTS"));
        if (badComponents.isPresent()) {
            throw new SessionException("ROCPROFSYS_TIMEMORY_COMPONENTS: " + badComponents.get());
        }
        NativeText text = NativeText.ofThisProcess();
        String outputPath = settings.get("ROCPROFSYS_OUTPUT_PATH");
        // the output names keep only ASCII (as upstream's): a folder with more is made from its bytes
        if (outputPath.chars().anyMatch(c -> c > 0x7f) && !outputPath.contains("%")) {
            outputDirectory = Optional.of(BytePath.createDirectories(
                    text.settingBytes("ROCPROFSYS_OUTPUT_PATH", outputPath), launch.workingDirectory()));
        }
        try (SessionDirectory dir = SessionDirectory.create(Path.of(settings.get("ROCPROFSYS_TMPDIR")))) {
            Map<String, String> env = targetEnvironment(dir.path());
            Optional<String> unwritable = OutputLocation.problem(
                    outputPaths((int) ProcessHandle.current().pid(), env)
                            .file("metadata", "json")
                            .getParent());
            if (unwritable.isPresent()) { // said before the target runs, not after
                throw new SessionException(unwritable.get());
            }
            checkOutputs(env);
            List<ExecGateAttacher> gates = SessionPart.withRole(sources, ExecGateAttacher.class);
            boolean gated = !gates.isEmpty();
            String program = launch.command().getFirst();
            List<byte[]> argv = text.command(launch.command());
            Optional<SessionException> cannot = CannotExecute.check(
                    program, env, launch.workingDirectory(), NativeText.representable(program, argv.getFirst()));
            if (cannot.isPresent()) {
                throw cannot.get();
            }
            TargetProcess target = TargetProcess.start(
                    argv,
                    program,
                    text.environment(env),
                    launch.environment().get(TargetProcess.STATE_VARIABLE),
                    gated,
                    dir.path());
            int pid;
            if (gated) {
                ExecGate.awaitStopped(target);
                pid = target.pid();
                for (ExecGateAttacher gate : gates) {
                    gate.attachBeforeExec(pid);
                }
            } else {
                pid = target.awaitPid();
                target.awaitExec();
            }
            String exe = Path.of(launch.command().getFirst()).getFileName().toString();
            ZonedDateTime launched = ZonedDateTime.now(ZoneId.systemDefault());
            RunOutputs outputs;
            Pipeline pipeline;
            Collector collector;
            try {
                // while a gated target still waits: opening the outputs then takes none of its CPU
                outputs = RunOutputs.open(
                        formats,
                        new OutputContext(settings, outputPaths(pid, env), pid, exe, realtimeOffset, log, System.out));
                PipelineTuning tuning = PipelineTuning.of(settings);
                pipeline = new Pipeline(
                        windows,
                        initiallyEnabled(),
                        CategoryFilter.dropped(settings),
                        sources,
                        outputs.writers(),
                        tuning);
                collector = new Collector(
                        dir, pipeline.head(), log, SessionPart.withRole(sources, RecordDecoder.class), tuning);
                collector.setRootPid(pid);
            } catch (IOException | RuntimeException e) {
                if (gated) {
                    target.destroy(); // held before its exec: it has not run
                }
                throw e;
            }
            if (gated) {
                ExecGate.release(target);
                target.awaitExec();
            }
            List<EventSource> eventSources = SessionPart.withRole(sources, EventSource.class);
            for (EventSource source : eventSources) {
                source.start(pid, collector::offer);
            }
            SignalForwarding signals = SignalForwarding.install(target);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread collecting = Thread.ofPlatform()
                    .name("rocprof-sys-collector")
                    .start(() -> {
                        try {
                            collector.run(DESCENDANT_GRACE_NS);
                        } catch (Throwable t) {
                            failure.set(t);
                        }
                    });
            int status = target.waitFor();
            long ended = System.nanoTime();
            for (EventSource source : eventSources) {
                source.stop(ended);
            }
            collector.targetReaped(
                    status > 128
                            ? new Collector.RootEnd(ProcessEnd.KILLED_BY_SIGNAL, status - 128, ended)
                            : new Collector.RootEnd(ProcessEnd.EXITED, status, ended));
            collecting.join();
            signals.uninstall();
            if (failure.get() != null) {
                throw new SessionException("collecting failed: " + failure.get().getMessage());
            }
            TargetOutcome outcome = outcome(collector.targetEnd().orElse(null), status);
            Map<String, Long> drops = collector.drops();
            reportDrops(drops);
            // metadata's dropped_records also names the threads that found every ring slot held
            // (the collector has warned about those itself, naming the setting)
            Map<String, Long> dropped = new LinkedHashMap<>(drops);
            collector.ringShortage().forEach((p, n) -> dropped.put(p + "/no-ring-slot", n));
            RunSummary summary = new RunSummary(System.nanoTime(), realtimeOffset, pid, exe, dropped);
            pipeline.finish(summary.endNs());
            outputs.finish(summary, launch.command(), launched, env);
            return outcome;
        }
    }

    /** Every enabled output can be written: checked before the target starts. */
    private void checkOutputs(Map<String, String> env) throws SessionException {
        OutputPaths paths = outputPaths((int) ProcessHandle.current().pid(), env);
        for (OutputFormat f : formats) {
            if (f.enabled(settings)) {
                try {
                    f.checkBeforeLaunch(settings, paths);
                } catch (IOException e) {
                    throw new SessionException(e.getMessage());
                }
            }
        }
    }

    private static TargetOutcome outcome(ProcessEnded rootEnd, int waitStatus) {
        if (rootEnd != null && rootEnd.how() == ProcessEnd.EXITED && rootEnd.status() >= 0) {
            return new TargetOutcome(ProcessEnd.EXITED, rootEnd.status());
        }
        // without the agent's word, Java's 128+N convention is the only hint of a signal
        return waitStatus > 128
                ? new TargetOutcome(ProcessEnd.KILLED_BY_SIGNAL, waitStatus - 128)
                : new TargetOutcome(ProcessEnd.EXITED, waitStatus);
    }

    private void reportDrops(Map<String, Long> drops) {
        long total = drops.values().stream().mapToLong(Long::longValue).sum();
        if (total > 0) {
            long stallMs = settings.integer("ROCPROFSYS_RING_BUFFER_STALL_MS");
            String why = settings.bool("ROCPROFSYS_RING_BUFFER_LOSSLESS")
                    ? "a sample found its ring full"
                    : stallMs == 0
                            ? "a ring buffer was full (ROCPROFSYS_RING_BUFFER_STALL_MS=0: no waiting)"
                            : "a ring buffer was full and the collector freed no space for " + stallMs + " ms";
            log.println("[rocprof-sys] warning: " + total + " records were dropped because " + why + " " + drops
                    + "; raise ROCPROFSYS_RING_BUFFER_SIZE_KB or ROCPROFSYS_RING_BUFFER_STALL_MS,"
                    + " or set ROCPROFSYS_RING_BUFFER_LOSSLESS=ON");
        }
    }

    private boolean initiallyEnabled() {
        String v = launch.environment().get("ROCPROFSYS_INIT_ENABLED");
        try {
            return v == null || SettingType.parseBool(v);
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    private Map<String, String> targetEnvironment(Path sessionDir) {
        Map<String, String> env = new HashMap<>(launch.environment());
        env.remove(TargetProcess.STATE_VARIABLE); // the launch helper's, not the target's
        List<TargetEnvironmentContribution> contributions =
                SessionPart.withRole(sources, TargetEnvironmentContribution.class);
        // the agent first, then the parts' wrapper libraries, then the user's own preloads
        List<String> preload = new ArrayList<>(List.of(launch.agentLibrary().toString()));
        for (TargetEnvironmentContribution c : contributions) {
            c.preloadAfterAgent().forEach(p -> preload.add(p.toString()));
        }
        String user = env.get("LD_PRELOAD");
        if (user != null && !user.isBlank()) {
            preload.add(user);
        }
        env.put("LD_PRELOAD", String.join(":", preload));
        env.put(WireFormat.ENV_SESSION_DIR, sessionDir.toString());
        env.putAll(ringEnvironment(settings));
        env.put(WireFormat.ENV_METRICS, Integer.toString(agentMetrics()));
        env.put(WireFormat.ENV_THREAD_CALLS, Integer.toString(threadCalls()));
        for (TargetEnvironmentContribution c : contributions) {
            env.putAll(c.targetEnvironment(sessionDir));
        }
        return env;
    }

    /** The pthread calls the agent records as regions (upstream's TRACE_THREAD_BARRIERS and _JOIN). */
    private int threadCalls() {
        return (settings.bool("ROCPROFSYS_TRACE_THREAD_BARRIERS") ? WireFormat.THREAD_CALL_BARRIER : 0)
                | (settings.bool("ROCPROFSYS_TRACE_THREAD_JOIN") ? WireFormat.THREAD_CALL_JOIN : 0);
    }

    /**
     * How the agent sizes and fills its rings (the RING_BUFFER_* settings), as the target's
     * environment gives it to the agent.
     */
    public static Map<String, String> ringEnvironment(Settings settings) {
        return Map.of(
                WireFormat.ENV_RING_KB,
                Long.toString(settings.integer("ROCPROFSYS_RING_BUFFER_SIZE_KB")),
                WireFormat.ENV_MAX_THREADS,
                Long.toString(settings.integer("ROCPROFSYS_RING_BUFFER_MAX_THREADS")),
                WireFormat.ENV_LOSSLESS,
                settings.bool("ROCPROFSYS_RING_BUFFER_LOSSLESS") ? "1" : "0",
                WireFormat.ENV_STALL_MS,
                Long.toString(settings.integer("ROCPROFSYS_RING_BUFFER_STALL_MS")),
                WireFormat.ENV_EXIT_WITH_COLLECTOR,
                settings.bool("ROCPROFSYS_EXIT_WITH_COLLECTOR") ? "1" : "0");
    }

    /** The readings the agent must take with each region, for the selected timemory components. */
    private int agentMetrics() {
        if (!settings.bool("ROCPROFSYS_PROFILE")) {
            return 0;
        }
        int metrics = 0;
        for (Component c : Component.parse(settings.get("ROCPROFSYS_TIMEMORY_COMPONENTS"))) {
            metrics |= switch (c) {
                case CPU_CLOCK, THREAD_CPU_CLOCK, CPU_UTIL, THREAD_CPU_UTIL -> WireFormat.METRIC_THREAD_CPU;
                case PAGE_RSS -> WireFormat.METRIC_RSS;
                case PEAK_RSS -> WireFormat.METRIC_PEAK_RSS;
                case VIRTUAL_MEMORY -> WireFormat.METRIC_VIRTUAL;
                case USER_MODE_TIME -> WireFormat.METRIC_USER_TIME;
                case KERNEL_MODE_TIME -> WireFormat.METRIC_KERNEL_TIME;
                case NUM_MAJOR_PAGE_FAULTS -> WireFormat.METRIC_MAJOR_FAULTS;
                case NUM_MINOR_PAGE_FAULTS -> WireFormat.METRIC_MINOR_FAULTS;
                case VOLUNTARY_CONTEXT_SWITCH -> WireFormat.METRIC_VOLUNTARY_CSW;
                case PRIORITY_CONTEXT_SWITCH -> WireFormat.METRIC_PRIORITY_CSW;
                // the CPU counters come with ROCPROFSYS_AGENT_COUNTERS (the counter source)
                case WALL_CLOCK, TRIP_COUNT, PAPI_ARRAY -> 0;
            };
        }
        return metrics;
    }

    private OutputPaths outputPaths(int pid, Map<String, String> env) {
        long self = ProcessHandle.current().pid();
        LaunchContext ctx = new LaunchContext(
                launch.command(),
                pid,
                self,
                self,
                self,
                ZonedDateTime.now(ZoneId.systemDefault()),
                env,
                key -> settings.registry().find(key).map(d -> settings.get(d.envName())),
                Optional.empty());
        OutputSettings os = new OutputSettings(
                outputDirectory.isPresent() ? "" : settings.get("ROCPROFSYS_OUTPUT_PATH"),
                settings.get("ROCPROFSYS_OUTPUT_PREFIX"),
                settings.bool("ROCPROFSYS_TIME_OUTPUT"),
                settings.get("ROCPROFSYS_TIME_FORMAT"),
                settings.bool("ROCPROFSYS_USE_PID"),
                settings.get("ROCPROFSYS_PERFETTO_FILE"));
        // a folder named in bytes a string cannot carry: the names are anchored at its Path instead
        return new OutputPaths(os, ctx, outputDirectory.orElse(launch.workingDirectory()), OptionalInt.empty());
    }
}
