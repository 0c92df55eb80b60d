package org.rocprofsys.core.timemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocprofsys.core.timemory.Events.MS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.event.TraceEvent;

/**
 * Upstream's validate-timemory-json.py checks (ported in {@link TimemoryJsonValidator}) and the
 * ctest regexes of inventory §9.3, run against the writer's output for upstream-like runs.
 *
 * <p>Every event here is one the collector really produces for the program it models: the
 * program's host region (named after the executable), user-API regions, Python-hook regions,
 * threads and processes. Upstream's validations also name {@code pthread_create},
 * {@code start_thread}, {@code pthread_join} and the lock functions, which come from its pthread
 * wrappers; this agent records no pthread_create or start_thread regions (its lock regions, of
 * TRACE_THREAD_LOCKS and friends, are checked end to end by LocksIT), so their regexes are checked
 * here on the regions a real program gets instead: user regions around thread creation and in the
 * workers.
 * The same layouts (flat, collapsed threads, console output, trip counts of a recursion) are
 * covered. End to end, RunEndToEndIT checks the user-api tree and PythonEndToEndIT the
 * python-source list on real runs.
 */
class ValidateTimemoryJsonTest {
    @TempDir
    Path dir;

    static final int PID = 777;

    /**
     * What rocprof-sys-run records for {@code examples/user-api 10 4 1000} (RunEndToEndIT checks the
     * same tree on a real run): the program's host region, the user region argv[0], then
     * initialization, thread_creation (during which the 4 workers start, each pushing
     * {@code run(10) x 1000}), thread_wait, the main thread's own {@code run(10) x 1000} and
     * summarize. A worker's region nests under the main-thread region open when the worker began.
     */
    static List<List<SinkEvent>> userApiThreads() {
        Events main = Events.program(PID, "user-api")
                .begin(0, PID, "user-api", Category.HOST)
                .begin(1 * MS, PID, "./user-api")
                .region(2 * MS, 3 * MS, PID, "initialization")
                .begin(4 * MS, PID, "thread_creation");
        List<Events> workers = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            long t = 10L * k;
            int tid = PID + k;
            workers.add(new Events(PID)
                    .thread(t * MS, tid, k)
                    .region((t + 1) * MS, (200 + 10L * k) * MS, tid, "run(10) x 1000")
                    .threadEnd((201 + 10L * k) * MS, tid, false));
        }
        main.end(60 * MS, PID)
                .region(60 * MS, 260 * MS, PID, "thread_wait")
                .region(300 * MS, 400 * MS, PID, "run(10) x 1000")
                .region(401 * MS, 402 * MS, PID, "summarize")
                .end(500 * MS, PID)
                .end(501 * MS, PID, Category.HOST)
                .threadEnd(501 * MS, PID, false)
                .processEnd(502 * MS);
        List<List<SinkEvent>> out = new ArrayList<>();
        out.add(main.list);
        for (Events w : workers) {
            out.add(w.list);
        }
        return out;
    }

    static final List<String> USER_API_LABELS = List.of(
            "user-api",
            "./user-api",
            "initialization",
            "thread_creation",
            "run(10) x 1000",
            "run(10) x 1000",
            "run(10) x 1000",
            "run(10) x 1000",
            "thread_wait",
            "run(10) x 1000",
            "summarize");
    static final List<Integer> USER_API_COUNTS = List.of(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    static final List<Integer> USER_API_DEPTHS = List.of(0, 1, 2, 2, 3, 3, 3, 3, 2, 2, 2);

    /** Every thread's events in order, threads interleaved by timestamp (a stable merge). */
    static List<SinkEvent> byTime(List<List<SinkEvent>> threads) {
        List<SinkEvent> all = new ArrayList<>();
        threads.forEach(all::addAll);
        all.sort(Comparator.comparingLong(TraceEvent::timestampNs));
        return all;
    }

    /** Per-thread order kept, but whole threads one after the other (as a reader of rings may). */
    static List<SinkEvent> threadAfterThread(List<List<SinkEvent>> threads, boolean mainFirst) {
        List<SinkEvent> all = new ArrayList<>();
        List<List<SinkEvent>> order = new ArrayList<>(threads);
        List<SinkEvent> main = order.remove(0);
        // the process-level events (first and last two of the main list) stay in place
        List<SinkEvent> head = main.subList(0, 1);
        List<SinkEvent> body = main.subList(1, main.size() - 1);
        List<SinkEvent> tail = main.subList(main.size() - 1, main.size());
        all.addAll(head);
        if (mainFirst) {
            all.addAll(body);
            order.forEach(all::addAll);
        } else {
            for (int i = order.size() - 1; i >= 0; i--) {
                all.addAll(order.get(i));
            }
            all.addAll(body);
        }
        all.addAll(tail);
        return all;
    }

    @Test
    void userApiLikeRunValidates() throws Exception {
        Run r = Run.of(dir, TimemoryOptions.defaults(), byTime(userApiThreads()), 600 * MS, PID);
        TimemoryJsonValidator.Result res = TimemoryJsonValidator.validate(
                r.file("wall_clock-777.json"), "wall_clock", USER_API_LABELS, USER_API_COUNTS, USER_API_DEPTHS);
        assertTrue(res.ok(), res.message());
        assertEquals(r.file("wall_clock-777.json") + " validated", res.message());
    }

    @Test
    void theValidatorCanFail() throws Exception {
        Run r = Run.of(dir, TimemoryOptions.defaults(), byTime(userApiThreads()), 600 * MS, PID);
        List<Integer> counts = new ArrayList<>(USER_API_COUNTS);
        counts.set(4, 4);
        TimemoryJsonValidator.Result res = TimemoryJsonValidator.validate(
                r.file("wall_clock-777.json"), "wall_clock", USER_API_LABELS, counts, USER_API_DEPTHS);
        assertFalse(res.ok());
        assertEquals("Mismatched count for     |_run(10) x 1000: 1 vs. 4", res.message());
        List<String> labels = new ArrayList<>(USER_API_LABELS);
        labels.set(2, "init");
        res = TimemoryJsonValidator.validate(
                r.file("wall_clock-777.json"), "wall_clock", labels, USER_API_COUNTS, USER_API_DEPTHS);
        assertEquals("Mismatched prefix:   |_initialization vs.   |_init", res.message());
        List<Integer> depths = new ArrayList<>(USER_API_DEPTHS);
        depths.set(4, 2);
        assertFalse(TimemoryJsonValidator.validate(
                        r.file("wall_clock-777.json"), "wall_clock", USER_API_LABELS, USER_API_COUNTS, depths)
                .ok());
    }

    @Test
    void arrivalOrderOfThreadsDoesNotChangeTheProfile() throws Exception {
        Run a = Run.of(dir.resolve("a"), TimemoryOptions.defaults(), byTime(userApiThreads()), 600 * MS, PID);
        Run b = Run.of(
                dir.resolve("b"), TimemoryOptions.defaults(), threadAfterThread(userApiThreads(), true), 600 * MS, PID);
        Run c = Run.of(
                dir.resolve("c"),
                TimemoryOptions.defaults(),
                threadAfterThread(userApiThreads(), false),
                600 * MS,
                PID);
        String text = a.text("wall_clock-777.txt");
        assertEquals(text, b.text("wall_clock-777.txt"));
        assertEquals(text, c.text("wall_clock-777.txt"));
        assertEquals(a.text("wall_clock-777.json"), b.text("wall_clock-777.json"));
        assertEquals(a.text("wall_clock-777.json"), c.text("wall_clock-777.json"));
    }

    @Test
    void fourThreadsOfUserRegionsOnTheConsole() throws Exception {
        // the shape of rocprof-sys-pthread-tests.cmake's regexes ("wall_clock .*\|_pthread_create .* 4 .*"
        // then, per thread, each lock function 1000 times) on the regions this agent records
        Run r = Run.of(dir, coutOptions(false, false), byTime(locks()), 10_000 * MS, PID);
        String out = r.stdout;
        Pattern p = Pattern.compile(
                "wall_clock .*\\|_thread_creation .* 1 .*"
                        + ("\\|_lock_step .* 1000 .*\\|_unlock_step .* 1000 .*").repeat(4),
                Pattern.DOTALL);
        assertTrue(p.matcher(out).find(), out);
    }

    @Test
    void flatCollapsedUserRegionsRegex() throws Exception {
        // the shape of parallel-overhead-locks-timemory's _flat regex (FLAT, COLLAPSE, COUT), user regions:
        // "start_thread (.*) 4 (.*) ... (.*) 4000", with the workers' own run region for start_thread
        Run r = Run.of(dir, coutOptions(true, true), byTime(locks()), 10_000 * MS, PID);
        String out = r.stdout;
        assertTrue(
                Pattern.compile("run (.*) 4 (.*) lock_step (.*) 4000 (.*) " + "unlock_step (.*) 4000", Pattern.DOTALL)
                        .matcher(out)
                        .find(),
                out);
        assertCollapsedLocks(r, List.of(0, 0, 0, 0, 0));
        assertTrue(out.contains("| >>> app "), out);
    }

    @Test
    void flatWithoutCollapseKeepsOneEntryPerThread() throws Exception {
        Run r = Run.of(dir, coutOptions(true, false), byTime(locks()), 10_000 * MS, PID);
        List<String> labels = new ArrayList<>(List.of("app", "thread_creation"));
        List<Integer> counts = new ArrayList<>(List.of(1, 1));
        for (int k = 0; k < 4; k++) {
            labels.addAll(List.of("run", "lock_step", "unlock_step"));
            counts.addAll(List.of(1, 1000, 1000));
        }
        List<Integer> depths = new ArrayList<>();
        labels.forEach(l -> depths.add(0));
        TimemoryJsonValidator.Result res =
                TimemoryJsonValidator.validate(r.file("wall_clock-777.json"), "wall_clock", labels, counts, depths);
        assertTrue(res.ok(), res.message());
        String txt = r.text("wall_clock-777.txt");
        assertTrue(txt.contains("| |1>>> run "), txt);
        assertTrue(txt.contains("| |4>>> unlock_step "), txt);
    }

    @Test
    void collapsedThreadsMergeIdenticalPaths() throws Exception {
        Run r = Run.of(dir, coutOptions(false, true), byTime(locks()), 10_000 * MS, PID);
        assertCollapsedLocks(r, List.of(0, 1, 2, 3, 3));
        assertTrue(r.stdout.contains("| >>>     |_lock_step "), r.stdout);
        assertEquals(
                5,
                r.json("wall_clock-777.json")
                        .get("timemory")
                        .get("wall_clock")
                        .get("ranks")
                        .get(0)
                        .get("graph_size")
                        .asInt());
    }

    @Test
    void traceTimeWindow() throws Exception {
        // rocprof-sys-time-window-tests.cmake: only what falls in the window reaches the sink
        Events ev = Events.program(PID, "trace-time-window")
                .begin(0, PID, "trace-time-window")
                .region(100 * MS, 600 * MS, PID, "outer_a")
                .region(600 * MS, 1100 * MS, PID, "outer_b")
                .region(1100 * MS, 1600 * MS, PID, "outer_c")
                .end(1250 * MS + 1700 * MS, PID)
                .processEnd(3000 * MS);
        Run r = Run.of(dir, TimemoryOptions.defaults(), ev.list, 3000 * MS, PID);
        TimemoryJsonValidator.Result res = TimemoryJsonValidator.validate(
                r.file("wall_clock-777.json"),
                "wall_clock",
                List.of("trace-time-window", "outer_a", "outer_b", "outer_c"),
                List.of(1, 1, 1, 1),
                List.of(0, 1, 1, 1));
        assertTrue(res.ok(), res.message());
        assertFalse(Files.readString(r.file("wall_clock-777.txt")).contains("outer_d"));
        assertFalse(r.log.contains("unknown-hash="));
    }

    @Test
    void recursionTripCountsValidate() throws Exception {
        // upstream's python-source check as the Python hooks record examples/python/source.py -v 5
        // -n 5 -s 3: the user region main_loop around each iteration, python regions run > fib
        // recursion and inefficient > _sum in the first 3 (PythonEndToEndIT: the same list, real run)
        Events ev = Events.program(PID, "python3");
        long[] t = {0};
        for (int i = 0; i < 5; i++) {
            ev.begin(t[0]++, PID, "main_loop");
            if (i < 3) {
                ev.begin(t[0]++, PID, "run", Category.PYTHON);
                fib(ev, t, 5);
                ev.begin(t[0]++, PID, "inefficient", Category.PYTHON)
                        .begin(t[0]++, PID, "_sum", Category.PYTHON)
                        .end(t[0]++, PID, Category.PYTHON)
                        .end(t[0]++, PID, Category.PYTHON);
                ev.end(t[0]++, PID, Category.PYTHON);
            }
            ev.end(t[0]++, PID);
        }
        ev.processEnd(t[0]);
        TimemoryOptions o =
                TimemoryOptions.defaults().withComponents(List.of(Component.WALL_CLOCK, Component.TRIP_COUNT));
        Run r = Run.of(dir, o, ev.list, t[0] + 1, PID);
        List<Integer> depth = List.of(0, 1, 2, 3, 4, 5, 6, 2, 3);
        List<String> labels = List.of("main_loop", "run", "fib", "fib", "fib", "fib", "fib", "inefficient", "_sum");
        // with a fib(n) that calls fib(n-1) and fib(n-2) the laps per level are fixed by the recursion
        TimemoryJsonValidator.Result res = TimemoryJsonValidator.validate(
                r.file("trip_count-777.json"), "trip_count", labels, List.of(5, 3, 3, 6, 12, 18, 6, 3, 3), depth);
        assertTrue(res.ok(), res.message());
    }

    private static void fib(Events ev, long[] t, int n) {
        ev.begin(t[0]++, PID, "fib", Category.PYTHON);
        if (n >= 2) {
            fib(ev, t, n - 1);
            fib(ev, t, n - 2);
        }
        ev.end(t[0]++, PID, Category.PYTHON);
    }

    /**
     * Upstream's parallel-overhead-locks shape on what this agent records: the program's host
     * region "app"; on the main thread the user region thread_creation around starting 4 workers;
     * each worker pushes run, then 1000 x (lock_step, unlock_step) user regions.
     */
    /** The locks program's wall_clock JSON with the four workers' entries collapsed, at {@code depths}. */
    static void assertCollapsedLocks(Run r, List<Integer> depths) throws Exception {
        TimemoryJsonValidator.Result res = TimemoryJsonValidator.validate(
                r.file("wall_clock-777.json"),
                "wall_clock",
                List.of("app", "thread_creation", "run", "lock_step", "unlock_step"),
                List.of(1, 1, 4, 4000, 4000),
                depths);
        assertTrue(res.ok(), res.message());
    }

    static List<List<SinkEvent>> locks() {
        Events main =
                Events.program(PID, "app").begin(0, PID, "app", Category.HOST).begin(5 * MS, PID, "thread_creation");
        List<List<SinkEvent>> out = new ArrayList<>();
        List<Events> workers = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            long t0 = k * 10 * MS;
            int tid = PID + k;
            Events w = new Events(PID).thread(t0 + 1, tid, k).begin(t0 + 2, tid, "run");
            long t = 100 * MS + k;
            for (int i = 0; i < 1000; i++) {
                w.region(t, t + 1000, tid, "lock_step");
                w.region(t + 2000, t + 3000, tid, "unlock_step");
                t += 10_000;
            }
            w.end(t, tid).threadEnd(t + 1, tid, false);
            workers.add(w);
        }
        main.end(60 * MS, PID).end(9000 * MS, PID, Category.HOST).processEnd(9001 * MS);
        out.add(main.list);
        workers.forEach(w -> out.add(w.list));
        return out;
    }

    private static TimemoryOptions coutOptions(boolean flat, boolean collapse) {
        return TimemoryOptions.defaults()
                .withComponents(List.of(Component.WALL_CLOCK, Component.TRIP_COUNT))
                .withProfile(new TimemoryOptions.Profile(flat, false, collapse, 65535))
                .withOutputs(new TimemoryOptions.Outputs(true, true, true, true, true));
    }
}
