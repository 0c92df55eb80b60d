package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Linker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.AgentStackSample;
import org.rocprofsys.core.event.ProcessEnd;
import org.rocprofsys.core.event.ProcessEnded;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;

/**
 * The collector's stage for the agent's samples, on this JVM's own process: raw samples become
 * symbolized {@link StackSample}s with wall and CPU intervals, perf samples are filtered by thread
 * number, and the verbose lines name the sampled threads.
 */
class AgentSamplingTest {
    private static final int PID = (int) ProcessHandle.current().pid();
    private static final long[] NO_REGS = new long[0];
    private static final byte[] NO_STACK = new byte[0];

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
    private final List<TraceEvent> out = new ArrayList<>();

    private static long address(String symbol) {
        return Linker.nativeLinker().defaultLookup().find(symbol).orElseThrow().address();
    }

    @Test
    void rawSamplesBecomeSymbolizedStacksWithWallAndCpuIntervals() {
        AgentTimer wall = new AgentTimer(StackSample.Kind.WALL, 34, 100, 0, ThreadFilter.all());
        AgentTimers timers = new AgentTimers(List.of(wall), 0, 1, log);
        AgentSampleResolver resolver = resolver(timers, Path.of("/proc"));
        AgentSampling a = new AgentSampling(timers, all(), resolver, log);
        Consumer<TraceEvent> stage = a.intercept(out::add);
        stage.accept(new ProcessStarted(1_000, PID, 1, "java", List.of("java"), 0, 0));
        stage.accept(new ThreadStarted(1_000, PID, PID, 0));
        assertTrue(
                logBytes.toString(StandardCharsets.UTF_8)
                        .contains("[SIG34] Sampler for thread 0 will be triggered"
                                + " 100.0x per second of wall-time (every 10.000 milliseconds)..."),
                logBytes::toString);

        // leaf: inside getpid (exact pc); caller: a return address just after the start of malloc
        long[] pcs = {address("getpid"), address("malloc") + 1};
        stage.accept(
                new AgentStackSample(50_000_000, PID, PID, StackSample.Kind.WALL, 7_000_000, pcs, NO_REGS, NO_STACK));
        stage.accept(
                new AgentStackSample(53_000_000, PID, PID, StackSample.Kind.WALL, 8_000_000, pcs, NO_REGS, NO_STACK));
        // resolved on the stage's worker; all of them handed on before the process's end
        stage.accept(new ProcessEnded(60_000_000, PID, ProcessEnd.EXITED, 0));
        assertEquals(5, out.size(), out::toString);
        assertInstanceOf(ProcessEnded.class, out.get(4));
        StackSample first = assertInstanceOf(StackSample.class, out.get(2));
        StackSample second = assertInstanceOf(StackSample.class, out.get(3));
        List<String> names = first.frames().stream().map(StackFrame::symbol).toList();
        assertEquals(2, names.size(), names::toString);
        assertTrue(names.get(0).contains("malloc"), names::toString); // outermost first
        assertTrue(names.get(1).contains("getpid"), names::toString);
        assertEquals(StackSample.Kind.WALL, first.kind());
        assertEquals(10_000_000, first.intervalNs(), "a first sample stands for one period");
        assertEquals(7_000_000, first.cpuNs(), "... and for at most one period of CPU time");
        assertEquals(3_000_000, second.intervalNs(), "wall time since the thread's previous sample");
        assertEquals(1_000_000, second.cpuNs(), "thread CPU time since the previous sample");
        assertEquals(2, resolver.samples());
        assertEquals(0, resolver.unwoundByCfi());
    }

