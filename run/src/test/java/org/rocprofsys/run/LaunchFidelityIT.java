package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ResourceFiles;

/**
 * The profiled program behaves as when a shell runs it (issue 35, items 1, 2 and 10): bytes that
 * are not valid UTF-8 in its arguments, its path, its working directory and the output path pass
 * through; it sees its own peak RSS and the signal state, limits, nice, process group and
 * descriptors the shell passed; a command that cannot run gets a shell's 126 or 127. Every run
 * goes through a bash script (the test JVM cannot pass such bytes itself), which also forks the
 * program or the tool as a shell does: a program a JVM spawns would start with the JVM's peak RSS.
 */
class LaunchFidelityIT extends DistributionTest {
    private static final List<String> TOOLS =
            List.of("rocprof-sys-run", "rocprof-sys-sample", "rocprof-sys-instrument");
    private static final long ONE_MB_IN_KB = 1024;

    /** Runs {@code script} with bash in this test's folder; {@code $D} is the distribution's bin/. */
    private ProcessResult bash(String script, Map<String, String> env, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("-c", "D=" + DIST.resolve("bin") + "\n" + script, "bash"));
        argv.addAll(List.of(args));
        return launch(Path.of("bash"), cwd, env, argv.toArray(String[]::new));
    }

    /** Runs {@code script} as {@link #bash} does; it must succeed and print "ok" alone. */
    private void bashSaysOk(String script, Map<String, String> env, String... args) throws Exception {
        var r = bash(script, env, args);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("ok", r.stdout().strip(), r::toString);
    }

    private Map<String, String> env(String name, String... extra) {
        return environment(name, extra);
    }

    private Path compile(String name, String... flags) throws Exception {
        Path src = ResourceFiles.copy(LaunchFidelityIT.class, "launch/" + name + ".c", cwd.resolve(name + ".c"));
        Path out = cwd.resolve(name.endsWith("_exit") ? "lib" + name + ".so" : name);
        return NativeCompiler.c().compile(src, out, flags);
    }

    @ParameterizedTest
    @ValueSource(strings = {"C", "C.UTF-8"})
    void argumentBytesReachTheProgramInEveryTool(String locale) throws Exception {
        String script = """
                printf 'data\\n' > $'file\\xe9.txt'
                for tool in rocprof-sys-run rocprof-sys-sample rocprof-sys-instrument; do
                    out=$("$D/$tool" -- cat $'file\\xe9.txt') || { echo "$tool failed"; exit 1; }
                    [[ $out == data ]] || { echo "$tool read '$out'"; exit 1; }
                done
                out=$(ROCPROFSYS_ENABLED=OFF "$D/rocprof-sys-run" -- cat $'file\\xe9.txt') || { echo "unprofiled failed"; exit 1; }
                [[ $out == data ]] || { echo "unprofiled read '$out'"; exit 1; }
                printf 'import sys\\nsys.stdout.write(open(sys.argv[1].encode("utf-8", "surrogateescape"), "rb").read().decode())\\n' > s.py
                out=$("$D/rocprof-sys-python" -- s.py $'file\\xe9.txt') || { echo "python failed"; exit 1; }
                [[ $out == data ]] || { echo "python read '$out'"; exit 1; }
                echo ok
                """;
        bashSaysOk(script, env("args", "LC_ALL", locale));
    }

    @Test
    void aProgramWhosePathIsNotUtf8Runs() throws Exception {
        Path state = compile("inherited_state");
        bashSaysOk("""
                cp "$1" $'./prog\\xe9\\xff'
                for tool in rocprof-sys-run rocprof-sys-sample rocprof-sys-instrument; do
                    "$D/$tool" -- $'./prog\\xe9\\xff' 5 >/dev/null
                    rc=$?
                    [[ $rc == 5 ]] || { echo "$tool: rc $rc"; exit 1; }
                done
                echo ok
                """, env("prog"), state.toString());
    }

    @Test
    void aWorkingDirectoryThatIsNotUtf8IsTheProgramsAndTakesRelativeOutputs() throws Exception {
        bashSaysOk("""
                mkdir $'d\\xe9' && cd $'d\\xe9' || exit 1
                for locale in C C.UTF-8; do
                    out=$(LC_ALL=$locale ROCPROFSYS_OUTPUT_PATH=rel "$D/rocprof-sys-run" -- /bin/pwd) || { echo "rc $?"; exit 1; }
                    [[ $out == "$PWD" ]] || { echo "pwd printed '$out'"; exit 1; }
                    [[ -f rel/cwd/metadata.json ]] || { echo "no rel/cwd/metadata.json in $locale"; exit 1; }
                    rm -rf rel
                done
                echo ok
                """, env("cwd"));
    }

    @Test
    void anOutputPathThatIsNotUtf8IsWrittenThere() throws Exception {
        Map<String, String> env = new HashMap<>(env("outpath"));
        env.remove("ROCPROFSYS_OUTPUT_PATH");
        env.remove("ROCPROFSYS_OUTPUT_PREFIX");
        bashSaysOk("""
                ROCPROFSYS_OUTPUT_PATH=$'out\\xe9' "$D/rocprof-sys-run" -- /bin/true || exit 1
                [[ -f $'out\\xe9'/metadata.json ]] || { ls -R; exit 1; }
                "$D/rocprof-sys-run" -o $'dir\\xff' -- /bin/true || exit 1
                [[ -f $'dir\\xff'/metadata.json ]] || { ls -R; exit 1; }
                echo ok
                """, env);
    }

    @Test
    void aRewrittenBinaryIsWrittenWhereANonUtf8OutputNameSays() throws Exception {
        Path exe = cProgram("fns", """
                #include <stdio.h>
                #include <stdlib.h>
                __attribute__((noinline)) double work(int n) {
                    double x = 0;
                    for (int i = 0; i < n; i++) { x += i * 0.5; if (x > 1e9) x = 0; }
                    return x;
                }
                __attribute__((noinline)) double more(int n) {
                    double x = 1;
                    for (int i = 0; i < n; i++) { x = x * 1.0001 + work(3); if (x > 1e6) x = 1; }
                    return x;
                }
                int main(int argc, char **argv) {
                    int n = argc > 1 ? atoi(argv[1]) : 1000;
                    printf("%f\\n", more(n) + work(n));
                    return 3;
                }
                """, "-O1", "-g");
        var r = bash("""
                "$D/rocprof-sys-instrument" -o $'sub\\xff/ins\\xe9' --min-instructions=8 -- "$1" || exit 1
                $'./sub\\xff/ins\\xe9' 10 >/dev/null
                echo "rc=$?"
                """, env("rewrite-bytes"), exe.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("rc=3", r.stdout().strip(), r::toString);
    }

    /** inherited_state's report as key -> value. */
    private static Map<String, String> report(String stdout) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : stdout.lines().toList()) {
            int sp = line.indexOf(' ');
            if (sp > 0) {
                // the test kit captures each run's stdout and stderr in files of their own
                out.put(
                        line.substring(0, sp),
                        line.substring(sp + 1).replaceAll("/[^ ]*rocprofsys-test[0-9]+\\.(out|err)", "<captured>"));
            }
        }
        return out;
    }

    @Test
    void theProgramSeesTheStateAShellGivesIt() throws Exception {
        Path state = compile("inherited_state");
        // fd 3 open, SIGUSR1 ignored, SIGUSR2 and SIGWINCH blocked, nice +2, a 512 descriptor limit
        String script = """
                exec 3</dev/null
                "$@"
                exit $?
                """;
        var bare = bash(script, Map.of(), state.toString(), "--with-state", state.toString(), "3");
        assertEquals(3, bare.exitCode(), bare::toString);
        Map<String, String> expected = report(bare.stdout());
        // SIGUSR1 (bit 9) ignored by the script; what the test's own parent ignores (SIGHUP under
        // nohup, SIGINT for a background job) comes on top and must pass through as well
        assertTrue((Long.parseLong(expected.get("ignored"), 16) & 0x200) != 0, bare::toString);
        for (String tool : TOOLS) {
            var r = bash(
                    script,
                    env("state-" + tool),
                    state.toString(),
                    "--with-state",
                    DIST.resolve("bin").resolve(tool).toString(),
                    "--",
                    state.toString(),
                    "3");
            assertEquals(3, r.exitCode(), r::toString);
            Map<String, String> got = report(r.stdout());
            long bareKb = Long.parseLong(expected.get("maxrss_kb"));
            long profiledKb = Long.parseLong(got.get("maxrss_kb"));
            assertTrue(
                    Math.abs(profiledKb - bareKb) <= ONE_MB_IN_KB,
                    tool + ": peak RSS " + profiledKb + " KB, bare " + bareKb + " KB\n" + r);
            Map<String, String> e = new LinkedHashMap<>(expected);
            e.remove("maxrss_kb");
            got.remove("maxrss_kb");
            assertEquals(e, got, tool + "\n" + r);
        }
    }

    @Test
    void peakRssOfTheProfileAndOfDebianProgramsIsTheirOwn() throws Exception {
        Path grow = userApiProgram(
                ResourceFiles.copy(LaunchFidelityIT.class, "launch/grow.c", cwd.resolve("grow.c")),
                cwd.resolve("grow"),
                "-O1");
        var r = bash(
                """
                "$@"
                exit $?
                """,
                env("grow", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock peak_rss"),
                DIST.resolve("bin/rocprof-sys-run").toString(),
                "--",
                grow.toString());
        assertEquals(0, r.exitCode(), r::toString);
        JsonNode graph = new ObjectMapper()
                .readTree(output("grow", "peak_rss.json").toFile())
                .path("timemory")
                .path("peak_rss")
                .path("ranks")
                .get(0)
                .path("graph");
        double grewBytes = -1;
        for (JsonNode node : graph) {
            if (node.path("prefix").asText().endsWith("grow")) {
                grewBytes = node.path("entry").path("value").asDouble();
            }
        }
        // 24 MiB touched in the region: its peak RSS grows by that much (under a JVM's inherited
        // high-water mark of ~66 MB it grew by 0)
        double mib = 1024.0 * 1024;
        assertTrue(grewBytes >= 23.5 * mib && grewBytes <= 25.5 * mib, "peak_rss of grow: " + grewBytes + "\n" + r);

        Path lib = compile("maxrss_at_exit", "-shared", "-fPIC");
        Files.write(cwd.resolve("big.bin"), new byte[8 << 20]);
        Path log = cwd.resolve("maxrss.log");
        String script = """
                LD_PRELOAD=$LIB "$@" >/dev/null
                exit $?
                """;
        Map<String, List<String>> programs = new LinkedHashMap<>();
        programs.put("gzip", List.of("gzip", "-c", "big.bin"));
        programs.put("sqlite3", List.of("sqlite3", ":memory:", "select 1"));
        programs.put("python3", List.of("python3", "-c", "pass"));
        for (var p : programs.entrySet()) {
            List<String> runs = new ArrayList<>();
            runs.add(String.join(" ", p.getValue()));
            Files.deleteIfExists(log);
            assertEquals(
                    0,
                    bash(
                                    script,
                                    Map.of("LIB", lib.toString(), "MAXRSS_LOG", log.toString()),
                                    p.getValue().toArray(String[]::new))
                            .exitCode());
            long bareKb = ownPeak(log, p.getKey());
            for (String tool : List.of("rocprof-sys-run", "rocprof-sys-sample")) {
                Files.deleteIfExists(log);
                List<String> argv = new ArrayList<>(
                        List.of(DIST.resolve("bin").resolve(tool).toString(), "--"));
                argv.addAll(p.getValue());
                var t = bash(
                        script,
                        env(p.getKey() + tool, "LIB", lib.toString(), "MAXRSS_LOG", log.toString()),
                        argv.toArray(String[]::new));
                assertEquals(0, t.exitCode(), t::toString);
                long kb = ownPeak(log, p.getKey());
                assertTrue(
                        Math.abs(kb - bareKb) <= ONE_MB_IN_KB,
                        p.getKey() + " under " + tool + ": " + kb + " KB, bare " + bareKb + " KB");
                System.out.println("[LaunchFidelityIT] " + p.getKey() + " peak RSS bare " + bareKb + " KB, " + tool
                        + " " + kb + " KB");
            }
        }
    }

    /** The peak RSS {@code comm} logged for itself (its last line: the launchers' scripts log too). */
    private static long ownPeak(Path log, String comm) throws Exception {
        long kb = -1;
        for (String line : Files.readAllLines(log)) {
            String[] f = line.split(" ");
            if (f[0].equals(comm)) {
                kb = Long.parseLong(f[1]);
            }
        }
        assertTrue(kb > 0, comm + " did not log: " + Files.readString(log));
        return kb;
    }

    @Test
    void exitCodesAndDeathBySignalAreTheProgramsInEveryTool() throws Exception {
        for (String tool : TOOLS) {
            var exit = bash("\"$D/" + tool + "\" -- sh -c 'exit 7'", env("exit" + tool));
            assertEquals(7, exit.exitCode(), exit::toString);
            var killed = bash("\"$D/" + tool + "\" -- sh -c 'kill -SEGV $$'\necho \"rc=$?\"", env("signal" + tool));
            assertTrue(killed.stdout().contains("rc=139"), killed::toString);
            assertTrue(killed.stderr().contains("killed by signal 11"), killed::toString);
        }
    }

    @Test
    void aCommandThatCannotRunGetsAShellsCodeAndReason() throws Exception {
        Files.createDirectories(cwd.resolve("adir"));
        Files.writeString(cwd.resolve("plain.txt"), "not a program\n");
        record Case(String command, int code, String reason) {}
        for (Case c : List.of(
                new Case("./adir", 126, "Is a directory"),
                new Case("./plain.txt", 126, "Permission denied"),
                new Case("./missing", 127, "No such file or directory"),
                new Case("no-such-program-anywhere", 127, "No such file or directory"))) {
            // (rocprof-sys-instrument reads the program first and says what it found there)
            for (String tool : List.of("rocprof-sys-run", "rocprof-sys-sample")) {
                var r = tool(tool, env("cannot"), "--", c.command());
                assertEquals(c.code(), r.exitCode(), r::toString);
                assertTrue(r.stderr().contains("cannot execute '" + c.command() + "': " + c.reason()), r::toString);
            }
        }
        // unprofiled (ROCPROFSYS_ENABLED=off) the command starts the same way
        var off = tool("rocprof-sys-run", env("cannot-off", "ROCPROFSYS_ENABLED", "OFF"), "--", "./adir");
        assertEquals(126, off.exitCode(), off::toString);
        assertTrue(off.stderr().contains("cannot execute './adir': Is a directory"), off::toString);
        // bytes the JVM cannot decode: the launch helper finds out and says so
        var r = bash("\"$D/rocprof-sys-run\" -- $'./adir\\xe9'", env("cannot-raw"));
        assertEquals(127, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("No such file or directory"), r::toString);
    }

    @Test
    void theStatusLineOfAHugeCommandIsShort() throws Exception {
        List<String> args = new ArrayList<>(List.of("--", "true"));
        for (int i = 0; i < 30_000; i++) {
            args.add("argument-" + i);
        }
        var r = tool("rocprof-sys-run", env("huge"), args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().length() < 4096, () -> "stderr of " + r.stderr().length() + " chars");
        assertTrue(r.stderr().contains("'true argument-0 argument-1"), r.stderr());
        assertTrue(r.stderr().contains("more arguments)' exited with code 0"), r.stderr());
    }

    private Path output(String name, String file) {
        return outputRoot().resolve(name).resolve(file);
    }
}
