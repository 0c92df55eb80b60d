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
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Runtime mode end to end without the agent: the plan file written by {@link RuntimePlanWriter},
 * applied in memory by the stand-in (hook.c's apply_plan: map near the module, relocate, patch
 * the entries, as the contract tells the agent to), on unmodified programs and libraries.
 */
class RuntimePlanRunTest {
    @TempDir
    Path tmp;

    private Map<String, Long> runWithPlan(
            Path plan, ProcessResult expected, Map<String, String> extraEnv, String... cmd) throws Exception {
        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts.txt");
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("LD_PRELOAD", hook.toString());
        env.put("HOOK_OUT", counts.toString());
        env.put("ROCPROFSYS_INSTRUMENT_PLAN", plan.toString());
        ProcessResult r = Command.of(cmd).in(tmp).env(env).run();
        assertFalse(expected.stdout().isEmpty());
        assertEquals(expected.stdout(), r.stdout(), r.stderr());
        assertEquals(expected.exitCode(), r.exitCode(), r.stderr());
        Map<String, Long> c = PlannedRewriteTest.counts(counts);
        assertEquals(0L, c.get("bad_slot"), c.toString());
        assertEquals(0L, c.get("misaligned_stack"), c.toString());
        return c;
    }

    @Test
    void handPlannedProgramsRunIdentically() throws Exception {
        TestPrograms.source(tmp, "prog.c");
        for (String[] flags : List.of(new String[] {"-fPIE", "-pie"}, new String[] {"-fno-PIE", "-no-pie"})) {
            Path exe = TestPrograms.cc(tmp, "prog", flags[0], flags[1], "-O0", "prog.c");
            InstrumentPlan plan = TestPrograms.plan(exe, flags[1].equals("-pie"), ElfRewriterTest.PROG_FUNCS);
            Path planFile = tmp.resolve("plan.bin");
            RuntimePlanWriter.write(
                    planFile, List.of(RuntimePlanWriter.Module.of(exe, AreaBuilder.build(plan, Map.of()))));
            ProcessResult expected = Command.of(exe.toString()).in(tmp).run();
            Map<String, Long> c = runWithPlan(planFile, expected, Map.of(), exe.toString());
            for (var e : ElfRewriterTest.PROG_COUNTS.entrySet()) {
                assertEquals(e.getValue(), c.get("main:" + e.getKey()), e.getKey() + " in " + c);
            }
        }
    }

    @Test
    void plannedProgramLibraryAndCxxRunIdentically() throws Exception {
        TestPrograms.source(tmp, "o2.c");
        TestPrograms.source(tmp, "cxx.cpp");
        Path lib = tmp.resolve("libo2.so");
        NativeCompiler.c()
                .compile(lib, List.of("-O2", "-shared", "-fPIC", "-Dmain=o2_main", "-o", lib.toString(), "o2.c"));
        Files.writeString(tmp.resolve("use.c"), """
                #include <stdio.h>
                int o2_main(int, char **);
                __attribute__((noinline)) int twice(int x) { printf("twice %d\\n", x); return 2 * x; }
                int main(int c, char **v) { return o2_main(c, v) + twice(c); }
                """);
        Path use = TestPrograms.cc(tmp, "use", "-O2", "use.c", "-L" + tmp, "-lo2", "-Wl,-rpath," + tmp);
        List<RuntimePlanWriter.Module> mods = new ArrayList<>();
        for (Path m : List.of(use, lib)) {
            InstrumentPlan p = PlannedRewriteTest.plan(m);
            assertFalse(p.instrumented().isEmpty(), m.toString());
            mods.add(RuntimePlanWriter.Module.of(m, AreaBuilder.build(p, Map.of())));
        }
        Path planFile = tmp.resolve("plan.bin");
        RuntimePlanWriter.write(planFile, mods);
        Map<String, Long> c =
                runWithPlan(planFile, Command.of(use.toString()).in(tmp).run(), Map.of(), use.toString());
        assertEquals(1L, c.get("main:twice"), c.toString());
        assertEquals(7L, c.get("libo2.so:jumper"), c.toString());

        NativeCompiler.cxx()
                .compile(
                        tmp.resolve("cxx"),
                        List.of("-O2", "-o", tmp.resolve("cxx").toString(), "cxx.cpp"));
        Path cxx = tmp.resolve("cxx");
        InstrumentPlan p = PlannedRewriteTest.plan(cxx);
        RuntimePlanWriter.write(planFile, List.of(RuntimePlanWriter.Module.of(cxx, AreaBuilder.build(p, Map.of()))));
        Map<String, Long> cc =
                runWithPlan(planFile, Command.of(cxx.toString()).in(tmp).run(), Map.of(), cxx.toString());
        assertEquals(5L, cc.get("main:catcher"), cc.toString());
        assertTrue(cc.get("main:thrower") >= 5, cc.toString());
    }
}
