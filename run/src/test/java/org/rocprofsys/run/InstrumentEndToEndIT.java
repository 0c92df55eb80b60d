package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * rocprof-sys-instrument on real programs, as upstream's instrument tests (inventory §9.3) and the
 * issue's acceptance: the help sections, simulate-ls, the library switch to simulate, the log file,
 * rewrite-caller, parallel-overhead in rewrite and runtime mode, rewritten C/C++ programs
 * (exceptions, recursion, threads, a shared library; -O0 and -O2, PIE and non-PIE) that print what
 * the originals print and whose profiles show exact call counts, and bad input.
 */
class InstrumentEndToEndIT extends DistributionTest {
    private Map<String, String> env(String name, String... extra) {
        return environment(name, extra);
    }

    private ProcessResult instrument(Map<String, String> env, String... args) throws Exception {
        return tool("rocprof-sys-instrument", cwd, env, args);
    }

    private ProcessResult run(Map<String, String> env, String... args) throws Exception {
        return tool("rocprof-sys-run", cwd, env, args);
    }

    private static ProcessResult plain(Path program, Path cwd, String... args) throws Exception {
        return launch(program, cwd, Map.of(), args);
    }

    /** label (without the tree prefix) -> summed laps over wall_clock.json's graph. */
    private static Map<String, Long> counts(Path json) throws Exception {
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        Map<String, Long> out = new HashMap<>();
        for (JsonNode e :
                root.get("timemory").get("wall_clock").get("ranks").get(0).get("graph")) {
            String p = e.get("prefix").asText();
            String label = p.substring(p.indexOf(">>> ") + 4).replaceFirst("^[ |]*_?", "");
            out.merge(label, e.get("entry").get("laps").asLong(), Long::sum);
        }
        return out;
    }

    @Test
    void helpShowsUpstreamsSectionsInOrder() throws Exception {
        var r = instrument(Map.of(), "--help");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(
                Pattern.compile("(?s)\\[rocprof-sys-instrument\\] Usage:.*\\[DEBUG OPTIONS\\].*\\[MODE OPTIONS\\].*"
                                + "\\[LIBRARY OPTIONS\\].*\\[SYMBOL SELECTION OPTIONS\\].*\\[RUNTIME OPTIONS\\].*"
                                + "\\[GRANULARITY OPTIONS\\].*\\[DYNINST OPTIONS\\]")
                        .matcher(r.stdout())
                        .find(),
                r::toString);
    }

    @Test
    void simulateLsWritesTheTwelveListFiles() throws Exception {
        var r = instrument(
                env("simulate-ls"), argv("--simulate --print-format json txt xml -v 2 --all-functions -- ls"));
        assertEquals(0, r.exitCode(), r::toString);
        Path dir = cwd.resolve("out/simulate-ls/instrumentation");
        for (String list : List.of("available", "excluded", "instrumented", "overlapping")) {
            for (String ext : List.of("json", "txt", "xml")) {
                assertTrue(Files.isRegularFile(dir.resolve(list + "." + ext)), list + "." + ext + "\n" + r);
            }
        }
        assertTrue(Files.readString(dir.resolve("available.txt")).contains("StartAddress"), r::toString);
        assertFalse(Files.exists(cwd.resolve("ls.inst")), "simulate writes no binary");
    }

    @Test
    void aLibraryWithoutOutputSwitchesToSimulate() throws Exception {
        var r = instrument(env("simulate-lib"), argv("--print-available functions -v 2 --", example("libdemo.so")));
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(
                r.stderr()
                        .matches("(?s).*\\[rocprof-sys\\]\\[exe\\] Runtime instrumentation is not possible!.*\n"
                                + ".*\\[rocprof-sys\\]\\[exe\\] Switching to binary rewrite mode and assuming '--simulate"
                                + " --all-functions'.*"),
                r::toString);
        assertTrue(r.stdout().contains("[lib_work]"), r::toString);
    }

