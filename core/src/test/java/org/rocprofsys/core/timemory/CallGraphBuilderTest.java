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
import org.rocprofsys.core.calltree.CallTree;
import org.rocprofsys.core.calltree.ProcessCalls;
import org.rocprofsys.core.event.ProcessStarted;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.tracetest.TestPaths;

/** Closing, placement, bounds and settings of the call-graph builder, through the sink's output. */
class CallGraphBuilderTest {
    @TempDir
    Path dir;

    static final int PID = 900;

    private static TimemoryOptions opts(
            boolean flat, boolean timeline, boolean collapse, int maxDepth, List<Component> comps) {
        return TimemoryOptions.defaults()
                .withComponents(comps)
                .withProfile(new TimemoryOptions.Profile(flat, timeline, collapse, maxDepth));
    }

    private static JsonNode graph(Run r, String comp, int pid) throws Exception {
        return r.json(comp + "-" + pid + ".json")
                .get("timemory")
                .get(comp)
                .get("ranks")
                .get(0)
                .get("graph");
    }

    @Test
    void forcedAndImplicitClosing() throws Exception {
        Events ev = Events.program(PID, "app")
                .begin(0, PID, "app")
                .begin(100 * MS, PID, "forced")
                .end(250 * MS, PID, RegionMetrics.NONE, true) // forced end: closes at its time
                .begin(300 * MS, PID, "open_at_process_end");
        // a worker killed with two regions open: closed when its thread ends abruptly
        ev.thread(10 * MS, PID + 1, 1)
                .begin(20 * MS, PID + 1, "outer")
                .begin(30 * MS, PID + 1, "inner")
                .threadEnd(530 * MS, PID + 1, true);
        ev.processEnd(800 * MS);
        // a second process whose regions are still open when the run finishes
        Events other = new Events(PID + 50)
                .process(0, "child")
                .thread(0, PID + 50, 0)
                .begin(0, PID + 50, "child")
                .begin(400 * MS, PID + 50, "never_closed");
        ev.list.addAll(other.list);
        Run r = Run.of(dir, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 1000 * MS, PID);

        JsonNode g = graph(r, "wall_clock", PID);
        assertEquals("|0>>> app", g.get(0).get("prefix").asText());
        assertEquals(800 * MS, g.get(0).get("entry").get("value").asLong());
        assertEquals("|0>>> |_forced", g.get(1).get("prefix").asText());
        assertEquals(150 * MS, g.get(1).get("entry").get("value").asLong());
        assertEquals("|0>>> |_open_at_process_end", g.get(2).get("prefix").asText());
        assertEquals(500 * MS, g.get(2).get("entry").get("value").asLong());
        // the worker began while the main thread sat in app: it hangs below app
        assertEquals("|1>>> |_outer", g.get(3).get("prefix").asText());
        assertEquals(510 * MS, g.get(3).get("entry").get("value").asLong());
        assertEquals("|1>>>   |_inner", g.get(4).get("prefix").asText());
        assertEquals(500 * MS, g.get(4).get("entry").get("value").asLong());
        assertEquals(1, g.get(4).get("entry").get("laps").asLong());

        JsonNode c = graph(r, "wall_clock", PID + 50);
        assertEquals("|0>>> child", c.get(0).get("prefix").asText());
        assertEquals(1000 * MS, c.get(0).get("entry").get("value").asLong());
        assertEquals(600 * MS, c.get(1).get("entry").get("value").asLong());
        // the child's files carry its own pid
        assertTrue(Files.exists(r.file("wall_clock-950.txt")));
        assertTrue(r.log.contains("[rocprofiler-systems][950][wall_clock]> Outputting 'out/wall_clock-950.json'"));
    }

