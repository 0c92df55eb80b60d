package org.rocprofsys.instrument.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.instrument.area.AreaBuilder;
import org.rocprofsys.instrument.area.AreaReader;
import org.rocprofsys.instrument.area.Objdump;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.PlannedFunction;
import org.rocprofsys.instrument.select.SelectionOptions;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/** The planner's plans (Capstone-relocated prologues with fix-ups), rewritten and run. */
class PlannedRewriteTest {
    @TempDir
    Path tmp;

    /**
     * The planner's plan with minimum sizes 0, less compiler fragments ({@code [clone .cold]}): those
     * are entered by jumps (landing pads, unlikely branches), not calls, so their entry has no return
     * address at [rsp] for the agent's hook (the stand-in counts such entries as bad slots).
     */
    static InstrumentPlan plan(Path bin) throws Exception {
        InstrumentPlan p = TestPrograms.planned(
                bin, SelectionOptions.builder().minInstructions(0).build());
        List<PlannedFunction> kept = TestPrograms.withoutColdParts(p);
        return new InstrumentPlan(
                p.module(), p.sharedObject(), p.available(), kept, p.excluded(), p.overlapping(), p.mode());
    }

    static Map<String, Long> counts(Path out) throws Exception {
        Map<String, Long> m = new HashMap<>();
        for (String line : Files.readAllLines(out)) {
            int last = line.lastIndexOf(' ');
            int first = line.indexOf(' ');
            String key = first == last
                    ? line.substring(0, last)
                    : line.substring(0, first) + ":" + line.substring(first + 1, last);
            m.merge(key, Long.parseLong(line.substring(last + 1)), Long::sum);
        }
        return m;
    }

    /** Rewrites {@code exe} with its plan and checks it runs as before, bare and with the agent stand-in. */
    private Map<String, Long> rewriteAndCompare(Path exe, InstrumentPlan plan, Map<String, String> env, String... args)
            throws Exception {
        Path out = tmp.resolve(exe.getFileName() + ".inst");
        ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of(), out);
        byte[] bytes = Files.readAllBytes(out);
        AreaReader.Decoded d = AreaReader.read(java.util.Arrays.copyOfRange(
                bytes,
                (int) r.areaOffset(),
                (int) r.areaOffset() + AreaBuilder.build(plan, Map.of()).size()));
        assertEquals(plan.instrumented().size(), d.functions().size());
        assertEquals("", Command.of("readelf", "-aW", out.toString()).run().stderr());
        assertEquals("", Command.of("objdump", "-d", out.toString()).run().stderr());

        List<String> a = new ArrayList<>(List.of(exe.toString()));
        a.addAll(List.of(args));
        List<String> b = new ArrayList<>(List.of(out.toString()));
        b.addAll(List.of(args));
        ProcessResult before =
                Command.of(a.toArray(String[]::new)).in(tmp).env(env).run();
        ProcessResult after =
                Command.of(b.toArray(String[]::new)).in(tmp).env(env).run();
        assertFalse(before.stdout().isEmpty());
        assertEquals(before.stdout(), after.stdout());
        assertEquals(before.exitCode(), after.exitCode(), after.stderr());