    @Test
    void writeLog() throws Exception {
        var r = instrument(env("write-log"), "--simulate", "--log-file", "user.log", "-v", "1", "--", "ls");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(
                Pattern.compile("Opening .*/instrumentation/user.log")
                        .matcher(r.stderr())
                        .find(),
                r::toString);
        Path log = cwd.resolve("out/write-log/instrumentation/user.log");
        assertTrue(Files.isRegularFile(log) && Files.size(log) > 0, r::toString);
    }

    @Test
    void rewriteCaller() throws Exception {
        Path exe = examples().resolve("rewrite-caller");
        var base = plain(exe, cwd, "17");
        assertTrue(base.stdout().contains("number of calls made = 17"), base::toString);
        var rw = instrument(
                env("rewrite-caller"),
                argv("-o rewrite-caller.inst -e -i 256 --caller-include ^inner -v 2 --", exe.toString()));
        assertEquals(0, rw.exitCode(), rw::toString);
        assertTrue(rw.stderr().contains("[function][Forcing] caller-include-regex :: 'outer'"), rw::toString);
        Path inst = cwd.resolve("rewrite-caller.inst");
        assertEquals(base.stdout(), plain(inst, cwd, "17").stdout(), "the rewritten binary alone");
        var r = run(
                env("rewrite-caller", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_COUT_OUTPUT", "ON"),
                "--",
                inst.toString(),
                "17");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().startsWith(base.stdout()), r::toString);
        assertTrue(
                Pattern.compile(">>> ._outer ([ \\|]+) 17").matcher(r.stdout()).find(), r::toString);
    }

    @Test
    void parallelOverheadRewriteAndRuntime() throws Exception {
        Path exe = examples().resolve("parallel-overhead");
        var base = plain(exe, cwd, "12", "4", "10");
        // fib(12) makes 2*fib(13)-1 calls; 4 threads and main x 10
        long fibCalls = 5L * 10 * (2 * 233 - 1);
        // rewrite
        var rw = instrument(env("po-rewrite"), "-o", "po.inst", "--min-instructions=8", "--", exe.toString());
        assertEquals(0, rw.exitCode(), rw::toString);
        var r = run(
                env("po-rewrite", "ROCPROFSYS_PROFILE", "ON"),
                "--",
                cwd.resolve("po.inst").toString(),
                "12",
                "4",
                "10");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(base.stdout(), r.stdout());
        Map<String, Long> c = counts(cwd.resolve("out/po-rewrite/wall_clock.json"));
        assertEquals(fibCalls, c.get("fib"), c::toString);
        assertEquals(5L, c.get("run"), c::toString);
        // runtime, with upstream's labels option
        var rt = instrument(
                env("po-runtime", "ROCPROFSYS_PROFILE", "ON"),
                argv("--min-instructions=8 --label file line return args --", exe.toString(), "12", "4", "10"));
        assertEquals(0, rt.exitCode(), rt::toString);
        assertEquals(base.stdout(), rt.stdout());
        Map<String, Long> c2 = counts(cwd.resolve("out/po-runtime/wall_clock.json"));
        long fib = c2.entrySet().stream()
                .filter(e -> e.getKey().contains("fib"))
                .mapToLong(Map.Entry::getValue)
                .sum();
        assertEquals(fibCalls, fib, c2::toString);
    }

    /** Builds one C/C++ variant into cwd. */
    private Path build(String source, String name, String... flags) throws Exception {
        List<String> all = new ArrayList<>(List.of(flags));
        all.add("-pthread");
        return NativeCompiler.build(
                REPO.resolve("examples").resolve(source), cwd.resolve(name), all.toArray(String[]::new));
    }

    /** Killed inside an instrumented call that calls no other: the call is in the profile all the same. */
    @Test
    void theCallAKilledProgramWasInIsKept() throws Exception {
        Path exe = build("killed-in-call.c", "killed-in-call", "-O0", "-g");
        var rw = instrument(env("killed"), "-o", "killed.inst", "-i", "1", "-R", "^(step|last)$", "--", exe.toString());
        assertEquals(0, rw.exitCode(), rw::toString);
        var r = run(
                env("killed", "ROCPROFSYS_PROFILE", "ON"),
                "--",
                cwd.resolve("killed.inst").toString(),
                "50");
        assertTrue(r.stdout().contains("killing itself inside last("), r::toString);
        assertNotEquals(0, r.exitCode(), r::toString);
        Map<String, Long> counts = counts(cwd.resolve("out/killed/wall_clock.json"));
        assertEquals(50L, counts.get("step"), counts::toString);
        assertEquals(1L, counts.get("last"), counts::toString);
    }

