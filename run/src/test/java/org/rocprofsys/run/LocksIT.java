package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ResourceFiles;
import org.rocprofsys.tracetest.DecodedTrace;

/**
 * pthread lock tracing (issue 38, item 3; upstream's TRACE_THREAD_LOCKS, _RW_LOCKS, _SPIN_LOCKS
 * and its {@code parallel-overhead-locks} expectation of 1000 lock and 1000 unlock regions per
 * thread): {@code locks.c} makes a known number of lock calls on each of its threads. Each family
 * switched on gives exactly one {@code pthread} region per call on the calling thread's track and
 * in the profile; a family left off gives none and is not even interposed (the program's own
 * address of {@code pthread_mutex_lock} stays libc's).
 */
class LocksIT extends DistributionTest {
    private static final int PAIRS = 1000;

    private Path program() throws Exception {
        Path source = ResourceFiles.copy(LocksIT.class, "/threading/locks.c", cwd.resolve("locks.c"));
        return NativeCompiler.c().compile(source, cwd.resolve("locks"), "-O2", "-pthread", "-ldl");
    }

    private ProcessResult run(String name, String options, int threads, String... extra) throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment(name, concat(extra, "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON")),
                argv(options + " --", program().toString(), Integer.toString(threads), Integer.toString(PAIRS)));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("mutex=" + threads * PAIRS + " trylock=" + threads), r::toString);
        return r;
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void eachMutexCallIsARegionOnItsThread() throws Exception {
        for (int threads : List.of(2, 4)) {
            String name = "mutex-" + threads;
            ProcessResult r = run(name, "-I mutex-locks", threads);
            assertTrue(r.stdout().contains("pthread_mutex_lock in librocprof-sys.so"), r::toString);

            Map<String, Long> perThread = new TreeMap<>(Map.of(
                    "pthread_mutex_lock",
                    (long) PAIRS,
                    "pthread_mutex_trylock",
                    1L,
                    "pthread_mutex_unlock",
                    (long) PAIRS + 1));
            Map<String, Map<String, Long>> counts = ThreadTracks.counts(
                    DecodedTrace.read(outputRoot().resolve(name + "/perfetto-trace.proto")), "pthread");
            for (int t = 1; t <= threads; t++) {
                assertEquals(perThread, counts.get("Thread " + t), () -> "Thread: " + counts);
            }
            // the main thread locked nothing of its own: only its joins
            assertEquals(Map.of("pthread_join", (long) threads), counts.get("locks"), counts::toString);

            // the profile: per thread, the same counts (upstream's "|_pthread_mutex_lock ... 1000")
            List<JsonNode> graph = ProfileGraph.graph(outputRoot().resolve(name + "/wall_clock.json"), "wall_clock");
            for (String region : List.of("pthread_mutex_lock", "pthread_mutex_unlock")) {
                List<Long> laps = graph.stream()
                        .filter(e -> ProfileGraph.label(e).equals(region))
                        .map(e -> e.get("entry").get("laps").asLong())
                        .toList();
                assertEquals(threads, laps.size(), ProfileGraph.shown(graph));
                long expected = region.endsWith("unlock") ? PAIRS + 1 : PAIRS;
                assertTrue(laps.stream().allMatch(l -> l == expected), () -> region + " " + laps);
            }
            assertTrue(graph.stream().noneMatch(e -> ProfileGraph.label(e).startsWith("pthread_rwlock")));
        }
    }

    @Test
    void rwAndSpinLocksOnlyWhenAskedFor() throws Exception {
        run("rw-spin", "-I rw-locks spin-locks", 3);
        Map<String, Map<String, Long>> counts =
                ThreadTracks.counts(DecodedTrace.read(outputRoot().resolve("rw-spin/perfetto-trace.proto")), "pthread");
        Map<String, Long> perThread = new TreeMap<>(Map.of(
                "pthread_rwlock_rdlock", (long) PAIRS,
                "pthread_rwlock_wrlock", (long) PAIRS,
                "pthread_rwlock_unlock", 2L * PAIRS,
                "pthread_spin_lock", (long) PAIRS,
                "pthread_spin_unlock", (long) PAIRS));
        for (int t = 1; t <= 3; t++) {
            assertEquals(perThread, counts.get("Thread " + t), counts::toString);
        }
    }

    /** Debian's sqlite3: libsqlite3's own mutex calls are traced, balanced, the output unchanged. */
    @Test
    void debiansSqlite3() throws Exception {
        Path sqlite3 = Path.of("/usr/bin/sqlite3");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(sqlite3), "no sqlite3");
        String sql = "create table t(a); insert into t values(1),(2),(3); select sum(a) from t;";
        ProcessResult r = tool(
                "rocprof-sys-run",
                environment("sqlite3", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "ON"),
                argv("-I mutex-locks --", sqlite3.toString(), ":memory:", sql));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("6\n", r.stdout(), r::toString);
        Map<String, Long> main = ThreadTracks.counts(
                        DecodedTrace.read(outputRoot().resolve("sqlite3/perfetto-trace.proto")), "pthread")
                .get("sqlite3");
        System.out.printf("[LocksIT] sqlite3: %s%n", main);
        assertTrue(main.get("pthread_mutex_lock") > 0, main::toString);
        assertEquals(main.get("pthread_mutex_lock"), main.get("pthread_mutex_unlock"), main::toString);
    }

    /**
     * Off (the default), nothing is interposed: the program's pthread_mutex_lock is libc's and no
     * lock region is recorded. The cost of a traced lock+unlock pair against the same program
     * untraced and bare is printed (timed by the program itself on its main thread; no assertion
     * on time).
     */
    @Test
    void offMeansNotInterposedAndTheCostOfOn() throws Exception {
        Path exe = program();
        ProcessResult off = tool(
                "rocprof-sys-run",
                environment("off", "ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_RING_BUFFER_SIZE_KB", "65536"),
                argv("--", exe.toString(), "2", Integer.toString(PAIRS), "bench"));
        assertEquals(0, off.exitCode(), off::toString);
        assertTrue(off.stdout().contains("pthread_mutex_lock in libc.so"), off::toString);
        Map<String, Map<String, Long>> counts =
                ThreadTracks.counts(DecodedTrace.read(outputRoot().resolve("off/perfetto-trace.proto")), "pthread");
        assertTrue(
                counts.values().stream().allMatch(m -> m.keySet().stream().noneMatch(n -> n.contains("lock"))),
                counts::toString);

        ProcessResult on = tool(
                "rocprof-sys-run",
                environment("on", "ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_RING_BUFFER_SIZE_KB", "65536"),
                argv("-I mutex-locks --", exe.toString(), "2", Integer.toString(PAIRS), "bench"));
        assertEquals(0, on.exitCode(), on::toString);
        ProcessResult bare = launch(exe, cwd, Map.of(), "2", Integer.toString(PAIRS), "bench");
        System.out.printf(
                "[LocksIT] ns per mutex lock+unlock pair: bare %s, under rocprof-sys-run with locks off %s, traced %s%n",
                pairNs(bare), pairNs(off), pairNs(on));
    }

    private static String pairNs(ProcessResult r) {
        return r.stdout()
                .lines()
                .filter(l -> l.startsWith("pair_ns="))
                .map(l -> l.substring(8))
                .findFirst()
                .orElse("?");
    }
}
