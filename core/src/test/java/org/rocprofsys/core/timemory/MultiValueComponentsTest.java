package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.core.timemory.Events.MS;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.RegionMetrics.CounterValues;
import org.rocprofsys.core.event.RegionMetrics.ResourceUsage;

/** The files of the components with several values: cpu_util, thread_cpu_util (pairs) and papi_array (arrays). */
class MultiValueComponentsTest {
    @TempDir
    Path dir;

    static final int PID = 4242;
    static final long A = RegionMetrics.ABSENT;
    static final List<String> COUNTERS =
            List.of("perf::PERF_COUNT_SW_CPU_CLOCK", "perf::PERF_COUNT_HW_INSTRUCTIONS", "perf::CONTEXT-SWITCHES");

    /** A reading: the thread's CPU time and the three counters (the second never opened: absent). */
    static RegionMetrics at(long cpuNs, long cpuClock, long switches) {
        return new RegionMetrics(
                cpuNs, A, A, ResourceUsage.NONE, new CounterValues(new long[] {cpuClock, A, switches}));
    }

    /**
     * app [0, 1000 ms] uses 600 ms of CPU; inside it work runs twice: [100, 500] with 350 ms of CPU
     * and [600, 800] with 50 ms.
     */
    static Events run() {
        return Events.program(PID, "app")
                .begin(0, PID, "app", at(0, 1_000, 10))
                .begin(100 * MS, PID, "work", at(100 * MS, 100 * MS, 12))
                .end(500 * MS, PID, at(450 * MS, 450 * MS + 1_000, 20), false)
                .begin(600 * MS, PID, "work", at(460 * MS, 460 * MS, 21))
                .end(800 * MS, PID, at(510 * MS, 510 * MS, 31), false)
                .end(1000 * MS, PID, at(600 * MS, 600 * MS + 1_000, 40), false)
                .threadEnd(1000 * MS, PID, false)
                .processEnd(1001 * MS);
    }

    private TimemoryOptions options(Component... c) {
        return TimemoryOptions.defaults().withComponents(List.of(c)).withCounters(COUNTERS);
    }

    static final String CPU_UTIL_TEXT = """
            |---------------------------------------------------------------------------------------------------------------------|
            |                                PERCENTAGE OF CPU-CLOCK TIME DIVIDED BY WALL-CLOCK TIME                              |
            |---------------------------------------------------------------------------------------------------------------------|
            |    LABEL     | COUNT  | DEPTH  | METRIC   | UNITS  |  SUM   | MEAN   |  MIN   |  MAX   |   VAR    | STDDEV | % SELF |
            |--------------|--------|--------|----------|--------|--------|--------|--------|--------|----------|--------|--------|
            | |0>>> app    |      1 |      0 | cpu_util | %      | 60.000 | 60.000 | 60.000 | 60.000 |    0.000 |  0.000 |    0.0 |
            | |0>>> |_work |      2 |      1 | cpu_util | %      | 66.667 | 33.333 | 25.000 | 87.500 | 1953.125 | 44.194 |  100.0 |
            |---------------------------------------------------------------------------------------------------------------------|
            """;

    // one line per counter read in each row; the counter never read (absent everywhere) is left out
    static final String PAPI_ARRAY_TEXT = """
            |---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            |                                                                       FIXED-SIZE ARRAY OF PAPI HW COUNTERS                                                                      |
            |---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            |    LABEL     | COUNT  | DEPTH  |            METRIC             |     SUM       |     MEAN      |     MIN       |     MAX       |         VAR           |    STDDEV     | % SELF |
            |--------------|--------|--------|-------------------------------|---------------|---------------|---------------|---------------|-----------------------|---------------|--------|
            | |0>>> app    |      1 |      0 | perf::PERF_COUNT_SW_CPU_CLOCK | 600000000.000 | 600000000.000 | 600000000.000 | 600000000.000 |                 0.000 |         0.000 |   33.3 |
            |              |        |        | perf::CONTEXT-SWITCHES        |        30.000 |        30.000 |        30.000 |        30.000 |                 0.000 |         0.000 |   40.0 |
            | |0>>> |_work |      2 |      1 | perf::PERF_COUNT_SW_CPU_CLOCK | 400001000.000 | 200000500.000 |  50000000.000 | 350001000.000 | 45000300000500000.000 | 212132741.463 |  100.0 |
            |              |        |        | perf::CONTEXT-SWITCHES        |        18.000 |         9.000 |         8.000 |        10.000 |                 2.000 |         1.414 |  100.0 |
            |---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------|
            """;

