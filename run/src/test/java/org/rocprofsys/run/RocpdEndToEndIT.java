package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.tracetest.DecodedTrace;
import org.rocprofsys.tracetest.RocpdCounts;
import org.rocprofsys.tracetest.SqliteCli;

/**
 * ROCPROFSYS_USE_ROCPD on the examples: the database written beside the Perfetto trace of the same
 * run counts what the trace shows (regions per name and category, samples and their frames,
 * counter samples), and the sqlite3 tool finds it consistent, also after the target crashed.
 */
class RocpdEndToEndIT extends DistributionTest {
    private Path dir(String name) {
        return cwd.resolve("out").resolve(name);
    }

    private ProcessResult tool(String tool, String name, List<String> extra, String... command) throws Exception {
        List<String> env = new ArrayList<>(List.of("ROCPROFSYS_TRACE", "ON", "ROCPROFSYS_USE_ROCPD", "ON"));
        env.addAll(extra);
        return tool(tool, cwd, environment(name, env.toArray(String[]::new)), command);
    }

    /** The trace and the database of one run, checked against each other. */
    private Map<String, Long> sameCounts(String name, ProcessResult r) throws Exception {
        Path db = dir(name).resolve("rocpd.db");
        assertTrue(Files.isRegularFile(db), r::toString);
        assertTrue(r.stderr().contains("[rocpd]> Outputting '" + db + "'"), r::toString);
        Map<String, Long> compared =
                RocpdCounts.assertSameCounts(DecodedTrace.read(dir(name).resolve("perfetto-trace.proto")), db);
        SqliteCli.assertConsistent(db);
        assertTrue(Files.readString(dir(name).resolve("metadata.json")).contains(db.toString()), "listed");
        return compared;
    }

    @Test
    void userApi() throws Exception {
        var r = tool("rocprof-sys-run", "user-api", List.of(), "--", example("user-api"), "10", "4", "1000");
        assertEquals(0, r.exitCode(), r::toString);
        Map<String, Long> c = sameCounts("user-api", r);
        // each of the 4 threads, then main, runs the region once
        assertEquals(
                5L,
                RocpdCounts.number(
                        dir("user-api").resolve("rocpd.db"),
                        "SELECT COUNT(*) FROM regions WHERE name = 'run(10) x 1000'"),
                c.toString());
        assertTrue(
                RocpdCounts.number(dir("user-api").resolve("rocpd.db"), "SELECT COUNT(*) FROM region_args") > 0,
                "the annotated regions' arguments");
    }

    @Test
    void processSampling() throws Exception {
        var r = tool(
                "rocprof-sys-run",
                "host",
                List.of(),
                argv(
                        "-H --cpus 0 --process-freq 50 --",
                        example("hot-functions"),
                        // about 1.5 s on a quiet core: dozens of 50 Hz ticks however fast the machine is
                        "120"));
        assertEquals(0, r.exitCode(), r::toString);
        Map<String, Long> c = sameCounts("host", r);
        assertTrue(c.get("counter_samples") > 20, c.toString());
        Path db = dir("host").resolve("rocpd.db");
        assertTrue(
                RocpdCounts.query(db, "SELECT name, COUNT(*) FROM pmc_info GROUP BY name")
                        .keySet()
                        .containsAll(List.of("CPU Memory Usage (S)", "CPU Frequency [0] (S)")),
                r::toString);
    }

    @Test
    void callStackSampling() throws Exception {
        var r = tool(
                "rocprof-sys-sample",
                "hot",
                List.of(),
                argv(
                        "-T -f 1000 -w 0 --",
                        example("hot-functions"),
                        // about 1.5 s on a quiet core, so that a throttled perf still samples it
                        "120"));
        CallStackSampling.orSkip(r);
        assertEquals(0, r.exitCode(), r::toString);
        Map<String, Long> c = sameCounts("hot", r);
        // how many depends on the load; that the counts agree is the check
        assertTrue(c.get("samples") > 0, c.toString());
        assertTrue(
                RocpdCounts.number(
                                dir("hot").resolve("rocpd.db"),
                                "SELECT COUNT(*) FROM samples WHERE call_stack LIKE '%\"heavy\"%'")
                        > 0,
                "samples in heavy");
    }

    @Test
    void runtimeInstrumentation() throws Exception {
        var r = tool(
                "rocprof-sys-instrument",
                "po",
                List.of(),
                "--min-instructions=8",
                "--",
                example("parallel-overhead"),
                "10",
                "2",
                "5");
        assertEquals(0, r.exitCode(), r::toString);
        Map<String, Long> c = sameCounts("po", r);
        long fib = RocpdCounts.number(
                dir("po").resolve("rocpd.db"), "SELECT COUNT(*) FROM regions WHERE name LIKE '%fib%'");
        // fib(10) makes 2*fib(11)-1 = 177 calls; 2 threads and main x 5
        assertEquals(3L * 5 * 177, fib, c.toString());
    }

    @Test
    void aCrashedTargetLeavesACompleteDatabase() throws Exception {
        var r = tool("rocprof-sys-run", "crash", List.of(), "--", example("segv"), "segv");
        assertNotEquals(0, r.exitCode(), r::toString);
        sameCounts("crash", r);
        Path db = dir("crash").resolve("rocpd.db");
        assertEquals(
                Map.of("background", 1L, "inner", 1L, "middle", 1L, "outer", 1L, "segv", 1L),
                RocpdCounts.query(
                        db, "SELECT name, COUNT(*) FROM regions WHERE category IN ('user', 'host') GROUP BY name"));
        // the background thread's pthread_barrier_wait may end before the crash or be cut by it
        assertEquals(
                5L,
                RocpdCounts.number(
                        db,
                        "SELECT COUNT(*) FROM region_args a JOIN regions g ON g.id = a.id"
                                + " WHERE a.name = 'closed_by_profiler' AND g.category IN ('user', 'host')"),
                "every user and host region was closed by the profiler");
    }

    @Test
    void anUnwritableDatabaseFolderStopsTheRunBeforeTheTargetStarts() throws Exception {
        Path file = Files.writeString(cwd.resolve("a-file"), "x");
        Path marker = cwd.resolve("ran");
        Map<String, String> env = environment(
                "bad-dir",
                "ROCPROFSYS_USE_ROCPD",
                "ON",
                "ROCPROFSYS_DATABASE_DIR",
                file.resolve("db").toString());
        var r = tool("rocprof-sys-run", cwd, env, "--", "/bin/sh", "-c", "touch " + marker);
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(
                r.stderr()
                        .contains("cannot write the rocpd database in " + file.resolve("db") + ": " + file
                                + " is not a directory"),
                r::toString);
        assertTrue(Files.notExists(marker), "the target did not run");
    }

    @Test
    void theDatabaseFolderSetting() throws Exception {
        Path dbDir = cwd.resolve("databases");
        Map<String, String> env =
                environment("db-dir", "ROCPROFSYS_USE_ROCPD", "ON", "ROCPROFSYS_DATABASE_DIR", dbDir.toString());
        var r = tool("rocprof-sys-run", cwd, env, "--", example("user-api"), "5", "1", "10");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(Files.isRegularFile(dbDir.resolve("rocpd.db")), r::toString);
        // the one thread, then main, runs the region once
        assertEquals(
                2,
                RocpdCounts.number(
                        dbDir.resolve("rocpd.db"), "SELECT COUNT(*) FROM regions WHERE name = 'run(5) x 10'"),
                r::toString);
    }
}