    @Test
    void aProcessGoneFromProcIsSymbolizedFromTheAgentsCopyOfItsMaps(@TempDir Path tmp) throws Exception {
        Path proc = Files.createDirectories(tmp.resolve("proc")); // this "proc" knows no process
        Path session = Files.createDirectories(tmp.resolve("session"));
        Files.copy(Path.of("/proc/self/maps"), session.resolve(PID + ".2.maps"));
        AgentTimer cpu = new AgentTimer(StackSample.Kind.CPU, 27, 100, 0, ThreadFilter.all());
        AgentTimers timers = new AgentTimers(List.of(cpu), 0, 0, log);
        AgentSampling a = new AgentSampling(timers, all(), resolver(timers, proc), log);
        a.targetEnvironment(session);
        Consumer<TraceEvent> stage = a.intercept(out::add);
        stage.accept(new ProcessStarted(1_000, PID, 1, "java", List.of("java"), 0, 2));
        long[] pcs = {address("getpid")};
        stage.accept(new AgentStackSample(2_000, PID, PID, StackSample.Kind.CPU, 5, pcs, NO_REGS, NO_STACK));
        stage.accept(new ProcessEnded(3_000, PID, ProcessEnd.EXITED, 0));
        StackSample s = assertInstanceOf(StackSample.class, out.get(1));
        assertTrue(s.frames().getFirst().symbol().contains("getpid"), s::toString);
    }

    @Test
    void perfSamplesAreKeptForTheSelectedThreadsOnly() {
        AgentTimers none = new AgentTimers(List.of(), 0, 0, log);
        AgentSampling a = new AgentSampling(
                none,
                new SampledThreads(ThreadFilter.parse("T", "0"), ThreadFilter.all()),
                resolver(none, Path.of("/proc")),
                log);
        Consumer<TraceEvent> stage = a.intercept(out::add);
        stage.accept(new ThreadStarted(1, 42, 42, 0));
        stage.accept(new ThreadStarted(2, 42, 43, 1));
        List<StackFrame> frames = List.of(new StackFrame("main", "a.out", 1, null, 0));
        stage.accept(new StackSample(3, 42, 42, frames, StackSample.Kind.CPU, 5));
        stage.accept(new StackSample(4, 42, 43, frames, StackSample.Kind.CPU, 5));
        stage.accept(new StackSample(5, 42, 44, frames, StackSample.Kind.CPU, 5)); // no thread number known
        List<Integer> sampledTids = out.stream()
                .filter(e -> e instanceof StackSample)
                .map(e -> ((StackSample) e).tid())
                .toList();
        assertEquals(List.of(42), sampledTids);
        assertEquals("", logBytes.toString(StandardCharsets.UTF_8), "VERBOSE 0 prints nothing");
    }

    @Test
    void theAgentsResolvedSamplesPassTheSameThreadFilter() {
        // the agent samples only its selected threads; the stage's one filter agrees with it and
        // would drop a sample of any other thread
        AgentTimer wall = new AgentTimer(StackSample.Kind.WALL, 34, 100, 0, ThreadFilter.parse("T", "1"));
        AgentTimers timers = new AgentTimers(List.of(wall), 0, 0, log);
        AgentSampling a = new AgentSampling(
                timers,
                new SampledThreads(ThreadFilter.all(), wall.threads()),
                resolver(timers, Path.of("/proc")),
                log);
        Consumer<TraceEvent> stage = a.intercept(out::add);
        stage.accept(new ProcessStarted(1_000, PID, 1, "java", List.of("java"), 0, 0));
        stage.accept(new ThreadStarted(1_000, PID, PID, 0));
        stage.accept(new ThreadStarted(1_000, PID, PID + 1, 1));
        long[] pcs = {address("getpid")};
        stage.accept(new AgentStackSample(2_000, PID, PID, StackSample.Kind.WALL, 5, pcs, NO_REGS, NO_STACK));
        stage.accept(new AgentStackSample(3_000, PID, PID + 1, StackSample.Kind.WALL, 5, pcs, NO_REGS, NO_STACK));
        stage.accept(new ProcessEnded(4_000, PID, ProcessEnd.EXITED, 0));
        List<Integer> sampledTids = out.stream()
                .filter(e -> e instanceof StackSample)
                .map(e -> ((StackSample) e).tid())
                .toList();
        assertEquals(List.of(PID + 1), sampledTids);
    }

    /** Inline frames off and the agent's frames kept, as the stage was before the settings reach it. */
    private static AgentSampleResolver resolver(AgentTimers timers, Path proc) {
        return new AgentSampleResolver(timers, false, true, proc);
    }

    private static SampledThreads all() {
        return new SampledThreads(ThreadFilter.all(), ThreadFilter.all());
    }
}
