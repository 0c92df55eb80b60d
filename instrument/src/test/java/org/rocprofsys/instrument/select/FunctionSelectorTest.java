package org.rocprofsys.instrument.select;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rocprofsys.instrument.plan.FunctionInfo;

class FunctionSelectorTest {
    static FunctionFacts facts(
            String module,
            String name,
            long size,
            int instructions,
            String linkage,
            String visibility,
            Set<String> calls,
            boolean loops,
            boolean dynamic) {
        return new FunctionFacts(
                new FunctionInfo(module, name, name, 0x1000, size, instructions, linkage, visibility),
                true,
                calls,
                loops,
                dynamic,
                false,
                List.of("push rbp mov rbp, rsp", "imul eax, ecx ret"));
    }

    static FunctionFacts plain(String name) {
        return inModule("/opt/app/bin/app", name);
    }

    /** A plain global function of 400 bytes and 100 instructions in {@code module}. */
    static FunctionFacts inModule(String module, String name) {
        return facts(module, name, 400, 100, "global", "default", Set.of(), false, false);
    }

    static Decision decide(SelectionOptions o, FunctionFacts f) {
        return new FunctionSelector(o).decide(f);
    }

    @Test
    void hardConstraintsCannotBeForced() {
        SelectionOptions forceAll = SelectionOptions.builder()
                .minInstructions(0)
                .functionInclude(".*")
                .build();
        assertEquals(
                "return-hook-unsafe", decide(forceAll, plain("__sigsetjmp")).reason());
        assertEquals("return-hook-unsafe", decide(forceAll, plain("vfork")).reason());
        assertEquals("cold-partition", decide(forceAll, plain("compute.cold")).reason());
        assertEquals("critical", decide(forceAll, plain("std::__detail::foo")).reason());
        assertEquals("critical", decide(forceAll, plain("deregister_tm_clones")).reason());
        assertEquals("critical-whole-match", decide(forceAll, plain("malloc64")).reason());
        assertEquals(
                "recommended-leading-match",
                decide(forceAll, plain("__libc_start_call_main")).reason());
        assertEquals(
                "recommended-trailing-match",
                decide(forceAll, plain("do_work_internal")).reason());
        assertEquals(
                "rocprofsys", decide(forceAll, plain("rocprofsys_push_trace")).reason());
        assertEquals("main-function", decide(forceAll, plain("main")).reason());
        assertEquals(
                "function-include-regex",
                decide(
                                SelectionOptions.builder()
                                        .functionInclude(".*")
                                        .mainFunction("app_main")
                                        .build(),
                                plain("main"))
                        .reason());

        assertExcluded(
                decide(forceAll, inModule("/lib/x86_64-linux-gnu/libc.so.6", "qsort")),
                "internal library",
                "[module][Excluding] internal library :: '/lib/x86_64-linux-gnu/libc.so.6'...");
        assertEquals(
                "rocprofsys",
                decide(forceAll, inModule("/opt/lib/librocprof-sys-dl.so", "f")).reason());
        assertEquals(
                "dependency module",
                decide(forceAll, inModule("/usr/lib/libcupti.so.12", "f")).reason());
        // --internal-module-include lifts the internal-library rule
        assertEquals(
                "function-include-regex",
                decide(
                                SelectionOptions.builder()
                                        .functionInclude(".*")
                                        .internalModuleInclude("libm")
                                        .build(),
                                inModule("/lib/x86_64-linux-gnu/libm.so.6", "cos"))
                        .reason());
        FunctionFacts fromAsm = new FunctionFacts(
                plain("fast_copy").info(), true, Set.of(), false, false, false, List.of(), "memcpy-avx.S");
        assertExcluded(
                decide(forceAll, fromAsm), "file extension", "[module][Excluding] file extension :: 'memcpy-avx.S'...");
        assertEquals(
                "less-than-2-instructions",
                decide(forceAll, facts("/a", "one", 1, 1, "global", "default", Set.of(), false, false))
                        .reason());
    }

