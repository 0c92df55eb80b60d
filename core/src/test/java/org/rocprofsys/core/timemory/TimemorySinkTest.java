package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.core.timemory.Events.MS;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Golden text and JSON structure for a small two-thread example. */
class TimemorySinkTest {
    @TempDir
    Path dir;

    static final int PID = 4242;
    static final int WORKER = 4243;

    /**
     * Main thread: app [0, 1000 ms] with init [10, 110], pthread_create [120, 130] and compute
     * [200, 700] holding kernel twice (100 and 200 ms). The worker, started at 124 ms while the
     * main thread is inside pthread_create: start_thread [125, 925] with work twice (300, 400 ms).
     */
    static Events twoThreads() {
        Events ev = Events.program(PID, "app")
                .begin(0, PID, "app")
                .region(10 * MS, 110 * MS, PID, "init")
                .begin(120 * MS, PID, "pthread_create");
        ev.thread(124 * MS, WORKER, 1)
                .begin(125 * MS, WORKER, "start_thread")
                .region(150 * MS, 450 * MS, WORKER, "work")
                .region(500 * MS, 900 * MS, WORKER, "work")
                .end(925 * MS, WORKER)
                .threadEnd(930 * MS, WORKER, false);
        ev.end(130 * MS, PID)
                .begin(200 * MS, PID, "compute")
                .region(250 * MS, 350 * MS, PID, "kernel")
                .region(400 * MS, 600 * MS, PID, "kernel")
                .end(700 * MS, PID)
                .end(1000 * MS, PID)
                .threadEnd(1000 * MS, PID, false)
                .processEnd(1001 * MS);
        return ev;
    }

    static final String GOLDEN_WALL_CLOCK = """
            |-------------------------------------------------------------------------------------------------------------------------------------------|
            |                                                  REAL-CLOCK TIMER (I.E. WALL-CLOCK TIMER)                                                 |
            |-------------------------------------------------------------------------------------------------------------------------------------------|
            |         LABEL          | COUNT  | DEPTH  |   METRIC   | UNITS  |   SUM    |   MEAN   |   MIN    |   MAX    |   VAR    | STDDEV   | % SELF |
            |------------------------|--------|--------|------------|--------|----------|----------|----------|----------|----------|----------|--------|
            | |0>>> app              |      1 |      0 | wall_clock | sec    | 1.000000 | 1.000000 | 1.000000 | 1.000000 | 0.000000 | 0.000000 |   39.0 |
            | |0>>> |_init           |      1 |      1 | wall_clock | sec    | 0.100000 | 0.100000 | 0.100000 | 0.100000 | 0.000000 | 0.000000 |  100.0 |
            | |0>>> |_pthread_create |      1 |      1 | wall_clock | sec    | 0.010000 | 0.010000 | 0.010000 | 0.010000 | 0.000000 | 0.000000 |    0.0 |
            | |1>>>   |_start_thread |      1 |      2 | wall_clock | sec    | 0.800000 | 0.800000 | 0.800000 | 0.800000 | 0.000000 | 0.000000 |   12.5 |
            | |1>>>     |_work       |      2 |      3 | wall_clock | sec    | 0.700000 | 0.350000 | 0.300000 | 0.400000 | 0.005000 | 0.070711 |  100.0 |
            | |0>>> |_compute        |      1 |      1 | wall_clock | sec    | 0.500000 | 0.500000 | 0.500000 | 0.500000 | 0.000000 | 0.000000 |   40.0 |
            | |0>>>   |_kernel       |      2 |      2 | wall_clock | sec    | 0.300000 | 0.150000 | 0.100000 | 0.200000 | 0.005000 | 0.070711 |  100.0 |
            |-------------------------------------------------------------------------------------------------------------------------------------------|
            """;

    static final String GOLDEN_TRIP_COUNT = """
            |----------------------------------------------------------------|
            |                  COUNTS NUMBER OF INVOCATIONS                  |
            |----------------------------------------------------------------|
            |         LABEL          | COUNT  | DEPTH  |   METRIC   |  SUM   |
            |------------------------|--------|--------|------------|--------|
            | |0>>> app              |      1 |      0 | trip_count |      1 |
            | |0>>> |_init           |      1 |      1 | trip_count |      1 |
            | |0>>> |_pthread_create |      1 |      1 | trip_count |      1 |
            | |1>>>   |_start_thread |      1 |      2 | trip_count |      1 |
            | |1>>>     |_work       |      2 |      3 | trip_count |      2 |
            | |0>>> |_compute        |      1 |      1 | trip_count |      1 |
            | |0>>>   |_kernel       |      2 |      2 | trip_count |      2 |
            |----------------------------------------------------------------|
            """;

