package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.ThreadEnded;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.launch.Session;
import org.rocprofsys.core.spi.WireException;

/**
 * The agent's binary instrumentation, end to end without the Java planner: test programs built
 * from agent/src/test/c/instr (a module rewritten by hand, with its area and PT_NOTE in assembly;
 * a C++ program that writes a runtime plan for itself and a library it dlopens, and dlopens a
 * library rewritten by hand) run with the real librocprof-sys.so
 * preloaded; their ring files are read with {@link RingFile} and {@link RingDrain}, FUNC_DEFs
 * naming FUNC_ENTER regions through one {@link FunctionNames} per file. Every scenario checks
 * that each instrumented function has exactly as many regions as the program counted calls, and
 * that regions nest: every thread closes all it opened (longjmp, tail calls, exceptions included).
 */
class InstrumentAgentTest {
    @TempDir
    static Path build;

    private static Path agent;
    private static Path rewriteTest;
    private static Path runtimeTest;

    @TempDir
    Path session;

    private boolean analyze = true;

    @BeforeAll
    static void buildTests() throws Exception {
        AgentMake.build(build, "instr-tests");
        agent = build.resolve("librocprof-sys.so");
        rewriteTest = build.resolve("instr_rewrite_test");
        runtimeTest = build.resolve("instr_runtime_test");
    }

    // ---------------------------------------------------------------------------------------------
    // rewrite mode (PT_NOTE)

    @ParameterizedTest
    @ValueSource(strings = {"basic", "tail", "longjmp", "threads", "texit", "vectors", "env"})
    void rewrittenModuleRecordsEveryCall(String scenario) throws Exception {
        Run r = run(true, Map.of(), rewriteTest.toString(), scenario);
        Image image = r.single();
        assertEquals(8, image.names.size(), "one FUNC_DEF per function of the area");
        image.assertCalls(r.out, "");
        if (scenario.equals("tail")) {
            // the tail-called rw_leaf ends inside rw_tail; the user API's unmatched pop inside
            // rw_call is ignored
            String tree = tree(image.threads.get(image.pid));
            assertTrue(tree.contains("rw_tail(rw_leaf),rw_call(rw_leaf)"), tree);
        }
        if (scenario.equals("env")) {
            assertEquals("from-area", r.out.get("env"), "the area's --env default, not set before");
        }
        if (scenario.equals("threads")) {
            assertEquals(5, image.threads.size(), "main + 4 workers");
            for (Map.Entry<Integer, List<TraceEvent>> t : image.threads.entrySet()) {
                if (t.getKey() != image.pid) {
                    Map<String, Integer> c = count(t.getValue());
                    assertEquals(1000, c.getOrDefault("rw_leaf", 0), "worker " + t.getKey());
                    assertEquals(101, c.getOrDefault("rw_recurse", 0), "worker " + t.getKey());
                }
            }
        }
    }

    /**
     * Instrumented calls from a signal handler while the main loop writes user regions (1000
     * signals into a loop that is inside a record write a third of the time): every region is
     * kept, the ring reads back whole and nested, and at most one rw_leaf per handler call. A call
     * that lands between a write's claim and its publish is not hooked (its record would take the
     * claimed bytes); that window is a few instructions and what a race there breaks is visible to
     * a collector reading the ring live, so this test does not single it out.
     */
    @Test
    void signalHandlersInterruptingARecordWrite() throws Exception {
        Run r = run(true, Map.of(WireFormat.ENV_RING_KB, "131072"), rewriteTest.toString(), "sigregions");
        Image image = r.single();
        Map<String, Integer> got = image.functionCounts();
        assertEquals(Integer.parseInt(r.out.get("calls.sig_region")), got.get("sig_region"), got.toString());
        int handlerCalls = Integer.parseInt(r.out.get("handler_calls"));
        int leaf = got.getOrDefault("rw_leaf", 0);
        assertTrue(handlerCalls > 0 && leaf <= handlerCalls, "rw_leaf " + leaf + " of " + handlerCalls);
    }

