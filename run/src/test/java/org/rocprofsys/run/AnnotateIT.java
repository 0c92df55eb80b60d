package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.perfetto.DecodedTrace;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Upstream's {@code annotate} test (rocprof-sys-annotate-tests.cmake, inventory §9.3):
 * parallel-overhead rewritten with {@code -R run} and sampled, with
 * {@code TIMEMORY_COMPONENTS=thread_cpu_clock papi_array} and
 * {@code PAPI_EVENTS=perf::PERF_COUNT_SW_CPU_CLOCK}; validate-perfetto-proto.py's
 * {@code --key-names} check counts the slices whose arguments hold {@code debug.<key>}.
 *
 * <p>Upstream expects 8 (rewrite) and 6 (sampling) for its own parallel-overhead.cpp, whose main
 * thread runs {@code run} too and whose trace has upstream's thread regions. Our example runs
 * {@code run} on its THREADS workers only and has one region per thread besides them, the main
 * region: the counts here are those of our program (main + one {@code run} per worker in the
 * rewritten run, main alone when sampled), and every region end carries both keys.
 */
class AnnotateIT extends DistributionTest {
    private static final String COUNTER = "perf::PERF_COUNT_SW_CPU_CLOCK";

    private Map<String, String> env(String name, String... extra) {
        Map<String, String> env = environment(
                name,
                "ROCPROFSYS_TRACE",
                "ON",
                "ROCPROFSYS_PROFILE",
                "ON",
                "ROCPROFSYS_USE_SAMPLING",
                "OFF",
                "ROCPROFSYS_USE_PROCESS_SAMPLING",
                "OFF",
                "ROCPROFSYS_TIMEMORY_COMPONENTS",
                "thread_cpu_clock papi_array",
                "ROCPROFSYS_PAPI_EVENTS",
                COUNTER);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return env;
    }

    /** Slices whose arguments hold {@code key} (the begin's and the end's merged, as trace_processor does). */
    private static List<DecodedTrace.Slice> withKey(DecodedTrace trace, String key) {
        return trace.slices.stream().filter(s -> s.args.containsKey(key)).toList();
    }

    @Test
    void rewrittenRunAnnotatesEveryRegionWithThreadCpuClockAndTheCounter() throws Exception {
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
                "rocprof-sys-run",
                env("annotate-binary-rewrite"),
                "--",
                cwd.resolve("annotate.inst").toString(),
                "22",
                "2",
                "20");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-binary-rewrite/perfetto-trace.proto"));
        List<DecodedTrace.Slice> cpu = withKey(trace, "thread_cpu_clock");
        List<DecodedTrace.Slice> counter = withKey(trace, COUNTER);
        // the main region and run on each of the 2 workers
        assertEquals(3, cpu.size(), () -> trace.slices.toString());
        assertEquals(3, counter.size(), () -> trace.slices.toString());
        assertEquals(2, cpu.stream().filter(s -> s.name.equals("run")).count(), cpu::toString);
        for (DecodedTrace.Slice s : cpu) {
            double seconds = (Double) s.args.get("thread_cpu_clock");
            double counted = (Double) s.args.get(COUNTER);
            assertTrue(seconds >= 0 && counted >= 0, s::toString);
            if (s.name.equals("run")) {
                // fib(22) x 20 computed in run: its thread's CPU time, in seconds, and the
                // thread's cpu-clock count (ns) over the same interval agree within 20 %
                assertTrue(seconds > 0, s::toString);
                assertTrue(Math.abs(counted / 1e9 - seconds) <= 0.2 * seconds, s::toString);
            }
        }
        // the profile of the new component
        Path text = cwd.resolve("out/annotate-binary-rewrite/thread_cpu_clock.txt");
        assertTrue(Files.isRegularFile(text), r::toString);
        String table = Files.readString(text);
        assertTrue(table.contains("CPU-CLOCK TIMER FOR THE CALLING THREAD"), table);
        assertTrue(table.contains("|_run"), table);
        assertTrue(Files.isRegularFile(cwd.resolve("out/annotate-binary-rewrite/thread_cpu_clock.json")));
    }

    @Test
    void sampledRunAnnotatesTheMainRegion() throws Exception {
        var r = tool(
                "rocprof-sys-sample",
                env("annotate-sampling"),
                "--",
                examples().resolve("parallel-overhead").toString(),
                "22",
                "2",
                "20");
        assertEquals(0, r.exitCode(), r::toString);
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-sampling/perfetto-trace.proto"));
        List<DecodedTrace.Slice> cpu = withKey(trace, "thread_cpu_clock");
        assertEquals(1, cpu.size(), cpu::toString);
        assertEquals("parallel-overhead", cpu.getFirst().name);
        assertEquals(1, withKey(trace, COUNTER).size());
    }

    @Test
    void theAgentsStackSamplesCarryTheCountersAsPerThreadTracks() throws Exception {
        // the agent's timer sampler (perf's samples carry them too: the next test)
        var r = tool(
                "rocprof-sys-sample",
                env("annotate-sample-counters", "ROCPROFSYS_SAMPLING_USE_PERF", "OFF"),
                "-w",
                "0",
                "-f",
                "200",
                "--",
                examples().resolve("parallel-overhead").toString(),
                "30",
                "2",
                "10");
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
        var r = tool(
                "rocprof-sys-sample",
                env,
                "-C",
                COUNTER,
                "-w",
                "0",
                "-f",
                "200",
                "--",
                examples().resolve("parallel-overhead").toString(),
                "30",
                "2",
                "10");
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
                examples().resolve("parallel-overhead").toString(),
                "20",
                "2",
                "2");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(
                r.stderr().contains("warning: ROCPROFSYS_PAPI_EVENTS: unknown CPU event 'perf::NO_SUCH_EVENT'"),
                r::toString);
        // the other counter keeps its values, the unknown one has none
        DecodedTrace trace = DecodedTrace.read(cwd.resolve("out/annotate-unknown/perfetto-trace.proto"));
        assertEquals(1, withKey(trace, COUNTER).size(), () -> trace.slices.toString());
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