    /** {@code d} excludes for {@code reason}, and its first message says {@code message}. */
    private static void assertExcluded(Decision d, String reason, String message) {
        assertEquals(reason, d.reason());
        assertEquals(message, d.messages().getFirst().format());
    }

    @Test
    void orderOfUserRules() {
        // exclude wins over include; include skips linkage and size rules
        SelectionOptions o = SelectionOptions.builder()
                .functionInclude("^work")
                .functionExclude("_slow$")
                .build();
        assertEquals("function-exclude-regex", decide(o, plain("work_slow")).reason());
        FunctionFacts weakSmall = facts("/a", "work_fast", 10, 3, "weak", "hidden", Set.of(), false, false);
        assertTrue(decide(o, weakSmall).instrument());
        assertEquals(
                "linkage-constraint",
                decide(SelectionOptions.builder().minInstructions(0).build(), weakSmall)
                        .reason());
        assertEquals(
                "visibility-constraint",
                decide(
                                SelectionOptions.builder()
                                        .minInstructions(0)
                                        .linkage(Set.of("weak"))
                                        .visibility(Set.of("default"))
                                        .build(),
                                weakSmall)
                        .reason());
        // coverage ignores linkage and visibility
        assertTrue(decide(
                        SelectionOptions.builder()
                                .minInstructions(0)
                                .coverage(true)
                                .build(),
                        weakSmall)
                .instrument());

        // restrict: only matches, and no include forcing
        SelectionOptions r = SelectionOptions.builder()
                .functionRestrict("^run$")
                .functionInclude(".*")
                .build();
        assertEquals("function-restrict-regex", decide(r, plain("other")).reason());
        assertFalse(decide(r, plain("other")).instrument());
        assertTrue(decide(r, plain("run")).instrument());
        SelectionOptions mr =
                SelectionOptions.builder().moduleRestrict("libfoo").build();
        assertEquals(
                "[module][Skipping] module-restrict-regex :: '/opt/app/bin/app'...",
                decide(mr, plain("run")).messages().getFirst().format());

        // sizes: loops use the loop minimums
        SelectionOptions sizes = SelectionOptions.builder()
                .minInstructions(50)
                .minInstructionsLoop(200)
                .build();
        FunctionFacts loop = facts("/a", "loopy", 400, 100, "global", "default", Set.of(), true, false);
        assertEquals("min-instructions-loop", decide(sizes, loop).reason());
        assertTrue(decide(sizes, plain("straight")).instrument());
        assertEquals(
                "min-address-range",
                decide(SelectionOptions.builder().minAddressRange(500).build(), plain("straight"))
                        .reason());

        // dynamic call sites force, before the size rules
        FunctionFacts dyn = facts("/a", "dispatch", 20, 5, "global", "default", Set.of(), false, true);
        assertEquals(
                "dynamic-callsites",
                decide(SelectionOptions.builder().dynamicCallsites(true).build(), dyn)
                        .reason());
        assertEquals(
                "min-address-range", decide(SelectionOptions.defaults(), dyn).reason());

        // caller include
        FunctionFacts outer = facts("/a", "outer", 20, 5, "global", "default", Set.of("inner", "printf"), false, false);
        Decision d = decide(
                SelectionOptions.builder()
                        .minInstructions(256)
                        .callerInclude("^inner")
                        .build(),
                outer);
        assertTrue(d.instrument());
        assertEquals(
                "[function][Forcing] caller-include-regex :: 'outer'...",
                d.messages().getLast().format());

        // instruction text per basic block
        assertEquals(
                "instruction-exclude-regex",
                decide(
                                SelectionOptions.builder()
                                        .minInstructions(0)
                                        .instructionExclude("^imul")
                                        .build(),
                                plain("mul"))
                        .reason());
        assertTrue(decide(
                        SelectionOptions.builder()
                                .minInstructions(0)
                                .instructionExclude("^mov")
                                .build(),
                        plain("mul"))
                .instrument());

        // module exclude on the path
        assertEquals(
                "module-exclude-regex",
                decide(SelectionOptions.builder().moduleExclude("/bin/app$").build(), plain("x"))
                        .reason());
    }
}