    @Test
    void rewrittenProgramsBehaveAsTheOriginalsAndCountExactly() throws Exception {
        record Case(String source, String args, Map<String, Long> expected) {}
        List<Case> cases = List.of(
                new Case("exceptions.cpp", "5", Map.of("rethrower", 5L, "descend", 25L, "recurse", 101L)),
                new Case("rewrite-caller.c", "9", Map.of("outer", 9L, "inner", 9L)),
                new Case("parallel-overhead.c", "10 3 2", Map.of("fib", 4L * 2 * (2 * 89 - 1), "run", 4L)));
        // -O2 without sibling-call optimization: gcc's tail-recursion elimination would turn half of
        // fib's recursive calls into a loop, so the source's call count would not be the number of calls
        List<String[]> variants = List.of(
                new String[] {"O0-pie", "-O0", "-fPIE", "-pie"},
                new String[] {"O2-nopie", "-O2", "-fno-optimize-sibling-calls", "-fno-pie", "-no-pie"});
        for (Case c : cases) {
            for (String[] v : variants) {
                String name = c.source().replaceAll("\\..*", "") + "-" + v[0];
                String[] flags = java.util.Arrays.copyOfRange(v, 1, v.length);
                List<String> f = new ArrayList<>(List.of(flags));
                f.add("-g");
                Path exe = build(c.source(), name, f.toArray(String[]::new));
                String[] args = c.args().split(" ");
                var base = plain(exe, cwd, args);
                assertEquals(0, base.exitCode(), base::toString);
                var rw = instrument(
                        env(name),
                        "-o",
                        name + ".inst",
                        "-i",
                        "1",
                        "-R",
                        "^(rethrower|descend|recurse" + "|outer|inner|fib|run)$",
                        "--",
                        exe.toString());
                assertEquals(0, rw.exitCode(), name + "\n" + rw);
                Path inst = cwd.resolve(name + ".inst");
                var alone = plain(inst, cwd, args);
                assertEquals(base.stdout(), alone.stdout(), name + " alone");
                assertEquals(0, alone.exitCode(), name + " alone");
                var r = run(env(name, "ROCPROFSYS_PROFILE", "ON"), ArraysConcat.of("--", inst.toString(), args));
                assertEquals(0, r.exitCode(), name + "\n" + r);
                assertEquals(base.stdout(), r.stdout(), name + " under rocprof-sys-run");
                Map<String, Long> counts = counts(cwd.resolve("out/" + name + "/wall_clock.json"));
                for (var e : c.expected().entrySet()) {
                    // -O2 may inline or clone a function away: whatever was instrumented counts exactly
                    if (counts.containsKey(e.getKey()) || v[0].startsWith("O0")) {
                        assertEquals(e.getValue(), counts.get(e.getKey()), name + " " + e.getKey() + ": " + counts);
                    }
                }
            }
        }
    }

