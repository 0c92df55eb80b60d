package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Debian's own stripped programs, as a user meets them (issue 11, item 6): gzip instrumented from
 * its FDEs and run under rocprof-sys-run with byte-identical output and a profile of its
 * {@code func_0x<address>} functions; sqlite3 sampled, its frames named from symbols, from
 * libc6-dbg's debug file (libc internals such as {@code _int_malloc}) or from FDEs, and compared
 * with {@code perf record -F 1000 -g} on the same workload where perf works here.
 */
class StrippedProgramsIT extends DistributionTest {
    private static final String SQL = SqliteWork.script(60000);

    private Path installedCopy(String name) throws Exception {
        Path installed = Path.of("/usr/bin", name);
        assumeTrue(Files.isExecutable(installed), name + " is not installed (see .ci/run's apt-get line)");
        return Files.copy(installed, cwd.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void gzipIsInstrumentedFromItsFdesAndCompressesIdentically() throws Exception {
        Path gzip = installedCopy("gzip");
        byte[] input = new byte[200_000];
        Random r = new Random(7);
        for (int i = 0; i < input.length; i++) input[i] = (byte) ('a' + r.nextInt(r.nextBoolean() ? 3 : 26));
        Files.write(cwd.resolve("input.txt"), input);
        Path expected = cwd.resolve("expected.gz");
        assertEquals(
                0,
                Command.of("sh", "-c", gzip + " -c -n input.txt > " + expected)
                        .in(cwd)
                        .run()
                        .exitCode());

        ProcessResult inst =
                tool("rocprof-sys-instrument", Map.of(), "-i", "16", "-o", "gzip.inst", "--", gzip.toString());
        assertEquals(0, inst.exitCode(), inst::toString);
        assertTrue(inst.stdout().contains("func_0x") || inst.stderr().contains("instrumented funcs"), inst::toString);

        Map<String, String> env =
                environment("gzip-inst", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_RING_BUFFER_LOSSLESS", "ON");
        Path packed = cwd.resolve("packed.gz");
        ProcessResult run = tool("rocprof-sys-run", env, "--", "sh", "-c", "./gzip.inst -c -n input.txt > " + packed);
        assertEquals(0, run.exitCode(), run::toString);
        assertArrayEquals(Files.readAllBytes(expected), Files.readAllBytes(packed));
        ProcessResult back = Command.of("sh", "-c", "./gzip.inst -d -c packed.gz > unpacked")
                .in(cwd)
                .run();
        assertEquals(0, back.exitCode(), back::toString);
        assertArrayEquals(input, Files.readAllBytes(cwd.resolve("unpacked")));

        Map<String, Long> laps = new HashMap<>();
        for (JsonNode e : ProfileGraph.graph(outputRoot().resolve("gzip-inst/wall_clock.json"), "wall_clock")) {
            laps.merge(ProfileGraph.label(e), ProfileGraph.laps(e), Long::sum);
        }
        long fdeCalls = laps.entrySet().stream()
                .filter(e -> e.getKey().matches("func_0x[0-9a-f]+"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        assertTrue(fdeCalls > 1000, "calls of FDE functions: " + fdeCalls + " in " + laps);
    }

    /**
     * Debian's libsqlite3 (stripped: only its exported API in .dynsym) instrumented as a shared
     * library, its whole API (267 functions, about 3 M calls for this script: the mutex, allocation
     * and statement calls, at the rate at which issue 11 found 935,434 records dropped by the old
     * defaults) and loaded by the real sqlite3 through LD_LIBRARY_PATH, under default ring settings:
     * every statement of the script is prepared, stepped and finalized exactly as many times as the
     * shell does it, every mutex entered is left, nothing is dropped, and the shell's output is the
     * uninstrumented one.
     */
    @Test
    void libsqlite3IsInstrumentedAndEveryCallIsKeptUnderDefaults() throws Exception {
        Path lib = Path.of("/usr/lib/x86_64-linux-gnu/libsqlite3.so.0");
        assumeTrue(Files.exists(lib) && Files.isExecutable(Path.of("/usr/bin/sqlite3")), "sqlite3 is not installed");
        int inserts = 20_000;
        StringBuilder sql = new StringBuilder("CREATE TABLE t(a INTEGER, b TEXT);\n");
        for (int i = 0; i < inserts; i++) {
            sql.append("INSERT INTO t VALUES(")
                    .append(i)
                    .append(",'row")
                    .append(i)
                    .append("');\n");
        }
        sql.append("SELECT count(*), sum(a) FROM t;\n");
        Files.writeString(cwd.resolve("work.sql"), sql);
        int statements = inserts + 2;
        ProcessResult plain = Command.of("sh", "-c", "/usr/bin/sqlite3 :memory: < work.sql")
                .in(cwd)
                .run();
        assertEquals(0, plain.exitCode(), plain::toString);

        Path instrumented = Files.createDirectories(cwd.resolve("lib")).resolve("libsqlite3.so.0");
        ProcessResult inst = tool(
                "rocprof-sys-instrument",
                Map.of(),
                "-o",
                instrumented.toString(),
                "-R",
                "^sqlite3_",
                "--",
                lib.toRealPath().toString());
        assertEquals(0, inst.exitCode(), inst::toString);

        Map<String, String> env = new HashMap<>(environment("sqlite-lib", "ROCPROFSYS_PROFILE", "ON"));
        env.put("LD_LIBRARY_PATH", instrumented.getParent().toString());
        ProcessResult run =
                tool("rocprof-sys-run", env, "--", "sh", "-c", "/usr/bin/sqlite3 :memory: < work.sql > out.txt");
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(plain.stdout(), Files.readString(cwd.resolve("out.txt")));
        assertFalse(run.stderr().contains("dropped"), run::toString);

        Map<String, Long> laps = new HashMap<>();
        Map<String, Long> allLaps = new HashMap<>();
        for (JsonNode e : ProfileGraph.graph(outputRoot().resolve("sqlite-lib/wall_clock.json"), "wall_clock")) {
            long n = e.get("entry").get("laps").asLong();
            allLaps.merge(ProfileGraph.label(e), n, Long::sum);
            if (e.get("depth").asInt() == 1) { // the shell's own calls (sqlite3 calls itself inside them too)
                laps.merge(ProfileGraph.label(e), n, Long::sum);
            }
        }
        long calls = allLaps.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(calls >= 100L * statements, calls + " calls recorded: " + allLaps);
        assertTrue(allLaps.getOrDefault("sqlite3_mutex_enter", 0L) >= 10L * statements, allLaps::toString);
        assertEquals(allLaps.get("sqlite3_mutex_enter"), allLaps.get("sqlite3_mutex_leave"), allLaps::toString);
        // the shell prepares and finalizes each statement once and steps it until SQLITE_DONE: once
        // for the statements without rows, twice for the SELECT's one row
        assertEquals(statements, laps.get("sqlite3_prepare_v2"), laps::toString);
        assertEquals(statements, laps.get("sqlite3_finalize"), laps::toString);
        assertEquals(statements + 1, laps.get("sqlite3_step"), laps::toString);
    }

    /** Leaf samples per name of perf's user-space samples ({@code perf script -F ip,sym,dso}). */
    private static double namedShare(Map<String, Long> leaves) {
        long total = leaves.values().stream().mapToLong(Long::longValue).sum();
        long unknown = leaves.getOrDefault("[unknown]", 0L);
        return total == 0 ? 0 : (double) (total - unknown) / total;
    }

    @Test
    void sqlite3SamplesAreNamedFromSymbolsDebugFilesAndFdes() throws Exception {
        Path sqlite = Path.of("/usr/bin/sqlite3");
        assumeTrue(Files.isExecutable(sqlite), "sqlite3 is not installed (see .ci/run's apt-get line)");
        Files.writeString(cwd.resolve("work.sql"), SQL);
        Map<String, String> env =
                environment("sqlite3-sample", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_SAMPLING_DELAY", "0");
        // sqlite3 itself, not a shell that forks it: with USE_PID off the shell's profile and
        // sqlite3's are written to the same file, and which one lands last varied with the load
        ProcessResult r = tool("rocprof-sys-sample", env, "-f", "1000", "--", "sqlite3", ":memory:", ".read work.sql");
        assertEquals(0, r.exitCode(), r::toString);
        Path json = outputRoot().resolve("sqlite3-sample/sampling_cpu_clock.json");
        assumeTrue(Files.isRegularFile(json), "no CPU-time samples here: " + r.stderr());
        Map<String, Long> ours = ProfileGraph.leaves(ProfileGraph.graph(json, "sampling_cpu_clock"));
        long total = ours.values().stream().mapToLong(Long::longValue).sum();
        // about 70 ms of sqlite3's CPU time at 1000 Hz of CPU time (perf cpu-clock counts the
        // program's own time, so a busy machine gives as many): 60-100 samples here at load 19.
        // A profile of the launcher's image alone ({vfork=1}: the pid's image before its exec into
        // sqlite3) means the exec'd image was lost, issue 35 item 5, not too little work
        assertTrue(total >= 20, "too few samples: " + ours + "\n" + r);
        // pcs in mapped files are named by a symbol, an FDE, or file+0xoffset; never "[unknown]"
        assertTrue(namedShare(ours) >= 0.95, "named share " + namedShare(ours) + ": " + ours);
        assertTrue(ours.keySet().stream().anyMatch(n -> n.matches("func_0x[0-9a-f]+")), "FDE functions: " + ours);

        boolean libcDbg = Files.isDirectory(Path.of("/usr/lib/debug/.build-id"))
                && Command.of("dpkg", "-s", "libc6-dbg").run().exitCode() == 0;
        if (libcDbg) {
            assertTrue(
                    ours.keySet().stream()
                            .anyMatch(n -> n.startsWith("_int_")
                                    || n.startsWith("__memcmp_")
                                    || n.startsWith("__memmove_")
                                    || n.startsWith("__memcpy_")
                                    || n.startsWith("__memset_")),
                    "libc internals from libc6-dbg: " + ours);
        }

        // the same workload under perf: we name at least the share perf names
        Map<String, Long> theirs = PerfBeside.leaves(cwd, "-F 1000", "sqlite3 :memory: < work.sql").stream()
                .filter(l -> !l.dso().contains("[kernel"))
                .collect(Collectors.groupingBy(PerfBeside.Leaf::symbol, Collectors.counting()));
        assumeTrue(theirs.values().stream().mapToLong(Long::longValue).sum() >= 20, "perf took too few samples");
        assertTrue(
                namedShare(ours) >= namedShare(theirs),
                "ours " + namedShare(ours) + " " + ours + "\nperf " + namedShare(theirs) + " " + theirs);
        // only where perf's share of them makes several likely in our run: with a few expected, our
        // run may by chance have none (fresh-clone runs failed so, with 1-2 and with 5 in perf's)
        long theirIntSamples = theirs.entrySet().stream()
                .filter(e -> e.getKey().startsWith("_int_"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        double expectedInOurs = (double) theirIntSamples
                / theirs.values().stream().mapToLong(Long::longValue).sum()
                * ours.values().stream().mapToLong(Long::longValue).sum();
        if (libcDbg && expectedInOurs >= 8) { // none of a Poisson count of mean 8: 0.03 %
            assertTrue(
                    ours.keySet().stream().anyMatch(n -> n.startsWith("_int_")),
                    "perf names _int_* in " + theirIntSamples + " samples: " + ours);
        }
    }
}