    @Test
    void everyComponentWritesItsFilesInOrder() throws Exception {
        Run r = Run.of(
                dir,
                options(Component.WALL_CLOCK, Component.CPU_UTIL, Component.THREAD_CPU_UTIL, Component.PAPI_ARRAY),
                run().list,
                2000 * MS,
                PID);
        for (String label : List.of("wall_clock", "cpu_util", "thread_cpu_util", "papi_array")) {
            assertTrue(r.log.contains("[" + label + "]> Outputting 'out/" + label + "-4242.json'"), r.log);
            assertTrue(r.log.contains("[" + label + "]> Outputting 'out/" + label + "-4242.txt'"), r.log);
        }
    }

    @Test
    void utilisationIsTheCpuTimeOverTheWallTimeOfAllCalls() throws Exception {
        Run r = Run.of(dir, options(Component.CPU_UTIL, Component.THREAD_CPU_UTIL), run().list, 2000 * MS, PID);
        assertEquals(CPU_UTIL_TEXT, r.text("cpu_util-4242.txt"));
        assertTrue(
                r.text("thread_cpu_util-4242.txt").contains("| |0>>> |_work |      2 |      1 | thread_cpu_util | %"));
        for (String label : List.of("cpu_util", "thread_cpu_util")) {
            JsonNode m = r.json(label + "-4242.json").get("timemory").get(label);
            assertEquals("%", m.get("unit_repr").asText());
            assertEquals(1, m.get("unit_value").asLong());
            JsonNode work = m.get("ranks").get(0).get("graph").get(1).get("entry");
            // (350 + 50 ms of CPU) / (400 + 200 ms of wall time), not the mean of 87.5 % and 25 %
            assertEquals(400 * MS, work.get("value").get("first").asLong());
            assertEquals(600 * MS, work.get("value").get("second").asLong());
            assertEquals(200.0 / 3, work.get("repr_display").asDouble(), 1e-9);
            JsonNode stats = m.get("ranks").get(0).get("graph").get(1).get("stats");
            assertEquals(25.0, stats.get("min").asDouble());
            assertEquals(87.5, stats.get("max").asDouble());
        }
    }

    @Test
    void papiArrayHasOneColumnGroupPerCounterRead() throws Exception {
        Run r = Run.of(dir, options(Component.PAPI_ARRAY), run().list, 2000 * MS, PID);
        assertEquals(PAPI_ARRAY_TEXT, r.text("papi_array-4242.txt"));
        JsonNode m = r.json("papi_array-4242.json").get("timemory").get("papi_array");
        List<String> shown = List.of("perf::PERF_COUNT_SW_CPU_CLOCK", "perf::CONTEXT-SWITCHES");
        assertEquals(shown, strings(m.get("type")));
        assertEquals(List.of("", ""), strings(m.get("unit_repr")));
        JsonNode app = m.get("ranks").get(0).get("graph").get(0).get("entry");
        assertEquals(600 * MS, app.get("value").get(0).asLong());
        assertEquals(30, app.get("accum").get(1).asLong());
        assertEquals(shown, strings(app.get("events")));
        JsonNode work = m.get("ranks").get(0).get("graph").get(1);
        assertEquals(
                List.of(50.0 * MS, 8.0),
                List.of(
                        work.get("stats").get("min").get(0).asDouble(),
                        work.get("stats").get("min").get(1).asDouble()));
        // the tree's exclusive values: app minus its two works
        JsonNode tree = m.get("graph").get(0).get(0).get("children").get(0).get("node");
        assertEquals(
                199_999_000L,
                tree.get("exclusive").get("entry").get("value").get(0).asLong());
        assertEquals(12, tree.get("exclusive").get("entry").get("value").get(1).asLong());
    }

    @Test
    void papiArrayWritesNothingWhenNoCounterWasRead() throws Exception {
        Events ev = Events.program(PID, "app")
                .begin(0, PID, "app", new RegionMetrics(0, A, A))
                .end(10 * MS, PID, new RegionMetrics(5 * MS, A, A), false)
                .processEnd(11 * MS);
        Run r = Run.of(dir, options(Component.WALL_CLOCK, Component.PAPI_ARRAY), ev.list, 20 * MS, PID);
        assertTrue(Files.exists(r.file("wall_clock-4242.txt")));
        assertFalse(Files.exists(r.file("papi_array-4242.txt")));
        assertFalse(Files.exists(r.file("papi_array-4242.json")));
        assertFalse(r.log.contains("papi_array"), r.log);
    }

    private static List<String> strings(JsonNode array) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
