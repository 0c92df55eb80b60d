package org.rocprofsys.instrument.plan;

import static org.junit.jupiter.api.Assertions.*;
import static org.rocprofsys.instrument.plan.PlannerTest.anySize;
import static org.rocprofsys.instrument.plan.PlannerTest.planned;
import static org.rocprofsys.instrument.plan.PlannerTest.reasons;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.instrument.capstone.Insn;
import org.rocprofsys.instrument.select.SelectionMessage;
import org.rocprofsys.instrument.select.SelectionOptions;

/** C++ names and linkage, shared libraries and the PLT, -O2 code, aliases and overlaps. */
class PlannerModulesTest {
    static final String CXX = """
            #include <stdexcept>
            namespace ns {
            struct Widget {
              int v;
              __attribute__((noinline)) int compute(int x) const {
                int s = 0; for (int i = 0; i < x; i++) s += i * v;
                if (s < 0) throw std::runtime_error("neg");
                return s; }
            };
            }
            template <typename T> __attribute__((noinline)) T twice(T x) { return x + x; }
            __attribute__((noinline)) int thrower(int x) { if (x > 100) throw std::runtime_error("big"); return x; }
            int main(int argc, char **) {
              ns::Widget w{argc};
              try { return w.compute(argc) + twice<int>(argc) + (int) twice<double>(1.0) + thrower(argc); }
              catch (std::exception &) { return 1; }
            }
            """;
    static final String LIB = """
            #include <stdio.h>
            static int impl_one(void) { return 1; }
            static void *resolve_ifn(void) { return (void *) impl_one; }
            int ifn(void) __attribute__((ifunc("resolve_ifn")));
            int lib_inner(int x) { int s = 0; for (int i = 0; i < x; i++) s += i ^ x; return s; }
            int lib_outer(int x) { puts("hi"); return lib_inner(x) + 1; }
            int lib_switch(int x) {
              switch (x) { case 0: return 3; case 1: return 5; case 2: return 9; case 3: return 11;
                           case 4: return 17; case 5: return 23; case 6: return 29; default: return 0; } }
            __asm__(".text\\n"
              ".globl al_one\\n.type al_one,@function\\n.globl __al_two\\n.type __al_two,@function\\n"
              "al_one:\\n__al_two:\\n  pushq %rbp\\n  movq %rsp, %rbp\\n  movl $1, %eax\\n  popq %rbp\\n  ret\\n"
              ".size al_one, .-al_one\\n.size __al_two, .-__al_two\\n"
              ".globl ov_a\\n.type ov_a,@function\\n.globl ov_b\\n.type ov_b,@function\\n"
              "ov_a:\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n"
              "ov_b:\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  nop\\n  ret\\n"
              ".size ov_a, 12\\n.size ov_b, 13\\n");
            """;

    @TempDir
    static Path dir;

    static Path cxx;
    static Path lib;

    @RegisterExtension
    static final OpenCapstone CS = new OpenCapstone();

    @BeforeAll
    static void build() throws Exception {
        cxx = TestBinaries.compile(dir, "cxxprog", CXX, true, "-O1", "-fno-inline");
        lib = TestBinaries.compileC(dir, "libplan.so", LIB, "-O2", "-shared", "-fPIC");
    }

    static PlanResult plan(Path bin, PlannerOptions o) throws Exception {
        return CS.plan(bin, o);
    }

    @Test
    void cxxNamesLinkageAndLabels() throws Exception {
        PlanResult r = plan(cxx, PlannerOptions.of(anySize().build()));
        Map<String, String> why = reasons(r);
        Map<String, PlannedFunction> p = planned(r);
        // functions defined in a class body and template instances are weak (COMDAT): not in the default linkage
        assertEquals("linkage-constraint", why.get("ns::Widget::compute"), why.toString());
        assertEquals("linkage-constraint", why.get("twice<int>"));
        assertTrue(p.containsKey("thrower"), why.toString());
        FunctionInfo tw = r.plan().available().stream()
                .filter(f -> f.name().equals("twice<int>"))
                .findFirst()
                .orElseThrow();
        assertEquals("int twice<int>(int)", tw.signature());
        assertEquals("weak", tw.linkage());

        PlannerOptions withWeak = new PlannerOptions(
                anySize().linkage(Set.of("global", "local", "weak", "unique")).build(),
                LabelFormat.of(Set.of("args", "return")),
                0,
                false);
        r = plan(cxx, withWeak);
        p = planned(r);
        assertNotNull(p.get("ns::Widget::compute"), reasons(r).toString());
        assertEquals("ns::Widget::compute(int)", p.get("ns::Widget::compute").label());
        // twice<int> is "lea eax, [rdi+rdi]; ret": 4 bytes, no room for the jump
        assertEquals("too-short-for-patch", reasons(r).get("twice<int>"));
        assertEquals("double twice<double>(double)", p.get("twice<double>").label());
        assertEquals("thrower(int)", p.get("thrower").label());

        Path withLines = TestBinaries.compile(dir, "cxxlines", CXX, true, "-O1", "-fno-inline", "-g");
        r = plan(
                withLines,
                new PlannerOptions(anySize().build(), LabelFormat.of(Set.of("args", "file", "line")), 0, false));
        // thrower is defined on line 12 of the source; the file as the line program names it
        assertEquals("thrower(int) [cxxlines.cpp:12]", planned(r).get("thrower").label());

        // with debug information, module regexes also match the source file (upstream's modules are CUs)
        r = plan(withLines, PlannerOptions.of(anySize().moduleExclude("\\.cpp$").build()));
        assertEquals("module-exclude-regex", reasons(r).get("thrower"));
        assertTrue(r.messages().stream()
                .map(SelectionMessage::format)
                .toList()
                .contains("[module][Skipping] module-exclude-regex :: 'cxxlines.cpp'..."));
        r = plan(cxx, PlannerOptions.of(anySize().moduleExclude("\\.cpp$").build()));
        assertTrue(planned(r).containsKey("thrower"), "no line table, so only the ELF path is matched");
    }

