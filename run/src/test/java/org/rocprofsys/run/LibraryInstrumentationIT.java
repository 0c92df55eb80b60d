package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 35 item 9: library instrumentation says why. Runtime {@code -MI libsqlite3} on Debian's
 * sqlite3 instruments the system library it names (and a run without it says which option selects
 * one); a rewrite of liblzma, an internal library, is refused with the option that lifts it, and
 * {@code --internal-library-remove liblzma} writes a copy that xz runs with, its functions in the
 * profile; excluded.txt gives every function its reason.
 */
class LibraryInstrumentationIT extends DistributionTest {
    private static final String SQL = "create table t(a); insert into t values(1),(2),(3); select sum(a) from t;";

    private static Path system(String name) {
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64")) {
            Path p = Path.of(dir, name);
            if (Files.exists(p)) {
                return p;
            }
        }
        throw new org.opentest4j.TestAbortedException(name + " is not installed");
    }

    private Map<String, String> env(String name) {
        return environment(name, "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "OFF");
    }

    @Test
    void runtimeModuleIncludeInstrumentsTheSystemLibraryItNames() throws Exception {
        ProcessResult plain =
                tool("rocprof-sys-instrument", cwd, env("sqlite-plain"), "--", "sqlite3", ":memory:", SQL);
        assertEquals(0, plain.exitCode(), plain::toString);
        assertEquals("6\n", plain.stdout());
        assertTrue(
                plain.stderr()
                        .matches("(?s).*system librar(y|ies) of the program (is|are) not instrumented \\([^)]*"
                                + "libsqlite3[^)]*\\): -MI/--module-include <regex> selects one.*"),
                plain::toString);

        ProcessResult r = tool(
                "rocprof-sys-instrument", cwd, env("sqlite-mi"), "-MI", "libsqlite3", "--", "sqlite3", ":memory:", SQL);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("6\n", r.stdout(), "the program's output is unchanged");
        assertTrue(r.stderr().matches("(?s).*\\d+ instrumented funcs in \\S*libsqlite3.*"), r::toString);
        String profile = Files.readString(outputRoot().resolve("sqlite-mi/wall_clock.txt"));
        assertTrue(profile.contains("sqlite3_exec"), profile);
        assertTrue(profile.contains("sqlite3_prepare"), profile);
    }

    @Test
    void rewritingAnInternalLibraryNamesTheOptionThatLiftsIt() throws Exception {
        Path lzma = system("liblzma.so.5");
        Path copy = cwd.resolve("lib/liblzma.so.5");
        ProcessResult refused =
                tool("rocprof-sys-instrument", cwd, env("lzma-refused"), "-o", copy.toString(), "--", lzma.toString());
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("are excluded as 'internal library'"), refused::toString);
        assertTrue(refused.stderr().contains("--internal-library-remove liblzma"), refused::toString);
        assertFalse(Files.exists(copy), "nothing is written");
        String excluded = Files.readString(outputRoot().resolve("lzma-refused/instrumentation/excluded.txt"));
        List<String> lines = excluded.lines().toList();
        assertTrue(lines.getFirst().strip().endsWith("Reason"), lines.getFirst());
        for (String line : lines.subList(1, lines.size())) {
            assertTrue(line.endsWith(" internal library"), line);
        }
        String json = Files.readString(outputRoot().resolve("lzma-refused/instrumentation/excluded.json"));
        assertTrue(json.contains("\"reason\": \"internal library\""), json.substring(0, Math.min(2000, json.length())));

        ProcessResult rewritten = tool(
                "rocprof-sys-instrument",
                cwd,
                env("lzma-rewrite"),
                "-o",
                copy.toString(),
                "--internal-library-remove",
                "liblzma",
                "-i",
                "64",
                "--",
                lzma.toString());
        assertEquals(0, rewritten.exitCode(), rewritten::toString);
        assertTrue(Files.isRegularFile(copy), rewritten::toString);

        // xz compresses with the rewritten library; the output is what xz writes without the profiler
        Path data = cwd.resolve("data.txt");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20000; i++) {
            text.append("line ").append(i).append(" of a file for xz\n");
        }
        Files.writeString(data, text);
        String bare = Command.of("sh", "-c", "xz -c data.txt | xz -dc | md5sum")
                .in(cwd)
                .ok();
        Map<String, String> runEnv = env("lzma-run");
        runEnv.put("LD_LIBRARY_PATH", copy.getParent().toString());
        ProcessResult run = tool("rocprof-sys-run", cwd, runEnv, "--", "xz", "-k", "-f", data.toString());
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(
                bare,
                Command.of("sh", "-c", "xz -dc data.txt.xz | md5sum").in(cwd).ok());
        String profile = Files.readString(outputRoot().resolve("lzma-run/wall_clock.txt"));
        assertTrue(profile.contains("lzma_"), profile);
    }

    @Test
    void internalLibraryAppendExcludesALibrary() throws Exception {
        ProcessResult r = tool(
                "rocprof-sys-instrument",
                cwd,
                env("sqlite-append"),
                "--internal-library-append",
                "libsqlite3",
                "--simulate",
                "--",
                system("libsqlite3.so.0").toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(
                r.stderr().contains("--internal-library-append libsqlite3 (command line) is not supported"),
                r::toString);
        String excluded = Files.readString(outputRoot().resolve("sqlite-append/instrumentation/excluded.txt"));
        List<String> rows = excluded.lines().skip(1).toList();
        assertFalse(rows.isEmpty());
        assertTrue(rows.stream().allMatch(l -> l.endsWith(" internal library")), excluded.substring(0, 2000));
    }
}
