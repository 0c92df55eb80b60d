package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * Upstream's {@code annotate} test (rocprof-sys-annotate-tests.cmake, inventory §9.3):
 * parallel-overhead {@code 30 2 200} rewritten with {@code -R run} and sampled, with
 * {@code TIMEMORY_COMPONENTS=thread_cpu_clock papi_array} and
 * {@code PAPI_EVENTS=perf::PERF_COUNT_SW_CPU_CLOCK}; validate-perfetto-proto.py's
 * {@code --key-names} check counts the slices whose arguments hold {@code debug.<key>}: 8 and 8 for
 * the rewritten run, 6 for the sampled one.
 *
 * <p>Where the counts come from, upstream and here alike: the program runs {@code run} on the main
 * thread and on each of its 2 threads, each runner waiting first at one pthread barrier, and main
 * joins the 2 threads. A region's end carries the values of its components when it was pushed with
 * them (upstream's {@code category_region} with timemory on): instrumented functions, and the
 * pthread wrappers of {@code TRACE_THREAD_BARRIERS} and {@code TRACE_THREAD_JOIN} (both on by
 * default). Upstream's {@code pthread_create} and thread regions are perfetto-only and carry none
 * (ours has no such slices). So the rewritten run has 3 {@code run} + 3 {@code pthread_barrier_wait}
 * + 2 {@code pthread_join} = 8; its main region carries none, because the rewritten main's exit
 * snippet finalizes the tool before main returns and the finalizer pops main under argv[0], not the
 * basename it was pushed with, so it finds no values (our agent ends a rewritten executable's main
 * region without readings). Sampled, nothing is instrumented and main's region is popped normally:
 * main + 3 + 2 = 6.
 */
class AnnotateIT extends DistributionTest {
    private static final String COUNTER = "perf::PERF_COUNT_SW_CPU_CLOCK";
    private static final String[] RUN_ARGS = {"30", "2", "200"};

    private Map<String, String> env(String name, String... extra) {
        Map<String, String> env =
                environment(name, CounterProfile.settings(true, "thread_cpu_clock papi_array", COUNTER));
        for (int i = 0; i + 1 < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return env;
    }

    private static String[] command(Path exe, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--";
        all[1] = exe.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }

    /** Slices whose arguments hold {@code key} (the begin's and the end's merged, as trace_processor does). */
    private static List<DecodedTrace.Slice> withKey(DecodedTrace trace, String key) {
        return trace.slices.stream().filter(s -> s.args.containsKey(key)).toList();
    }

    private static Map<String, Long> countByName(List<DecodedTrace.Slice> slices) {
        return slices.stream().collect(Collectors.groupingBy(s -> s.name, TreeMap::new, Collectors.counting()));
    }

    /**
     * Every annotated slice has both values, sane: the thread's CPU time in seconds and its cpu-clock
     * count in ns, both >= 0; where the slice computed (fib(30) x 200 in run, or main's region
     * around it) both are positive and agree within 20 %.
     */
    private static void assertSaneValues(List<DecodedTrace.Slice> annotated, String computing) {
        for (DecodedTrace.Slice s : annotated) {
            double seconds = (Double) s.args.get("thread_cpu_clock");
            double counted = (Double) s.args.get(COUNTER);
            assertTrue(seconds >= 0 && counted >= 0, s::toString);
            if (s.name.equals(computing)) {
                assertTrue(seconds > 0.05, s::toString);
                assertTrue(Math.abs(counted / 1e9 - seconds) <= 0.2 * seconds, s::toString);
            }
        }
    }

    @Test
    void rewrittenRunAnnotatesRunBarriersAndJoinsAsUpstreamsEight() throws Exception {
        Path exe = examples().resolve("parallel-overhead");
        var rw = tool(
                "rocprof-sys-instrument",
                env("annotate-binary-rewrite"),
                "-o",
                cwd.resolve("annotate.inst").toString(),
                "-e",
                "-v",
                "2",
                "-R",
                "run",
                "--allow-overlapping",
                "--print-available",
                "functions",
                "--print-overlapping",
                "functions",
                "--print-excluded",
                "functions",
                "--print-instrumented",
                "functions",
                "--print-instructions",
                "--",
                exe.toString());
        assertEquals(0, rw.exitCode(), rw::toString);
        var r = tool(
                "rocprof-sys-run", env("annotate-binary-rewrite"), command(cwd.resolve("annotate.inst"), RUN_ARGS));
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-binary-rewrite/perfetto-trace.proto"));
        List<DecodedTrace.Slice> cpu = withKey(trace, "thread_cpu_clock");
        List<DecodedTrace.Slice> counter = withKey(trace, COUNTER);
        // upstream: --key-names perf::PERF_COUNT_SW_CPU_CLOCK thread_cpu_clock --key-counts 8 8
        assertEquals(8, cpu.size(), () -> trace.slices.toString());
        assertEquals(8, counter.size(), () -> trace.slices.toString());
        assertEquals(
                Map.of("pthread_barrier_wait", 3L, "pthread_join", 2L, "run", 3L), countByName(cpu), cpu::toString);
        assertEquals(
                3,
                cpu.stream()
                        .filter(s -> s.name.equals("run"))
                        .map(s -> s.trackUuid)
                        .distinct()
                        .count());
        DecodedTrace.Slice main = trace.slices.stream()
                .filter(s -> s.name.equals("annotate.inst"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(trace.slices.toString()));
        assertFalse(main.args.containsKey("thread_cpu_clock") || main.args.containsKey(COUNTER), main::toString);
        assertSaneValues(cpu, "run");
        // the profile of the new component
        Path text = cwd.resolve("out/annotate-binary-rewrite/thread_cpu_clock.txt");
        assertTrue(Files.isRegularFile(text), r::toString);
        String table = Files.readString(text);
        assertTrue(table.contains("CPU-CLOCK TIMER FOR THE CALLING THREAD"), table);
        assertTrue(table.contains("|_run"), table);
        assertTrue(table.contains("|_pthread_join"), table);
        assertTrue(Files.isRegularFile(cwd.resolve("out/annotate-binary-rewrite/thread_cpu_clock.json")));
    }

    @Test
    void sampledRunAnnotatesMainBarriersAndJoinsAsUpstreamsSix() throws Exception {
        var r = tool(
                "rocprof-sys-sample",
                env("annotate-sampling"),
                command(examples().resolve("parallel-overhead"), RUN_ARGS));
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-sampling/perfetto-trace.proto"));
        List<DecodedTrace.Slice> cpu = withKey(trace, "thread_cpu_clock");
        // upstream: --key-names thread_cpu_clock --key-counts 6
        assertEquals(6, cpu.size(), () -> trace.slices.toString());
        assertEquals(
                Map.of("parallel-overhead", 1L, "pthread_barrier_wait", 3L, "pthread_join", 2L),
                countByName(cpu),
                cpu::toString);
        assertEquals(6, withKey(trace, COUNTER).size());
        assertSaneValues(cpu, "parallel-overhead");
    }

    @Test
    void theThreadCallsAreRegionsOnlyWhileTheirSettingsAreOn() throws Exception {
        var r = tool(
                "rocprof-sys-sample",
                env(
                        "annotate-no-thread-calls",
                        "ROCPROFSYS_TRACE_THREAD_BARRIERS",
                        "OFF",
                        "ROCPROFSYS_TRACE_THREAD_JOIN",
                        "OFF"),
                command(examples().resolve("parallel-overhead"), "20", "2", "2"));
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-no-thread-calls/perfetto-trace.proto"));
        assertEquals(Map.of("parallel-overhead", 1L), countByName(withKey(trace, "thread_cpu_clock")));
        assertTrue(trace.slices.stream().noneMatch(s -> s.name.startsWith("pthread_")), () -> trace.slices.toString());
    }

    /**
     * rocprof-sys-sample at 200 Hz from the start ({@code -w 0}) with {@code options} on
     * parallel-overhead's two workers, each doing {@code rounds} rounds of fib(30).
     */
    private ProcessResult sampleAt200Hz(Map<String, String> env, List<String> options, String rounds) throws Exception {
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("-w", "0", "-f", "200", "--", example("parallel-overhead"), "30", "2", rounds));
        return tool("rocprof-sys-sample", env, args.toArray(String[]::new));
    }

    @Test
    void theAgentsStackSamplesCarryTheCountersAsPerThreadTracks() throws Exception {
        // the agent's timer sampler (perf's samples carry them too: the next test)
        var r = sampleAt200Hz(env("annotate-sample-counters", "ROCPROFSYS_SAMPLING_USE_PERF", "OFF"), List.of(), "10");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-sample-counters/perfetto-trace.proto"));
        Map<String, List<Double>> counters = trace.counters();
        for (int worker = 1; worker <= 2; worker++) {
            List<Double> v = counters.get("Thread " + COUNTER + " [" + worker + "] (S)");
            assertTrue(v != null && !v.isEmpty(), () -> counters.keySet().toString());
            // the thread's cpu-clock count between its samples: positive, and at most a few sample
            // periods (5 ms each) apart under load
            assertTrue(v.stream().allMatch(x -> x >= 0), v::toString);
            assertTrue(v.stream().anyMatch(x -> x > 0), v::toString);
        }
    }

    @Test
    void perfsSamplesCarryTheCountersAsPerThreadTracks() throws Exception {
        // the default CPU-time sampler, perf, with the counter from -C
        Map<String, String> env = env("annotate-perf-sample-counters");
        env.remove("ROCPROFSYS_PAPI_EVENTS");
        // 40 rounds of fib(30): about 200 ms of CPU per worker, some 40 samples at 200 Hz
        // (10 rounds gave 10-17, against the 10 asked for below: a flaky margin)
        var r = sampleAt200Hz(env, List.of("-C", COUNTER), "40");
        assertEquals(0, r.exitCode(), r::toString);
        // a kernel before Linux 6.12 (or a refused perf_event_open) makes it the agent's timers: said once
        boolean perf = !r.stderr().contains("falling back to the agent's timer sampler");
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-perf-sample-counters/perfetto-trace.proto"));
        Map<String, List<Double>> counters = trace.counters();
        for (int worker = 1; worker <= 2; worker++) {
            List<Double> v = counters.get("Thread " + COUNTER + " [" + worker + "] (S)");
            assertTrue(v != null && v.size() >= 10, () -> counters.keySet() + "\n" + r);
            assertTrue(v.stream().allMatch(x -> x >= 0), v::toString);
            if (perf) {
                // each value is the worker's cpu-clock over the interval its sample stands for: about
                // one period of the 200 Hz sampling clock (5 ms), as perf sets the period per thread and CPU
                List<Double> sorted = v.stream().sorted().toList();
                double median = sorted.get(sorted.size() / 2);
                assertTrue(median >= 2.5e6 && median <= 10e6, "median " + median + " ns of " + v.size());
            } else {
                assertTrue(v.stream().anyMatch(x -> x > 0), v::toString);
            }
        }
        assertTrue(perf || r.stderr().contains("perf_event_open refused ("), "a fallback names why: " + r.stderr());
    }

    @Test
    void anUnknownCounterIsLeftOutWithAWarningOrIsAnErrorWithPapiFailOnError() throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run",
                env("annotate-unknown", "ROCPROFSYS_PAPI_EVENTS", "perf::NO_SUCH_EVENT " + COUNTER),
                "--",
                example("parallel-overhead"),
                "20",
                "2",
                "2");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(
                r.stderr().contains("warning: ROCPROFSYS_PAPI_EVENTS: unknown CPU event 'perf::NO_SUCH_EVENT'"),
                r::toString);
        // the other counter keeps its values (main, 3 barrier waits, 2 joins), the unknown one has none
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-unknown/perfetto-trace.proto"));
        assertEquals(6, withKey(trace, COUNTER).size(), () -> trace.slices.toString());
        assertEquals(0, withKey(trace, "perf::NO_SUCH_EVENT").size());

        ProcessResult strict = tool(
                "rocprof-sys-run",
                env(
                        "annotate-strict",
                        "ROCPROFSYS_PAPI_EVENTS",
                        "perf::NO_SUCH_EVENT",
                        "ROCPROFSYS_PAPI_FAIL_ON_ERROR",
                        "ON"),
                "--",
                "/bin/true");
        assertNotEquals(0, strict.exitCode(), strict::toString);
        assertTrue(
                strict.stderr().contains("error: ROCPROFSYS_PAPI_EVENTS: unknown CPU event 'perf::NO_SUCH_EVENT'"),
                strict::toString);
    }
}