    private TimemoryOptions options() {
        return TimemoryOptions.defaults().withComponents(List.of(Component.WALL_CLOCK, Component.TRIP_COUNT));
    }

    @Test
    void goldenText() throws Exception {
        Run r = Run.of(dir, options(), twoThreads().list, 2000 * MS, PID);
        assertEquals(GOLDEN_WALL_CLOCK, r.text("wall_clock-4242.txt"));
        assertEquals(GOLDEN_TRIP_COUNT, r.text("trip_count-4242.txt"));
    }

    @Test
    void logLinesJsonThenTextPerComponent() throws Exception {
        Run r = Run.of(dir, options(), twoThreads().list, 2000 * MS, PID);
        assertEquals("""
                [rocprofiler-systems][4242][wall_clock]> Outputting 'out/wall_clock-4242.json'
                [rocprofiler-systems][4242][wall_clock]> Outputting 'out/wall_clock-4242.txt'
                [rocprofiler-systems][4242][trip_count]> Outputting 'out/trip_count-4242.json'
                [rocprofiler-systems][4242][trip_count]> Outputting 'out/trip_count-4242.txt'
                """, r.log);
        assertEquals(
                List.of(dir.resolve("out/wall_clock-4242.json"), dir.resolve("out/trip_count-4242.json")),
                r.sink.outputs().get("json"));
        assertEquals(
                List.of(dir.resolve("out/wall_clock-4242.txt"), dir.resolve("out/trip_count-4242.txt")),
                r.sink.outputs().get("text"));
        assertEquals(
                Map.of(
                        "wall_clock",
                        List.of(dir.resolve("out/wall_clock-4242.txt")),
                        "trip_count",
                        List.of(dir.resolve("out/trip_count-4242.txt"))),
                r.sink.outputsByLabel().get("text"));
        assertEquals("", r.stdout);
    }

    @Test
    void coutPrintsTheTableBetweenBlankLinesAndNeverTheRootHash() throws Exception {
        TimemoryOptions o =
                TimemoryOptions.defaults().withOutputs(new TimemoryOptions.Outputs(true, true, true, true, true));
        Run r = Run.of(dir, o, twoThreads().list, 2000 * MS, PID);
        assertEquals("\n" + GOLDEN_WALL_CLOCK + "\n", r.stdout);
        assertFalse(r.stdout.contains("unknown-hash="));
        assertFalse(r.log.contains("unknown-hash="));
        assertTrue(r.text("wall_clock-4242.json").contains("\"prefix\":\"unknown-hash=0\""));
    }