    /**
     * A leaf call is one FUNC_CALL record, the FUNC_ENTER left unpublished until its exit; killed
     * inside rw_call, which calls nothing instrumented, the process leaves that FUNC_ENTER unpublished,
     * and {@link RingDrain#recoverUnpublished} finds it through the ring header.
     */
    @Test
    void leafCallsAreOneRecordAndTheCallAKilledProcessWasInIsRecovered() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(rewriteTest.toString(), "killed");
        pb.environment().put("LD_PRELOAD", agent.toString());
        pb.environment().remove(WireFormat.ENV_INSTRUMENT_PLAN);
        pb.environment().put(WireFormat.ENV_SESSION_DIR, session.toString());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out");
        assertEquals(128 + 9, p.exitValue(), "killed by SIGKILL: " + out);
        assertTrue(out.contains("calls.rw_call=1"), out);
        Path file;
        try (Stream<Path> files = Files.list(session)) {
            file = files.filter(x -> x.toString().endsWith(".ring")).findFirst().orElseThrow();
        }
        try (RingFile f = RingFile.open(file)) {
            assertNotNull(f);
            RingFile.Ring ring = f.rings().getFirst();
            if (f.clockKind() == WireFormat.CLOCK_TSC) {
                // basic(): the rw_lea x2 and rw_recurse's innermost level; rw_leaf, the thread's
                // first call, takes the general path (it maps the shadow stack), which publishes at
                // once; rw_call's FUNC_ENTER lies beyond head
                Map<Integer, Integer> types = recordTypes(ring);
                assertEquals(3, types.getOrDefault(WireFormat.REC_FUNC_CALL, 0), "leaf calls: " + types);
                assertEquals(4, types.getOrDefault(WireFormat.REC_FUNC_ENTER, 0), "rw_leaf, rw_recurse x3: " + types);
                assertEquals(4, types.getOrDefault(WireFormat.REC_FUNC_EXIT, 0), types.toString());
            }
            List<TraceEvent> events = new ArrayList<>();
            RingDrain d = new RingDrain(f.pid(), ring, RegionRun.expanding(events::add), new FunctionNames(f));
            d.drain();
            d.flushPending();
            assertEquals(0, count(events).getOrDefault("rw_call", 0), "rw_call's FUNC_ENTER is not published");
            d.recoverUnpublished();
            d.flushPending();
            Map<String, Integer> expected = Map.of("rw_leaf", 1, "rw_lea", 2, "rw_recurse", 4, "rw_call", 1);
            assertEquals(expected, count(events));
            assertTrue(
                    events.getLast() instanceof RegionBegin b && b.name().equals("rw_call"),
                    events.getLast()::toString);
            int size = events.size();
            d.recoverUnpublished();
            d.flushPending();
            assertEquals(size, events.size(), "recovered once");
        }
    }

    /** Record types and how many of each, from the start of a ring that has not wrapped. */
    private static Map<Integer, Integer> recordTypes(RingFile.Ring ring) {
        Map<Integer, Integer> types = new TreeMap<>();
        long head = ring.head();
        assertTrue(head <= ring.mask() + 1, "the ring has not wrapped");
        for (long pos = 0; pos < head; ) {
            long header = ring.data().get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, pos);
            types.merge((int) header & 0xffff, 1, Integer::sum);
            pos += (header >>> 16) & 0xffff;
        }
        return types;
    }

    /** Threads that find no ring: their calls are not hooked, and counted as unringed drops. */
    @Test
    void threadsWithoutARing() throws Exception {
        Run r = run(true, Map.of(WireFormat.ENV_MAX_THREADS, "2"), rewriteTest.toString(), "threads");
        Image image = r.single();
        assertEquals(2, image.threads.size(), "main and one worker have a ring");
        assertTrue(image.unringed >= 3 * 2 * 1101, "3 workers x 1101 calls x 2 records: " + image.unringed);
        Map<String, Integer> c = image.functionCounts();
        assertEquals(1000 + 1, c.get("rw_leaf"), "one worker's and main's");
        assertEquals(101 + 4, c.get("rw_recurse"));
    }

    /**
     * ROCPROFSYS_RING_BUFFER_MAX_THREADS as a run hands it to the agent ({@link Session#ringEnvironment}):
     * with the default every one of the 5 threads has a ring; with fewer slots than the 5 threads
     * alive at once (the workers wait for each other) only the first threads do, and the others'
     * calls are counted as unringed drops.
     */
    @ParameterizedTest(name = "RING_BUFFER_MAX_THREADS=''{0}''")
    @CsvSource({"'', 5", "2, 2", "3, 3"})
    void ringBufferMaxThreadsBoundsTheThreadsWithARing(String maxThreads, int rings) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", build.toString());
        if (!maxThreads.isEmpty()) {
            env.put("ROCPROFSYS_RING_BUFFER_MAX_THREADS", maxThreads);
        }
        Settings settings = new SettingsLoader(SettingsRegistry.standard(), env, build).load();
        Run r = run(true, Session.ringEnvironment(settings), rewriteTest.toString(), "threads");
        Image image = r.single();
        assertEquals(rings, image.threads.size(), "threads with a ring");
        if (rings == 5) {
            assertEquals(0, image.unringed, "every thread found a ring");
        } else {
            assertTrue(image.unringed >= (5 - rings) * 2 * 1101, "unringed drops: " + image.unringed);
        }
    }

    /** Instrumented calls from a signal handler on an alternate stack, while the main loop calls. */
    @Test
    void signalHandlersOnAnAlternateStack() throws Exception {
        Run r = run(true, Map.of(WireFormat.ENV_RING_KB, "65536"), rewriteTest.toString(), "signals");
        Image image = r.single();
        Map<String, Integer> got = image.functionCounts();
        assertEquals(Integer.parseInt(r.out.get("calls.rw_recurse")), got.get("rw_recurse"));
        assertEquals(Integer.parseInt(r.out.get("calls.rw_tail")), got.get("rw_tail"));
        int handlerCalls = Integer.parseInt(r.out.get("handler_calls"));
        int leaf = got.get("rw_leaf") - Integer.parseInt(r.out.get("calls.rw_leaf"));
        // a call that interrupted a hook is not recorded; the main loop spends most time outside them
        assertTrue(
                handlerCalls > 0 && leaf >= 0 && leaf <= handlerCalls && (handlerCalls < 20 || leaf > 0),
                "the handler's rw_leaf: " + leaf + " recorded of " + handlerCalls);
    }

    @Test
    void deepRecursion() throws Exception {
        Run r = run(true, Map.of(), rewriteTest.toString(), "recurse", "10000");
        Image image = r.single();
        image.assertCalls(r.out, "");
        assertEquals(10001 + 1, image.maxDepth, "main region + 10001 nested rw_recurse");
    }

    /** Deeper than the shadow stack: the calls beyond it are neither hooked nor recorded, and counted. */
    @Test
    void recursionDeeperThanTheShadowStack() throws Exception {
        Run r = run(true, Map.of(WireFormat.ENV_RING_KB, "16384"), rewriteTest.toString(), "recurse", "70000");
        Image image = r.single();
        assertEquals(Map.of("rw_recurse", 65536), image.functionCounts());
        assertEquals(65536 + 1, image.maxDepth);
        assertTrue(r.err.contains("4465 calls of instrumented functions not recorded: the shadow stack (65536"), r.err);
    }

    @Test
    void forkChildHasItsOwnDefinitions() throws Exception {
        Run r = run(true, Map.of(), rewriteTest.toString(), "fork");
        assertEquals(2, r.images.size(), "parent and child files");
        int childPid = Integer.parseInt(r.out.get("child.pid"));
        Image child = r.images.get(childPid);
        assertNotNull(child, "child file");
        assertTrue(child.forkedFrom != 0);
        assertEquals(8, child.names.size(), "FUNC_DEFs emitted again into the child's file");
        child.assertCalls(r.out, "child.");
        Image parent = r.images.values().stream()
                .filter(i -> i.pid != childPid)
                .findFirst()
                .orElseThrow();
        parent.assertCalls(r.out, "");
    }

    @Test
    void withoutTheAgentOrDormantTheRewrittenProgramRunsAsBefore() throws Exception {
        for (boolean preload : new boolean[] {false, true}) {
            ProcessBuilder pb = new ProcessBuilder(rewriteTest.toString(), "basic");
            pb.environment().remove(WireFormat.ENV_SESSION_DIR);
            if (preload) {
                pb.environment().put("LD_PRELOAD", agent.toString());
            }
            Process p = pb.redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("calls.rw_lea=2"), out);
        }
    }

    /** Prints the cost of an instrumented call (entry and exit recorded) next to the plain call. */
    @Test
    void benchmarkRuns() throws Exception {
        analyze = false; // the benchmark consumes its own ring: FUNC_DEFs included
        Run r = run(true, Map.of(), rewriteTest.toString(), "bench", "300000");
        assertEquals("self", r.out.get("bench.collector"));
        assertEquals("0", r.out.get("bench.dropped"));
        System.out.println("instrumented call: plain " + r.out.get("bench.plain_ns") + " ns, instrumented "
                + r.out.get("bench.instrumented_ns") + " ns, added " + r.out.get("bench.added_ns") + " ns, ratio "
                + r.out.get("bench.ratio"));
    }

    // ---------------------------------------------------------------------------------------------
    // runtime mode (plan file)

    @ParameterizedTest
    @ValueSource(strings = {"basic", "exceptions", "threads", "dlopen"})
    void runtimePlanIsAppliedBeforeMain(String scenario) throws Exception {
        Path plan = gen(false);
        Run r = run(true, Map.of(WireFormat.ENV_INSTRUMENT_PLAN, plan.toString()), runtimeTest.toString(), scenario);
        assertFalse(r.err.contains("rocprof-sys: instrument"), r.err);
        Image image = r.single();
        // the executable's 9; after dlopen the planned library's one and the rewritten library's one
        assertEquals(scenario.equals("dlopen") ? 11 : 9, image.names.size());
        image.assertCalls(r.out, "");
        if (scenario.equals("exceptions") || scenario.equals("threads")) {
            // exits of unwound frames are recorded as the unwinder passes them: each destructor's
            // leaf() nests under the frame it cleans up
            String tree = tree(image.threads.get(image.pid));
            String catcher = "catcher(middle(" + throwers(5) + ",leaf))";
            assertTrue(tree.contains(catcher + "," + catcher), tree);
            String rethrow = "outer(rethrower(middle(" + throwers(3) + ",leaf),leaf))";
            assertTrue(tree.contains(rethrow), tree);
            String nested = "with_nested(" + throwers(4) + "," + throwers(2) + ",leaf)";
            assertTrue(tree.contains(nested), tree);
        }
    }

    /** thrower(n) as a tree: thrower(0) has its guard's leaf, each one above its own after. */
    private static String throwers(int n) {
        String t = "thrower(leaf)";
        for (int k = 1; k <= n; k++) {
            t = "thrower(" + t + ",leaf)";
        }
        return t;
    }

    /** A thread's regions as name(children,...). */
    private static String tree(List<TraceEvent> events) {
        StringBuilder b = new StringBuilder();
        Deque<Boolean> hasChild = new ArrayDeque<>();
        for (TraceEvent e : events) {
            if (e instanceof RegionBegin rb) {
                if (!hasChild.isEmpty()) {
                    if (hasChild.peek()) {
                        b.append(',');
                    } else {
                        b.append('(');
                    }
                    hasChild.pop();
                    hasChild.push(true);
                }
                b.append(rb.name());
                hasChild.push(false);
            } else if (e instanceof RegionEnd) {
                if (hasChild.pop()) {
                    b.append(')');
                }
            }
        }
        return b.toString();
    }

    @Test
    void aBadPlanLeavesTheModuleAloneWithAMessage() throws Exception {
        Path plan = gen(true);
        Run r = run(
                true, Map.of(WireFormat.ENV_INSTRUMENT_PLAN, plan.toString()), runtimeTest.toString(), "exceptions");
        assertTrue(
                r.err.contains("rocprof-sys: instrument: ")
                        && r.err.contains("instr_runtime_test")
                        && r.err.contains("left uninstrumented"),
                r.err);
        Image image = r.single();
        assertEquals(0, image.names.size());
        assertEquals(Map.of(), image.functionCounts());

        Run missing = run(
                true,
                Map.of(
                        WireFormat.ENV_INSTRUMENT_PLAN,
                        session.resolve("no-such-plan").toString()),
                runtimeTest.toString(),
                "basic");
        assertTrue(missing.err.contains("cannot read the plan"), missing.err);
    }

    @Test
    void aPlanWithoutSessionIsNotApplied() throws Exception {
        Path plan = gen(false);
        Run r = run(
                false, Map.of(WireFormat.ENV_INSTRUMENT_PLAN, plan.toString()), runtimeTest.toString(), "exceptions");
        assertTrue(r.images.isEmpty());
        assertTrue(r.out.get("calls.leaf") != null);
    }

    // ---------------------------------------------------------------------------------------------

    private Path gen(boolean bad) throws Exception {
        Path plan = Files.createTempFile(build, "plan", bad ? ".bad" : ".bin");
        List<String> cmd = new ArrayList<>(List.of(runtimeTest.toString(), "--gen", plan.toString()));
        if (bad) {
            cmd.add("bad");
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "plan generation failed: " + out);
        return plan;
    }

    private record Run(Map<String, String> out, String err, Map<Integer, Image> images) {
        Image single() {
            assertEquals(1, images.size(), "one process image: " + images.keySet());
            return images.values().iterator().next();
        }
    }

    private Run run(boolean withSession, Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("LD_PRELOAD", agent.toString());
        pb.environment().remove(WireFormat.ENV_INSTRUMENT_PLAN);
        if (withSession) {
            pb.environment().put(WireFormat.ENV_SESSION_DIR, session.toString());
        } else {
            pb.environment().remove(WireFormat.ENV_SESSION_DIR);
        }
        pb.environment().remove("RSYS_TEST_ENV_DEFAULT");
        pb.environment().putAll(env);
        Path errFile = Files.createTempFile(build, "stderr", ".txt");
        pb.redirectError(errFile.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out");
        String err = Files.readString(errFile);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " failed:\n" + out + err);
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                kv.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        Map<Integer, Image> images = new TreeMap<>();
        try (Stream<Path> files = Files.list(session)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".ring")).toList()) {
                if (analyze) {
                    Image i = read(f);
                    images.put(i.pid, i);
                }
                Files.delete(f);
            }
        }
        return new Run(kv, err, images);
    }

    private static final class Image {
        int pid;
        int forkedFrom;
        FunctionNames names;
        final Map<Integer, List<TraceEvent>> threads = new LinkedHashMap<>();
        int maxDepth;
        long unringed;

        Map<String, Integer> functionCounts() {
            Map<String, Integer> all = new TreeMap<>();
            for (List<TraceEvent> events : threads.values()) {
                count(events).forEach((k, v) -> all.merge(k, v, Integer::sum));
            }
            return all;
        }

        /** Regions per function name equal the calls.<name> lines (prefix: "child." for the child). */
        void assertCalls(Map<String, String> out, String prefix) {
            Map<String, Integer> expected = new TreeMap<>();
            out.forEach((k, v) -> {
                if (k.startsWith(prefix + "calls.") && !(prefix.isEmpty() && k.startsWith("child."))) {
                    int n = Integer.parseInt(v);
                    if (n != 0) {
                        expected.put(k.substring(prefix.length() + "calls.".length()), n);
                    }
                }
            });
            assertFalse(expected.isEmpty(), "the program printed its calls");
            assertEquals(expected, functionCounts(), "regions per instrumented function, pid " + pid);
        }
    }

    private static Map<String, Integer> count(List<TraceEvent> events) {
        Map<String, Integer> c = new HashMap<>();
        for (TraceEvent e : events) {
            if (e instanceof RegionBegin b && !b.name().startsWith("instr_")) {
                c.merge(b.name(), 1, Integer::sum);
            }
        }
        return c;
    }

    private static Image read(Path path) throws IOException, WireException {
        Image image = new Image();
        try (RingFile f = RingFile.open(path)) {
            assertNotNull(f, path + ": header not published");
            assertEquals(WireFormat.STATE_EXITED, f.state(), path + ": exited");
            image.pid = f.pid();
            image.forkedFrom = f.forkedFrom();
            image.unringed = f.unringedDrops();
            image.names = new FunctionNames(f);
            // the last ring first: FUNC_ENTERs of other threads come before the main thread's
            // FUNC_DEFs are drained, so their names are found by looking through the file
            for (RingFile.Ring ring : f.rings().reversed()) {
                List<TraceEvent> events = new ArrayList<>();
                RingDrain d = new RingDrain(f.pid(), ring, RegionRun.expanding(events::add), image.names);
                d.drain();
                d.flushPending();
                assertEquals(0, ring.dropped(), "no record dropped");
                image.threads.put(ring.tid(), events);
                // regions nest and every one is closed before the thread ends
                Deque<String> open = new ArrayDeque<>();
                long last = 0;
                for (TraceEvent e : events) {
                    assertTrue(e.timestampNs() >= last, "time goes forward");
                    last = e.timestampNs();
                    if (e instanceof RegionBegin b) {
                        // instrumented functions are host regions; "sigregions" pushes user ones
                        assertEquals(
                                b.name().equals("sig_region") ? Category.USER : Category.HOST, b.category(), b.name());
                        assertFalse(b.name().startsWith("function#"), "every id named by a FUNC_DEF: " + b.name());
                        open.push(b.name());
                        image.maxDepth = Math.max(image.maxDepth, open.size());
                    } else if (e instanceof RegionEnd) {
                        assertFalse(open.isEmpty(), "an END without a BEGIN on tid " + ring.tid());
                        open.pop();
                    } else if (e instanceof ThreadEnded) {
                        assertTrue(open.isEmpty(), "regions left open on tid " + ring.tid() + ": " + open);
                    }
                }
                assertTrue(open.isEmpty(), "regions left open on tid " + ring.tid() + ": " + open);
            }
        }
        return image;
    }
}