    @Test
    void childProcessesShareNamesWithoutPidSuffix() throws Exception {
        Events ev = Events.program(PID, "app").region(0, 10, PID, "app");
        Events other =
                new Events(PID + 1).process(0, "child").thread(0, PID + 1, 0).region(0, 10, PID + 1, "child");
        ev.list.addAll(other.list);
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        TimemorySink s = new TimemorySink(
                opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)),
                TestPaths.paths(dir, PID, false),
                new java.io.PrintStream(log, true),
                System.out);
        ev.list.forEach(s::accept);
        s.finish(Events.summary(100, PID));
        assertEquals(
                List.of(dir.resolve("out/wall_clock.json"), dir.resolve("out/wall_clock.json")),
                s.outputs().get("json"));
        assertTrue(Files.readString(dir.resolve("out/wall_clock.txt")).contains(">>> child"));
    }

    @Test
    void execKeepsEveryImageInTheProfileOfThePid() throws Exception {
        Events ev = Events.program(PID, "sh").region(0, 10, PID, "sh");
        ev.thread(2, PID + 1, 1).region(3, 5, PID + 1, "sh_worker");
        ev.list.add(new org.rocprofsys.core.event.ProcessEnded(20, PID, org.rocprofsys.core.event.ProcessEnd.EXEC, 0));
        ev.list.add(new ProcessStarted(30, PID, 1, "app", List.of("app"), 0, 1));
        ev.thread(30, PID, 0).region(40, 90, PID, "app");
        ev.list.add(new org.rocprofsys.core.event.ProcessEnded(95, PID, org.rocprofsys.core.event.ProcessEnd.EXEC, 0));
        ev.list.add(new ProcessStarted(96, PID, 2, "app", List.of("app"), 0, 2));
        ev.thread(96, PID, 0).region(97, 99, PID, "app");
        Run r = Run.of(dir, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 100, PID);
        JsonNode g = graph(r, "wall_clock", PID);
        assertEquals(3, g.size(), g.toString());
        assertEquals("|0>>> sh", g.get(0).get("prefix").asText());
        // the first image's worker began while its main thread sat in sh
        assertEquals("|1>>> |_sh_worker", g.get(1).get("prefix").asText());
        assertEquals("|0>>> app", g.get(2).get("prefix").asText());
        // both later images' main regions are one entry: two laps, 50 + 2 ns
        assertEquals(2, g.get(2).get("entry").get("laps").asLong());
        assertEquals(52, g.get(2).get("entry").get("value").asLong());
    }

    @Test
    void workerStartedOutsideAnyMainRegionIsTopLevel() throws Exception {
        Events ev =
                Events.program(PID, "app").region(0, 10 * MS, PID, "setup").region(50 * MS, 60 * MS, PID, "teardown");
        ev.thread(20 * MS, PID + 1, 1).region(21 * MS, 40 * MS, PID + 1, "start_thread");
        Run r = Run.of(dir, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 100 * MS, PID);
        JsonNode g = graph(r, "wall_clock", PID);
        assertEquals("|0>>> setup", g.get(0).get("prefix").asText());
        assertEquals("|0>>> teardown", g.get(1).get("prefix").asText());
        assertEquals("|1>>> start_thread", g.get(2).get("prefix").asText());
        assertEquals(0, g.get(2).get("depth").asInt());
    }

    @Test
    void threadNumberWidthGrowsPastNineThreads() throws Exception {
        Events ev = Events.program(PID, "app").begin(0, PID, "app");
        for (int k = 1; k <= 10; k++) {
            ev.thread(k * MS, PID + k, k)
                    .region(k * MS + 1, k * MS + 2, PID + k, "w")
                    .threadEnd(k * MS + 3, PID + k, false);
        }
        ev.end(100 * MS, PID);
        Run r = Run.of(dir, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 200 * MS, PID);
        String txt = r.text("wall_clock-900.txt");
        assertTrue(txt.contains("| |00>>> app "), txt);
        assertTrue(txt.contains("| |07>>> |_w "), txt);
        assertTrue(txt.contains("| |10>>> |_w "), txt);
    }

    @Test
    void unendedWorkersMergeByDescendingThreadNumber() throws Exception {
        Events ev = Events.program(PID, "app").begin(0, PID, "app");
        for (int k = 1; k <= 3; k++) {
            ev.thread(k * MS, PID + k, k).begin(k * MS + 1, PID + k, "ompt_thread_worker");
        }
        ev.end(100 * MS, PID);
        Run r = Run.of(dir, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 200 * MS, PID);
        JsonNode g = graph(r, "wall_clock", PID);
        assertEquals("|3>>> |_ompt_thread_worker", g.get(1).get("prefix").asText());
        assertEquals("|2>>> |_ompt_thread_worker", g.get(2).get("prefix").asText());
        assertEquals("|1>>> |_ompt_thread_worker", g.get(3).get("prefix").asText());
    }

    @Test
    void maxDepthDropsDeeperEntries() throws Exception {
        Events ev = Events.program(PID, "app")
                .begin(0, PID, "a")
                .begin(1, PID, "b")
                .region(2, 3, PID, "c")
                .end(4, PID)
                .end(5, PID);
        Run r = Run.of(dir, opts(false, false, false, 2, List.of(Component.WALL_CLOCK)), ev.list, 10, PID);
        TimemoryJsonValidator.Result res = TimemoryJsonValidator.validate(
                r.file("wall_clock-900.json"), "wall_clock", List.of("a", "b"), List.of(1, 1), List.of(0, 1));
        assertTrue(res.ok(), res.message());
        assertEquals(2, graph(r, "wall_clock", PID).size());
        assertFalse(r.text("wall_clock-900.txt").contains("_c "));
        // flat profiles ignore MAX_DEPTH
        Run f = Run.of(dir.resolve("f"), opts(true, false, false, 1, List.of(Component.WALL_CLOCK)), ev.list, 10, PID);
        assertEquals(3, graph(f, "wall_clock", PID).size());
    }

    @Test
    void timelineKeepsEveryCallAndHashesWithTheCounter() throws Exception {
        Events ev = Events.program(PID, "app").begin(0, PID, "app");
        for (int i = 0; i < 3; i++) {
            ev.region(10 + i * 10, 15 + i * 10, PID, "k");
        }
        ev.end(100, PID);
        Run r = Run.of(dir, opts(false, true, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 200, PID);
        JsonNode g = graph(r, "wall_clock", PID);
        assertEquals(4, g.size());
        long h1 = StdHash.combine(StdHash.combine(StdHash.of("app"), 1), 1);
        long h2 = StdHash.combine(StdHash.combine(StdHash.of("k"), 2), 2);
        assertEquals(
                Long.toUnsignedString(h1),
                g.get(0).get("hash").bigIntegerValue().toString());
        assertEquals(
                Long.toUnsignedString(h2),
                g.get(1).get("hash").bigIntegerValue().toString());
        for (int i = 1; i <= 3; i++) {
            assertEquals("|0>>> |_k", g.get(i).get("prefix").asText());
            assertEquals(1, g.get(i).get("entry").get("laps").asInt());
        }
    }

    @Test
    void memoryStaysBoundedByDistinctPaths() {
        TimemoryOptions o = opts(false, false, false, 65535, List.of(Component.WALL_CLOCK, Component.TRIP_COUNT));
        CallTree b = new CallTree(new TimemoryMeter(o), false, false);
        Events ev = Events.program(PID, "app").thread(0, PID + 1, 1);
        ev.list.forEach(b::accept);
        long t = 0;
        b.accept(begin(t++, PID, "app"));
        for (int i = 0; i < 500_000; i++) {
            int tid = (i & 1) == 0 ? PID : PID + 1;
            b.accept(begin(t++, tid, "outer"));
            b.accept(begin(t++, tid, (i % 3 == 0) ? "x" : "y"));
            b.accept(end(t++, tid));
            b.accept(end(t++, tid));
        }
        b.accept(end(t++, PID));
        b.finish(t);
        // app, app/outer, app/outer/x, app/outer/y on the main thread, outer, outer/x, outer/y on the worker
        assertEquals(7, b.nodeCount());
        ProcessCalls p = b.processes().get(0);
        assertTrue(p.historySize() <= CallTree.HISTORY_CAPACITY);
        ProcessReport rep = ProcessReport.build(
                p, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK, Component.TRIP_COUNT)));
        assertEquals(7, rep.rows().size());
        assertEquals(250_000, rep.rows().get(1).measure().laps());

        CallTree tl = new CallTree(
                new TimemoryMeter(opts(false, true, false, 65535, List.of(Component.WALL_CLOCK))), false, true);
        ev.list.forEach(tl::accept);
        for (int i = 0; i < 1000; i++) {
            tl.accept(begin(2L * i, PID, "k"));
            tl.accept(end(2L * i + 1, PID));
        }
        assertEquals(1000, tl.nodeCount());
    }

    @Test
    void deepRecursionIsWritten() throws Exception {
        int depth = 3000;
        Events ev = Events.program(PID, "app");
        for (int i = 0; i < depth; i++) {
            ev.begin(i, PID, "rec");
        }
        for (int i = 0; i < depth; i++) {
            ev.end(depth + i, PID);
        }
        Run r = Run.of(dir, opts(false, false, false, 65535, List.of(Component.WALL_CLOCK)), ev.list, 10 * depth, PID);
        String[] lines = r.text("wall_clock-900.txt").split("\n");
        assertEquals(depth + 6, lines.length);
        assertTrue(lines[depth + 4].contains("|   " + (depth - 1) + " | wall_clock |"), lines[depth + 4]);
        String json = r.text("wall_clock-900.json");
        assertTrue(json.startsWith("{\"timemory\":{\"wall_clock\":{") && json.endsWith("]]}}}\n"));
    }

    @Test
    void memoryComponentsAndCpuClockFromReadings() throws Exception {
        Events ev = Events.program(PID, "app")
                .begin(0, PID, "app", new RegionMetrics(1_000_000, 10_000_000, 20_000_000))
                .begin(10, PID, "alloc", new RegionMetrics(2_000_000, 10_000_000, 20_000_000))
                .end(20, PID, new RegionMetrics(5_000_000, 14_500_000, 24_000_000), false)
                .begin(30, PID, "free", new RegionMetrics(6_000_000, 14_500_000, 24_000_000))
                .end(40, PID, new RegionMetrics(6_500_000, 12_000_000, 24_000_000), false)
                .end(50, PID, new RegionMetrics(7_000_000, 12_000_000, 24_000_000), false);
        Run r = Run.of(
                dir,
                opts(false, false, false, 65535, List.of(Component.PEAK_RSS, Component.PAGE_RSS, Component.CPU_CLOCK)),
                ev.list,
                100,
                PID);
        JsonNode page = graph(r, "page_rss", PID);
        assertEquals(2_000_000, page.get(0).get("entry").get("value").asLong());
        assertEquals(4_500_000, page.get(1).get("entry").get("value").asLong());
        assertEquals(-2_500_000, page.get(2).get("entry").get("value").asLong());
        assertEquals(4.5, page.get(1).get("entry").get("repr_data").asDouble());
        JsonNode peak = graph(r, "peak_rss", PID);
        assertEquals(4_000_000, peak.get(0).get("entry").get("value").asLong());
        assertEquals(0, peak.get(2).get("entry").get("value").asLong());
        JsonNode cpu = graph(r, "cpu_clock", PID);
        assertEquals(6_000_000, cpu.get(0).get("entry").get("value").asLong());
        assertEquals(500_000, cpu.get(2).get("entry").get("value").asLong());

        String txt = r.text("page_rss-900.txt");
        assertTrue(txt.contains("AMOUNT OF MEMORY ALLOCATED IN PAGES OF MEMORY. UNLIKE PEAK_RSS, VALUE WILL"), txt);
        assertTrue(txt.contains("| |0>>> |_alloc | "), txt);
        assertTrue(
                txt.contains("| page_rss | MB     |  4.500 |  4.500 |  4.500 |  4.500 |  0.000 |  0.000 |  100.0 |"),
                txt);
        assertTrue(txt.contains("| -2.500 |"), txt);
        assertTrue(r.json("peak_rss-900.json")
                .get("timemory")
                .get("peak_rss")
                .get("properties")
                .get("ids")
                .toString()
                .equals("[\"memory_hwm\",\"peak_rss\"]"));
        assertEquals(
                "MB",
                r.json("peak_rss-900.json")
                        .get("timemory")
                        .get("peak_rss")
                        .get("unit_repr")
                        .asText());
        assertEquals(
                1_000_000,
                r.json("peak_rss-900.json")
                        .get("timemory")
                        .get("peak_rss")
                        .get("unit_value")
                        .asLong());
    }

    private static org.rocprofsys.core.event.RegionBegin begin(long t, int tid, String name) {
        return new org.rocprofsys.core.event.RegionBegin(
                t, PID, tid, name, org.rocprofsys.core.event.Category.USER, List.of(), RegionMetrics.NONE);
    }

    private static org.rocprofsys.core.event.RegionEnd end(long t, int tid) {
        return new org.rocprofsys.core.event.RegionEnd(
                t, PID, tid, org.rocprofsys.core.event.Category.USER, List.of(), RegionMetrics.NONE, false);
    }
}