    @Test
    void jsonFlatLayout() throws Exception {
        Run r = Run.of(dir, options(), twoThreads().list, 2000 * MS, PID);
        String raw = r.text("wall_clock-4242.json");
        assertTrue(raw.endsWith("}}}\n"), "one compact line");
        assertEquals(1, raw.split("\n").length);
        JsonNode wc = r.json("wall_clock-4242.json").get("timemory").get("wall_clock");
        List<String> keys = new ArrayList<>();
        wc.fieldNames().forEachRemaining(keys::add);
        assertEquals(
                List.of(
                        "properties",
                        "type",
                        "description",
                        "unit_value",
                        "unit_repr",
                        "thread_scope_only",
                        "thread_count",
                        "mpi_size",
                        "upcxx_size",
                        "process_count",
                        "num_ranks",
                        "concurrency",
                        "ranks",
                        "graph"),
                keys);
        JsonNode props = wc.get("properties");
        assertEquals(0, props.get("cereal_class_version").asInt());
        assertEquals(78, props.get("value").asInt());
        assertEquals("WALL_CLOCK", props.get("enum").asText());
        assertEquals("wall_clock", props.get("id").asText());
        assertEquals(
                "[\"real_clock\",\"virtual_clock\",\"wall_clock\"]",
                props.get("ids").toString());
        assertEquals(
                "Real-clock timer (i.e. wall-clock timer)",
                wc.get("description").asText());
        assertEquals(1_000_000_000L, wc.get("unit_value").asLong());
        assertEquals("sec", wc.get("unit_repr").asText());
        assertEquals(2, wc.get("thread_count").asInt());
        assertEquals(2, wc.get("concurrency").asInt());

        JsonNode rank = wc.get("ranks").get(0);
        assertEquals(0, rank.get("rank").asInt());
        assertEquals(7, rank.get("graph_size").asInt());
        JsonNode g = rank.get("graph");
        assertEquals(7, g.size());
        JsonNode first = g.get(0);
        List<String> fk = new ArrayList<>();
        first.fieldNames().forEachRemaining(fk::add);
        assertEquals(List.of("hash", "prefix", "depth", "entry", "stats", "rolling_hash"), fk);
        assertEquals("|0>>> app", first.get("prefix").asText());
        assertEquals(0, first.get("depth").asInt());
        JsonNode entry = first.get("entry");
        assertEquals(0, entry.get("cereal_class_version").asInt());
        assertEquals(1, entry.get("laps").asLong());
        assertEquals(1_000_000_000L, entry.get("value").asLong());
        assertEquals(1_000_000_000L, entry.get("accum").asLong());
        assertEquals(1.0, entry.get("repr_data").asDouble());
        assertEquals(1.0, entry.get("repr_display").asDouble());
        assertEquals(0, first.get("stats").get("cereal_class_version").asInt());
        // the class version is written once per class
        assertFalse(g.get(1).get("entry").has("cereal_class_version"));
        assertFalse(g.get(1).get("stats").has("cereal_class_version"));

        JsonNode work = g.get(4);
        assertEquals("|1>>>     |_work", work.get("prefix").asText());
        assertEquals(3, work.get("depth").asInt());
        JsonNode st = work.get("stats");
        assertEquals(0.7, st.get("sum").asDouble());
        assertEquals(2, st.get("count").asInt());
        assertEquals(0.3, st.get("min").asDouble());
        assertEquals(0.4, st.get("max").asDouble());
        assertEquals(0.25, st.get("sqr").asDouble());
        assertEquals(0.35, st.get("mean").asDouble());
        assertEquals(Math.sqrt(0.005), st.get("stddev").asDouble(), 1e-12);

        // hashes: std::hash of the label combined with the insertion depth; rolling = sum up the path
        long app = StdHash.combine(StdHash.of("app"), 1);
        long pc = StdHash.combine(StdHash.of("pthread_create"), 2);
        long stt = StdHash.combine(StdHash.of("start_thread"), 3);
        long wk = StdHash.combine(StdHash.of("work"), 4);
        assertEquals(Long.toUnsignedString(app), first.get("hash").asText());
        assertEquals(Long.toUnsignedString(app), first.get("rolling_hash").asText());
        assertEquals(
                Long.toUnsignedString(wk), work.get("hash").bigIntegerValue().toString());
        assertEquals(
                Long.toUnsignedString(wk + stt + pc + app),
                work.get("rolling_hash").bigIntegerValue().toString());
    }

    @Test
    void jsonHierarchicalLayout() throws Exception {
        Run r = Run.of(dir, options(), twoThreads().list, 2000 * MS, PID);
        JsonNode graph =
                r.json("wall_clock-4242.json").get("timemory").get("wall_clock").get("graph");
        assertEquals(1, graph.size());
        assertEquals(1, graph.get(0).size());
        JsonNode root = graph.get(0).get(0);
        assertEquals(0, root.get("cereal_class_version").asInt());
        JsonNode node = root.get("node");
        List<String> nk = new ArrayList<>();
        node.fieldNames().forEachRemaining(nk::add);
        assertEquals(List.of("hash", "prefix", "tid", "pid", "depth", "is_dummy", "inclusive", "exclusive"), nk);
        assertEquals(0, node.get("hash").asLong());
        assertEquals("unknown-hash=0", node.get("prefix").asText());
        assertEquals("[0]", node.get("tid").toString());
        assertEquals("[4242]", node.get("pid").toString());
        assertEquals(0, node.get("depth").asInt());
        assertFalse(node.get("is_dummy").asBoolean());
        assertEquals(0, node.get("inclusive").get("entry").get("laps").asInt());
        assertEquals(
                -1_000_000_000L, node.get("exclusive").get("entry").get("value").asLong());
        assertEquals(-1.0, node.get("exclusive").get("entry").get("repr_data").asDouble());

        JsonNode app = root.get("children").get(0);
        assertEquals("app", app.get("node").get("prefix").asText());
        assertEquals(1, app.get("node").get("depth").asInt());
        assertFalse(app.has("cereal_class_version"));
        // exclusive = 1.0 - (0.1 + 0.01 + 0.5)
        assertEquals(
                390_000_000L,
                app.get("node").get("exclusive").get("entry").get("value").asLong());
        JsonNode pc = app.get("children").get(1);
        assertEquals("pthread_create", pc.get("node").get("prefix").asText());
        JsonNode st = pc.get("children").get(0).get("node");
        assertEquals("start_thread", st.get("prefix").asText());
        assertEquals("[1]", st.get("tid").toString());
        assertEquals(3, st.get("depth").asInt());
        assertEquals(100_000_000L, st.get("exclusive").get("entry").get("value").asLong());
    }