    @Test
    void aSharedLibraryRewrittenAndAtRunTime() throws Exception {
        Path dir = Files.createDirectories(cwd.resolve("libcase"));
        Files.copy(examples().resolve("uses-lib"), dir.resolve("uses-lib"));
        var base = plain(examples().resolve("uses-lib"), cwd, "12");
        var rw = instrument(
                env("lib-rewrite"), "-o", dir.resolve("libdemo.so").toString(), "-i", "1", "--", example("libdemo.so"));
        assertEquals(0, rw.exitCode(), rw::toString);
        assertEquals(base.stdout(), plain(dir.resolve("uses-lib"), cwd, "12").stdout());
        var r = run(
                env("lib-rewrite", "ROCPROFSYS_PROFILE", "ON"),
                "--",
                dir.resolve("uses-lib").toString(),
                "12");
        assertEquals(base.stdout(), r.stdout(), r::toString);
        assertEquals(12L, counts(cwd.resolve("out/lib-rewrite/wall_clock.json")).get("lib_work"));
        var rt = instrument(env("lib-runtime", "ROCPROFSYS_PROFILE", "ON"), "-i", "1", "--", example("uses-lib"), "12");
        assertEquals(base.stdout(), rt.stdout(), rt::toString);
        assertEquals(12L, counts(cwd.resolve("out/lib-runtime/wall_clock.json")).get("lib_work"));
        // a library the program opens later with dlopen (planned because it lies beside the program)
        var dl = instrument(env("lib-dlopen", "ROCPROFSYS_PROFILE", "ON"), "-i", "1", "--", example("dlopen-lib"), "7");
        assertEquals(0, dl.exitCode(), dl::toString);
        assertTrue(dl.stdout().contains("lib_work called 7 times"), dl::toString);
        assertEquals(7L, counts(cwd.resolve("out/lib-dlopen/wall_clock.json")).get("lib_work"), dl::toString);
    }

    @Test
    void envDefaultsAreEmbeddedAndTheUsersEnvironmentWins() throws Exception {
        Path exe = examples().resolve("rewrite-caller");
        var rw = instrument(
                Map.of(),
                argv(
                        "-o env.inst -i 8 --env ROCPROFSYS_PROFILE=ON ROCPROFSYS_OUTPUT_PREFIX=embedded/ --",
                        exe.toString()));
        assertEquals(0, rw.exitCode(), rw::toString);
        Map<String, String> e = new HashMap<>(env("ignored"));
        e.remove("ROCPROFSYS_OUTPUT_PREFIX");
        var r = run(e, "--", cwd.resolve("env.inst").toString(), "3");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(3L, counts(cwd.resolve("out/embedded/wall_clock.json")).get("outer"), r::toString);
        e.put("ROCPROFSYS_OUTPUT_PREFIX", "mine/");
        r = run(e, "--", cwd.resolve("env.inst").toString(), "3");
        assertTrue(Files.isRegularFile(cwd.resolve("out/mine/wall_clock.json")), r::toString);
    }

    @Test
    void badInputIsRefusedWithoutPartialOutput() throws Exception {
        Path text = Files.writeString(cwd.resolve("notes.txt"), "not a program\n");
        var r = instrument(env("bad"), "-o", "x.inst", "--", text.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("not an ELF file"), r::toString);
        assertFalse(Files.exists(cwd.resolve("x.inst")));

        byte[] elf = Files.readAllBytes(examples().resolve("rewrite-caller"));
        elf[18] = (byte) 183; // e_machine: AArch64
        elf[19] = 0;
        Path arm = Files.write(cwd.resolve("arm-prog"), elf);
        r = instrument(env("bad"), "-o", "arm.inst", "--", arm.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("x86-64"), r::toString);
        assertFalse(Files.exists(cwd.resolve("arm.inst")));

        Path stripped = cwd.resolve("stripped");
        Files.copy(examples().resolve("rewrite-caller"), stripped);
        assertEquals(0, Command.of("strip", stripped.toString()).run().exitCode());
        // a stripped program is no bad input: its functions come from its FDEs (issue 11, item 6)
        r = instrument(env("bad"), "-o", "stripped.inst", "-i", "1", "--", stripped.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(r.stderr().contains("no function is selected"), r::toString);
        assertTrue(Files.exists(cwd.resolve("stripped.inst")));

        Path blocker = Files.writeString(cwd.resolve("a-file"), "x");
        r = instrument(
                env("bad"),
                "-o",
                blocker.resolve("sub/out.inst").toString(),
                "-i",
                "1",
                "--",
                example("rewrite-caller"));
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("error"), r::toString);
        try (Stream<Path> s = Files.list(cwd)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".tmp")), "no temporary file left");
        }
    }

    /** String varargs helper. */
    private static final class ArraysConcat {
        static String[] of(String a, String b, String[] rest) {
            String[] out = new String[rest.length + 2];
            out[0] = a;
            out[1] = b;
            System.arraycopy(rest, 0, out, 2, rest.length);
            return out;
        }
    }
}