    @Test
    void sharedLibraryPltCallsAliasesAndOverlaps() throws Exception {
        PlanResult r = plan(
                lib,
                PlannerOptions.of(SelectionOptions.builder()
                        .minInstructions(10_000)
                        .callerInclude("^lib_inner$")
                        .build()));
        assertTrue(r.plan().sharedObject());
        // lib_outer calls lib_inner through the PLT (a global of a shared library may be interposed)
        assertEquals(Set.of("lib_outer"), planned(r).keySet(), reasons(r).toString());
        r = plan(
                lib,
                PlannerOptions.of(SelectionOptions.builder()
                        .minInstructions(10_000)
                        .callerInclude("^puts$")
                        .build()));
        assertEquals(Set.of("lib_outer"), planned(r).keySet());

        r = plan(lib, PlannerOptions.of(anySize().build()));
        Map<String, String> why = reasons(r);
        assertEquals("overlapping", why.get("ov_a"));
        assertEquals("overlapping", why.get("ov_b"));
        assertEquals(
                Set.of("ov_a", "ov_b"),
                Set.copyOf(
                        r.plan().overlapping().stream().map(FunctionInfo::name).toList()));
        assertTrue(r.messages().stream()
                .map(SelectionMessage::format)
                .toList()
                .contains("[function][Skipping] overlapping :: 'ov_a'..."));
        // same-address symbols are one function; the name with fewer leading underscores wins
        assertTrue(planned(r).containsKey("al_one"));
        long al = planned(r).get("al_one").function().address();
        assertEquals(List.of("__al_two"), r.aliases().get(al));
        assertEquals(
                1, r.plan().available().stream().filter(f -> f.address() == al).count());

        // the IFUNC symbol's address is its resolver's
        long ifn = r.plan().available().stream()
                .filter(f -> f.name().equals("ifn") || f.name().equals("resolve_ifn"))
                .findFirst()
                .orElseThrow()
                .address();
        assertEquals(
                "ifunc-resolver",
                r.plan().excluded().stream()
                        .filter(e -> e.function().address() == ifn)
                        .findFirst()
                        .orElseThrow()
                        .reason());

        r = plan(lib, PlannerOptions.of(anySize().allowOverlapping(true).build()));
        assertTrue(planned(r).keySet().containsAll(Set.of("ov_a", "ov_b")));
    }

    @Test
    void optimizedSwitchEntryIsRelocated() throws Exception {
        PlanResult r = plan(
                lib,
                PlannerOptions.of(SelectionOptions.builder()
                        .functionRestrict("^lib_switch$")
                        .build()));
        PlannedFunction sw = planned(r).get("lib_switch");
        assertNotNull(sw, reasons(r).toString());
        long area = ElfFile.open(lib).highestLoadEnd() + 0x4000_0000L - 0x1000;
        List<Insn> orig = CS.get()
                .disassemble(
                        ElfFile.open(lib).bytesAt(sw.function().address(), sw.patchLength()),
                        sw.function().address());
        List<Insn> moved = PlannerTest.relocateAndDecode(CS.get(), sw, area);
        assertEquals(orig.size(), moved.size());
        for (int i = 0; i < orig.size(); i++) {
            assertEquals(orig.get(i).mnemonic(), moved.get(i).mnemonic());
            if (orig.get(i).branch() != null)
                assertEquals(
                        orig.get(i).branch().target(), moved.get(i).branch().target());
            if (orig.get(i).rip() != null)
                assertEquals(orig.get(i).rip().target(), moved.get(i).rip().target());
        }
    }
}
