package org.rocprofsys.instrument.rewrite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.select.SelectionOptions;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Stripped programs: functions found from their FDEs ({@code func_0x<address>}), rewritten, and
 * run with identical output; the agent stand-in checks that every hooked entry had its return
 * address at [rsp] (so no FDE that continues another frame, such as a {@code .cold} part, is hooked).
 */
class StrippedRewriteTest {
    @TempDir
    Path tmp;

    private static InstrumentPlan plan(Path bin) throws Exception {
        return TestPrograms.planned(
                bin, SelectionOptions.builder().minInstructions(0).build());
    }

    /** Runs {@code argv} through sh with stdout to {@code out}; its exit code. */
    private ProcessResult run(Path out, Map<String, String> env, String... argv) throws Exception {
        String cmd = String.join(" ", argv) + " > " + out;
        return Command.of("sh", "-c", cmd).in(tmp).env(env).run();
    }

    /** Rewrites {@code exe}, runs both with {@code args}; the stand-in's counts of the rewritten run. */
    private Map<String, Long> rewriteAndCompare(Path exe, InstrumentPlan plan, String... args) throws Exception {
        Path inst = tmp.resolve(exe.getFileName() + ".inst");
        ElfRewriter.rewrite(plan, Map.of(), inst);
        String[] a = new String[args.length + 1];
        String[] b = new String[args.length + 1];
        a[0] = exe.toString();
        b[0] = inst.toString();
        System.arraycopy(args, 0, a, 1, args.length);
        System.arraycopy(args, 0, b, 1, args.length);
        ProcessResult before = run(tmp.resolve("before.out"), Map.of(), a);
        ProcessResult after = run(tmp.resolve("after.out"), Map.of(), b);
        assertEquals(before.exitCode(), after.exitCode(), after.stderr());
        byte[] expected = Files.readAllBytes(tmp.resolve("before.out"));
        assertTrue(expected.length > 0);
        assertArrayEquals(expected, Files.readAllBytes(tmp.resolve("after.out")));

        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts-" + exe.getFileName() + ".txt");
        ProcessResult hooked =
                run(tmp.resolve("hooked.out"), Map.of("LD_PRELOAD", hook.toString(), "HOOK_OUT", counts.toString()), b);
        assertEquals(before.exitCode(), hooked.exitCode(), hooked.stderr());
        assertArrayEquals(expected, Files.readAllBytes(tmp.resolve("hooked.out")));
        Map<String, Long> c = PlannedRewriteTest.counts(counts);
        assertEquals(0L, c.get("bad_slot"), c.toString());
        assertEquals(0L, c.get("misaligned_stack"), c.toString());
        return c;
    }

    private static List<String> names(InstrumentPlan plan) {
        return plan.instrumented().stream().map(f -> f.function().name()).toList();
    }

    @Test
    void aStrippedOptimisedProgramRunsIdentically() throws Exception {
        TestPrograms.source(tmp, "o2.c");
        Path exe = tmp.resolve("o2s");
        NativeCompiler.c()
                .compile(
                        exe,
                        List.of(
                                "-O2",
                                "-fPIE",
                                "-pie",
                                "-o",
                                exe.toString(),
                                tmp.resolve("o2.c").toString()));
        Map<String, Long> symbols = new java.util.HashMap<>();
        for (var s : ElfFile.open(exe).symtab()) {
            if (s.definedFunction() && s.size() > 0) symbols.put(s.name(), s.value());
        }
        Command.of("strip", exe.toString()).ok();
        assertTrue(ElfFile.open(exe).symtab().isEmpty());

        InstrumentPlan plan = plan(exe);
        List<String> names = names(plan);
        assertTrue(names.size() >= 8, names + " / " + plan.excluded());
        assertTrue(names.stream().allMatch(n -> n.startsWith("func_0x")), names.toString());
        // the functions are where the symbols were, under their address
        for (String fn : List.of("jumper", "total_len", "avg", "fill")) {
            Long at = symbols.get(fn);
            if (at != null && names.contains("func_0x" + Long.toHexString(at))) continue;
            throw new AssertionError(fn + " at " + (at == null ? "?" : Long.toHexString(at)) + " not in " + names);
        }
        Map<String, Long> c = rewriteAndCompare(exe, plan);
        assertEquals(7L, c.get("main:func_0x" + Long.toHexString(symbols.get("jumper"))), c.toString());
    }

    @Test
    void debiansStrippedGzipAndXzRunIdentically() throws Exception {
        byte[] input = new byte[300_000];
        Random r = new Random(42);
        for (int i = 0; i < input.length; i++) input[i] = (byte) ('a' + r.nextInt(r.nextBoolean() ? 4 : 26));
        Files.write(tmp.resolve("input.txt"), input);
        for (String tool : List.of("gzip", "xz")) {
            Path installed = Path.of("/usr/bin", tool);
            assumeTrue(Files.isExecutable(installed), tool + " is not installed (apt-get install gzip xz-utils)");
            Path exe = Files.copy(installed, tmp.resolve(tool), StandardCopyOption.REPLACE_EXISTING);
            assumeTrue(ElfFile.open(exe).symtab().isEmpty(), tool + " is not stripped here");
            InstrumentPlan plan = plan(exe);
            List<String> names = names(plan);
            assertTrue(names.size() >= 40, tool + ": " + names.size() + " functions: " + names);
            assertTrue(names.stream().allMatch(n -> n.startsWith("func_0x")), names.toString());
            // compressed bytes, and their decompression back, are the same
            Map<String, Long> c = rewriteAndCompare(exe, plan, "-c", "-9", "input.txt");
            long calls = c.entrySet().stream()
                    .filter(e -> e.getKey().startsWith("main:func_0x"))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            // xz does its work in liblzma (not instrumented here): fewer calls in the program itself
            assertTrue(calls > 100, tool + ": " + calls + " hooked calls");
            Files.copy(tmp.resolve("before.out"), tmp.resolve("packed"), StandardCopyOption.REPLACE_EXISTING);
            rewriteAndCompare(exe, plan, "-d", "-c", "packed");
            assertArrayEquals(input, Files.readAllBytes(tmp.resolve("after.out")));
        }
    }
}