        Path hook = TestPrograms.hook(tmp);
        Path countsFile = tmp.resolve("counts-" + exe.getFileName() + ".txt");
        Map<String, String> henv = new HashMap<>(env);
        henv.put("LD_PRELOAD", hook.toString());
        henv.put("HOOK_OUT", countsFile.toString());
        ProcessResult hooked =
                Command.of(b.toArray(String[]::new)).in(tmp).env(henv).run();
        assertEquals(before.stdout(), hooked.stdout());
        assertEquals(before.exitCode(), hooked.exitCode(), hooked.stderr());
        Map<String, Long> c = counts(countsFile);
        assertEquals(0L, c.get("bad_slot"), c.toString());
        assertEquals(0L, c.get("misaligned_stack"), c.toString());
        return c;
    }

    private static boolean hasFixups(InstrumentPlan plan, String name) {
        return plan.instrumented().stream()
                .filter(f -> f.function().name().equals(name))
                .anyMatch(f -> !f.fixups().isEmpty());
    }

    @Test
    void optimizedCProgramsRunIdentically() throws Exception {
        TestPrograms.source(tmp, "o2.c");
        for (String[] flags : List.of(
                new String[] {"-fPIE", "-pie", "-fcf-protection=none"},
                new String[] {"-fno-PIE", "-no-pie", "-fcf-protection=none"},
                new String[] {"-fPIE", "-pie", "-fcf-protection=full"})) {
            List<String> args =
                    new ArrayList<>(List.of("-O2", "-o", tmp.resolve("o2").toString()));
            args.addAll(List.of(flags));
            args.add("o2.c");
            NativeCompiler.c().compile(tmp.resolve("o2"), args);
            Path exe = tmp.resolve("o2");
            InstrumentPlan plan = plan(exe);
            List<String> names =
                    plan.instrumented().stream().map(f -> f.function().name()).toList();
            assertTrue(names.size() >= 8, String.join(" ", flags) + ": " + names + " / " + plan.excluded());
            // prologues that read globals RIP-relatively are relocated with fix-ups
            assertTrue(
                    hasFixups(plan, "get_counter") || hasFixups(plan, "bump") || hasFixups(plan, "name_of"),
                    String.join(" ", flags) + ": no fix-ups in "
                            + plan.instrumented().stream()
                                    .map(f -> f.function().name() + "/"
                                            + f.fixups().size())
                                    .toList());
            Map<String, Long> c = rewriteAndCompare(exe, plan, Map.of());
            Map<String, Long> c2 = rewriteAndCompare(exe, plan, Map.of(), "x", "y");
            Map<String, Long> expected = Map.of("jumper", 7L, "total_len", 1L, "avg", 1L, "fill", 1L);
            for (var e : expected.entrySet()) {
                if (names.contains(e.getKey())) {
                    assertEquals(
                            e.getValue(),
                            c.get("main:" + e.getKey()),
                            String.join(" ", flags) + " " + e.getKey() + " " + c);
                }
            }
            assertFalse(c2.isEmpty());
        }
    }

    @Test
    void cxxProgramWithExceptionsRunsIdentically() throws Exception {
        TestPrograms.source(tmp, "cxx.cpp");
        NativeCompiler.cxx()
                .compile(
                        tmp.resolve("cxx"),
                        List.of("-O2", "-o", tmp.resolve("cxx").toString(), "cxx.cpp"));
        Path exe = tmp.resolve("cxx");
        InstrumentPlan plan = plan(exe);
        List<String> names =
                plan.instrumented().stream().map(f -> f.function().name()).toList();
        assertTrue(names.containsAll(List.of("thrower", "catcher")), names.toString());
        // catcher's relocated prologue ends with the call to thrower: the exception passes through it
        PlannedFunction catcher = plan.instrumented().stream()
                .filter(f -> f.function().name().equals("catcher"))
                .findFirst()
                .orElseThrow();
        List<Objdump.Insn> head = TestPrograms.disassemble(exe).get("_Z7catcheri");
        assertTrue(
                head.stream()
                        .anyMatch(i -> i.address() < catcher.function().address() + catcher.patchLength()
                                && i.text().startsWith("call")),
                "catcher's patched bytes hold a call: " + head);
        Map<String, Long> c = rewriteAndCompare(exe, plan, Map.of());
        assertEquals(5L, c.get("main:catcher"), c.toString());
        assertTrue(c.get("main:thrower") >= 5, c.toString());
    }

    @Test
    void optimizedSharedLibraryRunsIdentically() throws Exception {
        TestPrograms.source(tmp, "o2.c");
        Path orig = Files.createDirectories(tmp.resolve("orig"));
        Path inst = Files.createDirectories(tmp.resolve("inst"));
        // o2.c as a library (main renamed), and a program calling it
        NativeCompiler.c()
                .compile(tmp.resolve("o2.c"), orig.resolve("libo2.so"), "-O2", "-shared", "-fPIC", "-Dmain=o2_main");
        Files.writeString(
                tmp.resolve("use.c"),
                "int o2_main(int, char **);\nint main(int c, char **v) { return o2_main(c, v); }\n");
        Path use = TestPrograms.cc(tmp, "use", "-O2", "use.c", "-L" + orig, "-lo2");
        InstrumentPlan plan = plan(orig.resolve("libo2.so"));
        assertTrue(plan.instrumented().size() >= 8, plan.instrumented().toString());
        ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of(), inst.resolve("libo2.so"));
        assertTrue(r.functions() >= 8);
        ProcessResult a = TestPrograms.runWith(tmp, use, orig);
        ProcessResult b = TestPrograms.runWith(tmp, use, inst);
        assertFalse(a.stdout().isEmpty());
        assertEquals(a.stdout(), b.stdout());
        assertEquals(a.exitCode(), b.exitCode(), b.stderr());
        Path hook = TestPrograms.hook(tmp);
        Path countsFile = tmp.resolve("counts.txt");
        ProcessResult h = TestPrograms.runHooked(tmp, use, inst, hook, countsFile);
        assertEquals(a.stdout(), h.stdout());
        Map<String, Long> c = counts(countsFile);
        assertEquals(0L, c.get("bad_slot"), c.toString());
        assertTrue(c.keySet().stream().anyMatch(k -> k.startsWith("libo2.so:")), c.toString());
        for (PlannedFunction f : plan.instrumented()) {
            if (f.function().name().equals("jumper")) {
                assertEquals(7L, c.get("libo2.so:jumper"), c.toString());
            }
        }
    }

    @Test
    void registersSurvivePlannedEntriesThatStartWithACall() throws Exception {
        TestPrograms.source(tmp, "regs.c");
        Path exe = TestPrograms.cc(tmp, "regs", "-O0", "regs.c");
        InstrumentPlan plan = plan(exe);
        List<String> names =
                plan.instrumented().stream().map(f -> f.function().name()).toList();
        assertTrue(names.containsAll(List.of("leaf", "via_call")), names.toString());
        Map<String, Long> c = rewriteAndCompare(exe, plan, Map.of());
        assertEquals(3L, c.get("main:via_call"), c.toString());
        assertEquals(3L, c.get("main:leaf"), c.toString());
        ProcessResult r =
                Command.of(tmp.resolve("regs.inst").toString()).in(tmp).run();
        assertEquals("registers preserved\n", r.stdout());
    }
}