    @Test
    void treeMergesEqualSiblingsOfDifferentThreads() throws Exception {
        // two workers start under the same pthread_create: one start_thread node, tids united,
        // values and statistics summed, laps of the first kept (timemory's basic_tree +=)
        Events ev = Events.program(PID, "app").begin(0, PID, "app");
        ev.begin(10 * MS, PID, "pthread_create");
        ev.thread(11 * MS, 5001, 1)
                .region(12 * MS, 112 * MS, 5001, "start_thread")
                .threadEnd(113 * MS, 5001, false);
        ev.end(20 * MS, PID).begin(30 * MS, PID, "pthread_create");
        ev.thread(31 * MS, 5002, 2)
                .region(32 * MS, 232 * MS, 5002, "start_thread")
                .threadEnd(233 * MS, 5002, false);
        ev.end(40 * MS, PID).end(300 * MS, PID).processEnd(301 * MS);
        Run r = Run.of(dir, options(), ev.list, 400 * MS, PID);
        JsonNode wc = r.json("wall_clock-4242.json").get("timemory").get("wall_clock");
        JsonNode pc = wc.get("graph")
                .get(0)
                .get(0)
                .get("children")
                .get(0)
                .get("children")
                .get(0);
        assertEquals(1, pc.get("children").size());
        JsonNode st = pc.get("children").get(0).get("node");
        assertEquals("[1,2]", st.get("tid").toString());
        assertEquals(300_000_000L, st.get("inclusive").get("entry").get("value").asLong());
        assertEquals(1, st.get("inclusive").get("entry").get("laps").asLong());
        assertEquals(2, st.get("inclusive").get("stats").get("count").asLong());
        // the flat list keeps one row per thread
        JsonNode g = wc.get("ranks").get(0).get("graph");
        assertEquals("|1>>>   |_start_thread", g.get(2).get("prefix").asText());
        assertEquals("|2>>>   |_start_thread", g.get(3).get("prefix").asText());
    }

    /** The two-thread run into {@code out} with the default options but {@code outputs}. */
    static Run twoThreadsWith(Path out, TimemoryOptions.Outputs outputs) throws Exception {
        return Run.of(out, TimemoryOptions.defaults().withOutputs(outputs), twoThreads().list, 2000 * MS, PID);
    }

    @Test
    void jsonOnlyTreeOrOnlyRanks() throws Exception {
        Run r = twoThreadsWith(dir, new TimemoryOptions.Outputs(true, false, false, true, false));
        JsonNode wc = r.json("wall_clock-4242.json").get("timemory").get("wall_clock");
        assertFalse(wc.has("ranks"));
        assertTrue(wc.has("graph"));
        assertFalse(Files.exists(r.file("wall_clock-4242.txt")));
        // without the flat part, the tree's first entry carries the class version
        assertEquals(
                0,
                wc.get("graph")
                        .get(0)
                        .get(0)
                        .get("node")
                        .get("inclusive")
                        .get("entry")
                        .get("cereal_class_version")
                        .asInt());

        Run r2 = twoThreadsWith(dir.resolve("b"), new TimemoryOptions.Outputs(true, true, true, false, false));
        JsonNode wc2 = r2.json("wall_clock-4242.json").get("timemory").get("wall_clock");
        assertTrue(wc2.has("ranks"));
        assertFalse(wc2.has("graph"));

        Path d3 = dir.resolve("c");
        Run r3 = twoThreadsWith(d3, new TimemoryOptions.Outputs(false, true, true, true, false));
        assertFalse(Files.exists(d3.resolve("out")));
        assertEquals("", r3.log);
    }

    @Test
    void tripCountJsonHasNoAccumAndEmptyStatistics() throws Exception {
        Run r = Run.of(dir, options(), twoThreads().list, 2000 * MS, PID);
        JsonNode tc = r.json("trip_count-4242.json").get("timemory").get("trip_count");
        assertEquals(61, tc.get("properties").get("value").asInt());
        assertEquals(1, tc.get("unit_value").asLong());
        assertEquals("", tc.get("unit_repr").asText());
        JsonNode work = tc.get("ranks").get(0).get("graph").get(4);
        assertFalse(work.get("entry").has("accum"));
        assertEquals(2, work.get("entry").get("value").asLong());
        assertTrue(work.get("entry").get("repr_data").isIntegralNumber());
        assertEquals("{}", work.get("stats").toString());
        assertEquals(
                "{\"cereal_class_version\":0}",
                tc.get("ranks").get(0).get("graph").get(0).get("stats").toString());
    }
}
