package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;

/**
 * The profiles of the components with several values, through rocprof-sys-run: cpu_util and
 * thread_cpu_util (CPU time over wall time, percent) and papi_array (one column per PAPI event),
 * for user-api's regions with {@code perf::PERF_COUNT_SW_CPU_CLOCK}.
 */
class MultiValueProfilesIT extends DistributionTest {
    private static final String COUNTER = "perf::PERF_COUNT_SW_CPU_CLOCK";
    /** Other threads' CPU time not yet accounted to the process when a region reads its clock. */
    private static final long ACCOUNTING_SLACK_NS = 20_000_000L;

    @Test
    void cpuUtilThreadCpuUtilAndPapiArrayWriteTheirFiles() throws Exception {
        var r = profile(
                "multi-value",
                "wall_clock cpu_util thread_cpu_util papi_array thread_cpu_clock",
                COUNTER,
                example("user-api"),
                "25",
                "2",
                "20");
        assertEquals(0, r.exitCode(), r::toString);
        Path out = cwd.resolve("out/multi-value");
        for (String label : new String[] {"cpu_util", "thread_cpu_util", "papi_array"}) {
            assertTrue(Files.isRegularFile(out.resolve(label + ".txt")), () -> label + ".txt missing: " + r);
            assertTrue(Files.isRegularFile(out.resolve(label + ".json")), () -> label + ".json missing: " + r);
        }
        int cpus = Runtime.getRuntime().availableProcessors();
        for (String label : new String[] {"cpu_util", "thread_cpu_util"}) {
            JsonNode graph = graph(out, label);
            assertTrue(graph.size() > 0, label);
            for (JsonNode e : graph) {
                double pct = e.get("entry").get("repr_display").asDouble();
                assertTrue(pct >= 0, () -> label + " out of range: " + e);
                if (label.equals("thread_cpu_util")) {
                    // the thread's own clock, read by the thread itself: exact
                    assertTrue(pct <= 100.0 * cpus + 1, () -> label + " out of range: " + e);
                } else {
                    // the process's clock: other threads' time reaches it when the scheduler
                    // accounts it (at their ticks), so a region of microseconds may see
                    // milliseconds of it; at most cpus x its wall time beyond that
                    long cpuNs = e.get("entry").get("value").get("first").asLong();
                    long wallNs = e.get("entry").get("value").get("second").asLong();
                    assertTrue(
                            cpuNs <= (long) cpus * wallNs + ACCOUNTING_SLACK_NS, () -> label + " out of range: " + e);
                }
            }
            assertTrue(Files.readString(out.resolve(label + ".txt")).contains("| %"), label);
        }
        String papiText = Files.readString(out.resolve("papi_array.txt"));
        assertTrue(papiText.contains("FIXED-SIZE ARRAY OF PAPI HW COUNTERS"), papiText);
        assertTrue(papiText.contains(COUNTER), papiText);

        // the counter's cpu-clock ns of each fib region against the thread's CPU time (both per
        // region, summed over its calls): they measure the same thing and agree within 20 %
        Map<String, Long> cpuNs = new HashMap<>();
        for (JsonNode e : graph(out, "thread_cpu_clock")) {
            cpuNs.put(e.get("prefix").asText(), e.get("entry").get("value").asLong());
        }
        JsonNode papi = graph(out, "papi_array");
        assertEquals(COUNTER, json(out, "papi_array").get("type").get(0).asText());
        int compared = 0;
        for (JsonNode e : papi) {
            String prefix = e.get("prefix").asText();
            if (!prefix.contains("run(25)")) {
                continue;
            }
            long counted = e.get("entry").get("value").get(0).asLong();
            long cpu = cpuNs.get(prefix);
            assertTrue(cpu > 0, prefix);
            assertTrue(Math.abs(counted - cpu) <= 0.2 * cpu, () -> prefix + ": counter " + counted + " ns, cpu " + cpu);
            compared++;
        }
        // run(25) on each of the 2 threads and then on main
        assertEquals(3, compared, papiText);
    }

    /**
     * A context switch happens in the kernel: counted in user space only, as the other counters
     * are, it read 0. A program that sleeps switches at least once in its main region.
     */
    @Test
    void contextSwitchesAreCountedWhereTheyHappen() throws Exception {
        var r = profile("switches", "wall_clock papi_array", "perf::CONTEXT-SWITCHES", "sleep", "0.2");
        assertEquals(0, r.exitCode(), r::toString);
        JsonNode main = graph(cwd.resolve("out/switches"), "papi_array").get(0);
        long switches = main.get("entry").get("value").get(0).asLong();
        if (r.stderr().contains("happens in the kernel")) {
            // perf_event_paranoid >= 2 without CAP_PERFMON: said once, and user space has none
            assertEquals(0, switches, r::toString);
        } else {
            assertTrue(switches >= 1, () -> main + "\n" + r);
        }
    }

    /** {@code rocprof-sys-run -- command} with the profile alone: these components and CPU events. */
    private org.rocprofsys.testkit.ProcessResult profile(
            String label, String components, String events, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("--"));
        args.addAll(List.of(command));
        return tool(
                "rocprof-sys-run",
                environment(label, CounterProfile.settings(false, components, events)),
                args.toArray(String[]::new));
    }

    private static JsonNode json(Path out, String label) throws Exception {
        return new ObjectMapper()
                .readTree(out.resolve(label + ".json").toFile())
                .get("timemory")
                .get(label);
    }

    private static JsonNode graph(Path out, String label) throws Exception {
        return json(out, label).get("ranks").get(0).get("graph");
    }
}
