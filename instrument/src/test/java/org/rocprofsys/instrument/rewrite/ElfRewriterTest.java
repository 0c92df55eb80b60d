package org.rocprofsys.instrument.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.instrument.area.Area;
import org.rocprofsys.instrument.area.AreaBuilder;
import org.rocprofsys.instrument.area.AreaReader;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

class ElfRewriterTest {
    @TempDir
    Path tmp;

    /** The test program prog.c built at -O0 as {@code prog} in {@code tmp}. */
    private Path prog() throws IOException, InterruptedException {
        TestPrograms.source(tmp, "prog.c");
        return TestPrograms.cc(tmp, "prog", "-O0", "prog.c");
    }

    static final Set<String> PROG_FUNCS = new LinkedHashSet<>(
            List.of("fib", "sum_array", "scale", "many_args", "make_big", "shout", "cmp_long", "main"));

    /** Expected entries per function of prog.c run without arguments. */
    static final Map<String, Long> PROG_COUNTS = Map.of(
            "fib",
            1973L + 177L,
            "sum_array",
            1L,
            "scale",
            1L,
            "many_args",
            1L,
            "make_big",
            1L,
            "shout",
            1L,
            "main",
            1L);

    private ProcessResult runProgram(Path exe, Map<String, String> env, String... args) throws Exception {
        String[] cmd =
                Stream.concat(Stream.of(exe.toString()), Arrays.stream(args)).toArray(String[]::new);
        return Command.of(cmd).in(tmp).env(env).run();
    }

    private void assertSameRun(Path original, Path rewritten, Map<String, String> env, String... args)
            throws Exception {
        ProcessResult a = runProgram(original, env, args);
        ProcessResult b = runProgram(rewritten, env, args);
        assertEquals(a.stdout(), b.stdout(), "stdout");
        assertEquals(a.exitCode(), b.exitCode(), "exit code; stderr: " + b.stderr());
        assertEquals(a.stderr(), b.stderr(), "stderr");
        assertFalse(a.stdout().isEmpty());
    }

    /** readelf -lW shows the two new PT_LOADs and the note; -n the RocProfSys note; -a and objdump -d are clean. */
    private void assertToolsHappy(Path file, ElfRewriter.Result r) throws Exception {
        String phdrs = Command.of("readelf", "-lW", file.toString()).ok();
        String rx =
                String.format("LOAD 0x%06x 0x%016x", r.phdrOffset(), r.areaVaddr() - (r.areaOffset() - r.phdrOffset()));
        assertTrue(phdrs.replaceAll(" +", " ").contains(rx), rx + " in\n" + phdrs);
        assertTrue(phdrs.contains("R E 0x1000"), phdrs);
        assertTrue(phdrs.contains("RW  0x1000"), phdrs);
        String notes = Command.of("readelf", "-nW", file.toString()).ok();
        assertTrue(notes.contains("RocProfSys"), notes);
        String desc = String.format("%016x", Long.reverseBytes(r.areaVaddr())).replaceAll("(..)(?!$)", "$1 ");
        assertTrue(notes.contains("RocProfSys") && notes.contains("description data: " + desc), desc + " in " + notes);
        ProcessResult all = Command.of("readelf", "-aW", file.toString()).run();
        assertEquals(0, all.exitCode());
        assertEquals("", all.stderr(), "readelf -a warnings");
        assertTrue(all.stdout().contains(".rocprofsys.text"), all.stdout());
        ProcessResult dis = Command.of("objdump", "-d", file.toString()).run();
        assertEquals(0, dis.exitCode());
        assertEquals("", dis.stderr(), "objdump -d warnings");
        // the area in the file is valid and applied
        byte[] bytes = Files.readAllBytes(file);
        int size = (int) AreaReaderSize.of(bytes, r.areaOffset());
        AreaReader.Decoded d =
                AreaReader.read(Arrays.copyOfRange(bytes, (int) r.areaOffset(), (int) r.areaOffset() + size));
        assertTrue(d.applied());
        assertEquals(r.areaVaddr(), d.areaVaddr());
    }

    /** Reads area_size from an area header in a file image. */
    static final class AreaReaderSize {
        static long of(byte[] b, long off) {
            int o = (int) off + 56;
            return (b[o] & 0xFFL) | (b[o + 1] & 0xFFL) << 8 | (b[o + 2] & 0xFFL) << 16 | (b[o + 3] & 0xFFL) << 24;
        }
    }

    private Map<String, Long> hookCounts(Path out) throws Exception {
        Map<String, Long> m = new HashMap<>();
        for (String line : Files.readAllLines(out)) {
            String[] p = line.split(" ");
            m.put(p.length == 3 ? p[0] + ":" + p[1] : p[0], Long.parseLong(p[p.length - 1]));
        }
        return m;
    }

    private void rewriteAndRunProgram(String... ccArgs) throws Exception {
        TestPrograms.source(tmp, "prog.c");
        String[] args =
                Stream.concat(Arrays.stream(ccArgs), Stream.of("-O0", "prog.c")).toArray(String[]::new);
        Path exe = TestPrograms.cc(tmp, "prog", args);
        boolean pie = Arrays.asList(ccArgs).contains("-pie");
        InstrumentPlan plan = TestPrograms.plan(exe, pie, PROG_FUNCS);
        Path out = tmp.resolve("prog.inst");
        ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of("ROCPROFSYS_TEST", "1"), out);
        assertEquals(PROG_FUNCS.size(), r.functions());
        assertEquals(r.areaVaddr() % 4096, r.areaOffset() % 4096);
        assertTrue(Files.isExecutable(out));
        assertEquals(Files.getPosixFilePermissions(exe), Files.getPosixFilePermissions(out));

        assertSameRun(exe, out, Map.of());
        assertSameRun(exe, out, Map.of(), "an-argument");
        assertToolsHappy(out, r);
        // every patched entry is a jmp into .rocprofsys.text
        String dis = Command.of("objdump", "-d", "-M", "intel", "--disassemble=fib", out.toString())
                .ok();
        assertTrue(dis.matches("(?s).*<fib>:\\s+[0-9a-f]+:\\s+e9 [0-9a-f ]+\\s+jmp\\s+[0-9a-f]+ <.*"), dis);

        // with an agent stand-in filling enter_fn: every entry counted, slots and alignment right
        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts.txt");
        Map<String, String> env = Map.of("LD_PRELOAD", hook.toString(), "HOOK_OUT", counts.toString());
        assertSameRun(exe, out, env);
        Map<String, Long> c = hookCounts(counts);
        for (var e : PROG_COUNTS.entrySet()) {
            assertEquals(e.getValue(), c.get("main:" + e.getKey()), e.getKey() + " in " + c);
        }
        assertTrue(c.get("main:cmp_long") > 0, c.toString());
        assertEquals(0L, c.get("bad_slot"), c.toString());
        assertEquals(0L, c.get("misaligned_stack"), c.toString());
    }

    @Test
    void pieExecutableRunsIdentically() throws Exception {
        rewriteAndRunProgram("-fPIE", "-pie");
    }

    @Test
    void nonPieExecutableRunsIdentically() throws Exception {
        rewriteAndRunProgram("-fno-PIE", "-no-pie");
    }

    @Test
    void sharedLibraryAndItsProgramRunIdentically() throws Exception {
        TestPrograms.source(tmp, "lib.c");
        TestPrograms.source(tmp, "libmain.c");
        Path orig = Files.createDirectories(tmp.resolve("orig"));
        Path inst = Files.createDirectories(tmp.resolve("inst"));
        Path lib = TestPrograms.cc(
                orig, "libt.so", "-O0", "-shared", "-fPIC", tmp.resolve("lib.c").toString());
        Path exe =
                TestPrograms.cc(orig, "libmain", "-O0", tmp.resolve("libmain.c").toString(), "-L" + orig, "-lt");

        InstrumentPlan libPlan = TestPrograms.plan(
                lib, true, new LinkedHashSet<>(List.of("lib_fib", "lib_add", "lib_mix", "lib_greet")));
        ElfRewriter.Result lr = ElfRewriter.rewrite(libPlan, Map.of(), inst.resolve("libt.so"));
        InstrumentPlan exePlan = TestPrograms.plan(exe, true, new LinkedHashSet<>(List.of("local_twice", "main")));
        ElfRewriter.Result er = ElfRewriter.rewrite(exePlan, Map.of(), inst.resolve("libmain"));
        assertToolsHappy(inst.resolve("libt.so"), lr);
        assertToolsHappy(inst.resolve("libmain"), er);

        ProcessResult a = TestPrograms.runWith(tmp, exe, orig);
        ProcessResult b = Command.of(inst.resolve("libmain").toString())
                .in(tmp)
                .env(Map.of("LD_LIBRARY_PATH", inst.toString()))
                .run();
        assertFalse(a.stdout().isEmpty());
        assertEquals(a.stdout(), b.stdout());
        assertEquals(a.exitCode(), b.exitCode(), b.stderr());

        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts.txt");
        ProcessResult h = TestPrograms.runHooked(tmp, inst.resolve("libmain"), inst, hook, counts);
        assertEquals(a.stdout(), h.stdout());
        assertEquals(a.exitCode(), h.exitCode(), h.stderr());
        Map<String, Long> c = hookCounts(counts);
        assertEquals(465L, c.get("libt.so:lib_fib"), c.toString());
        assertEquals(10L, c.get("libt.so:lib_add"), c.toString());
        assertEquals(1L, c.get("libt.so:lib_mix"), c.toString());
        assertEquals(1L, c.get("libt.so:lib_greet"), c.toString());
        assertEquals(10L, c.get("main:local_twice"), c.toString());
        assertEquals(1L, c.get("main:main"), c.toString());
        assertEquals(0L, c.get("bad_slot"), c.toString());
        assertEquals(0L, c.get("misaligned_stack"), c.toString());
    }

    @Test
    void notAnElfFileIsRefusedWithoutLeavingFiles() throws Exception {
        Path text = tmp.resolve("notes.txt");
        Files.writeString(text, "hello, not an ELF file\n".repeat(10));
        Area area = AreaBuilder.build(List.of(), Map.of(), 0);
        Path outDir = Files.createDirectories(tmp.resolve("out"));
        RewriteException e =
                assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(text, outDir.resolve("x"), area));
        assertTrue(e.getMessage().contains("not an ELF file"), e.getMessage());
        try (var files = Files.list(outDir)) {
            assertEquals(List.of(), files.toList());
        }
        RewriteException missing = assertThrows(
                RewriteException.class, () -> ElfRewriter.rewrite(tmp.resolve("nope"), outDir.resolve("x"), area));
        assertTrue(missing.getMessage().contains("no such file"), missing.getMessage());
    }

    @Test
    void unwritableOutputIsRefusedWithoutLeavingFiles() throws Exception {
        Path exe = prog();
        InstrumentPlan plan = TestPrograms.plan(exe, true, Set.of("fib"));
        Path notDir = tmp.resolve("file");
        Files.writeString(notDir, "x");
        RewriteException e =
                assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(plan, Map.of(), notDir.resolve("out")));
        assertTrue(e.getMessage().startsWith("cannot write " + notDir.resolve("out")), e.getMessage());
        RewriteException e2 = assertThrows(
                RewriteException.class, () -> ElfRewriter.rewrite(plan, Map.of(), tmp.resolve("no/such/dir/out")));
        assertTrue(e2.getMessage().contains("does not exist"), e2.getMessage());
        RewriteException same = assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(plan, Map.of(), exe));
        assertTrue(same.getMessage().contains("replace the input"), same.getMessage());
        if (!"root".equals(System.getProperty("user.name"))) {
            Path ro = Files.createDirectories(tmp.resolve("ro"));
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
            RewriteException e3 =
                    assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(plan, Map.of(), ro.resolve("out")));
            assertTrue(e3.getMessage().contains("permission denied"), e3.getMessage());
        }
    }

    @Test
    void entryOutsideCodeIsRefused() throws Exception {
        Path exe = prog();
        InstrumentPlan good = TestPrograms.plan(exe, true, Set.of("fib"));
        var f = good.instrumented().getFirst();
        var bad = new org.rocprofsys.instrument.plan.PlannedFunction(
                new org.rocprofsys.instrument.plan.FunctionInfo(
                        exe.toString(), "nowhere", "nowhere", 0x10, 0, 1, "global", "default"),
                "nowhere",
                f.patchLength(),
                f.relocatedCode(),
                List.of());
        InstrumentPlan plan = new InstrumentPlan(exe, true, List.of(), List.of(bad), List.of(), List.of(), 0);
        RewriteException e =
                assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(plan, Map.of(), tmp.resolve("o")));
        assertTrue(e.getMessage().contains("not in an executable segment"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("o")));
        try (var files = Files.list(tmp)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")));
        }
    }

    @Test
    void envDefaultsAndModeTravelInTheArea() throws Exception {
        Path exe = prog();
        InstrumentPlan plan = TestPrograms.plan(exe, true, Set.of("fib", "main"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ROCPROFSYS_TRACE", "true");
        env.put("X", "");
        Area area = AreaBuilder.build(plan, env, 2);
        ElfRewriter.Result r = ElfRewriter.rewrite(exe, tmp.resolve("o"), area);
        byte[] bytes = Files.readAllBytes(tmp.resolve("o"));
        AreaReader.Decoded d =
                AreaReader.read(Arrays.copyOfRange(bytes, (int) r.areaOffset(), (int) r.areaOffset() + area.size()));
        assertEquals(env, d.env());
        assertEquals(2, d.mode());
        assertEquals(
                List.of("fib", "main"),
                d.functions().stream().map(Area.Function::label).toList());
    }

    @Test
    void staticExecutablesRunIdentically() throws Exception {
        TestPrograms.source(tmp, "prog.c");
        for (String[] flags : List.of(new String[] {"-static", "-fno-PIE"}, new String[] {"-static-pie", "-fPIE"})) {
            Path exe = TestPrograms.cc(tmp, "sprog", flags[0], flags[1], "-O0", "prog.c");
            InstrumentPlan plan = TestPrograms.plan(exe, flags[0].equals("-static-pie"), PROG_FUNCS);
            ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of(), tmp.resolve("sprog.inst"));
            assertSameRun(exe, tmp.resolve("sprog.inst"), Map.of());
            assertSameRun(exe, tmp.resolve("sprog.inst"), Map.of(), "x");
            assertToolsHappy(tmp.resolve("sprog.inst"), r);
        }
    }

    @Test
    void largeBssAndTlsProgramsAndLibraries() throws Exception {
        TestPrograms.source(tmp, "bss.c");
        for (String[] flags : List.of(new String[] {"-no-pie", "-fno-PIE"}, new String[] {"-pie", "-fPIE"})) {
            Path exe = TestPrograms.cc(tmp, "bss", flags[0], flags[1], "-O0", "bss.c");
            InstrumentPlan plan = TestPrograms.plan(exe, flags[0].equals("-pie"), Set.of("work", "main"));
            Path out = tmp.resolve("bss.inst");
            ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of(), out);
            // a program keeps e_phoff's vaddr = file offset + (first PT_LOAD's vaddr - offset): padded past .bss
            assertTrue(r.phdrOffset() >= 16 << 20, "phdr at " + r.phdrOffset());
            assertSameRun(exe, out, Map.of());
            assertToolsHappy(out, r);
        }
        Path lib = TestPrograms.cc(tmp, "libbss.so", "-DLIB", "-O0", "-shared", "-fPIC", "bss.c");
        InstrumentPlan plan = TestPrograms.plan(lib, true, Set.of("work"));
        Path out = tmp.resolve("libbss.inst.so");
        ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of(), out);
        // a library is not padded
        assertTrue(Files.size(out) < Files.size(lib) + 4 * 4096 + 8192, Files.size(out) + " bytes");
        assertTrue(r.areaVaddr() >= 16 << 20);
        assertToolsHappy(out, r);
        // and it loads and works: a program calling work() through dlopen-free linking
        Files.writeString(
                tmp.resolve("usebss.c"),
                "#include <stdio.h>\nint work(int);\nint main(void){printf(\"%d\\n\", work(4));return 3;}\n");
        Path orig = Files.createDirectories(tmp.resolve("o"));
        Path inst = Files.createDirectories(tmp.resolve("i"));
        Files.copy(lib, orig.resolve("libbss.so"));
        Files.copy(out, inst.resolve("libbss.so"));
        Path use = TestPrograms.cc(tmp, "usebss", "usebss.c", "-L" + orig, "-lbss");
        ProcessResult a = TestPrograms.runWith(tmp, use, orig);
        ProcessResult b = TestPrograms.runWith(tmp, use, inst);
        assertEquals("13\n", a.stdout());
        assertEquals(a.stdout(), b.stdout(), b.stderr());
        assertEquals(3, b.exitCode());
        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts.txt");
        ProcessResult h = TestPrograms.runHooked(tmp, use, inst, hook, counts);
        assertEquals(a.stdout(), h.stdout(), h.stderr());
        assertEquals(1L, hookCounts(counts).get("libbss.so:work"));
    }

    @Test
    void thousandsOfFunctions() throws Exception {
        int n = 3000;
        StringBuilder c = new StringBuilder("#include <stdio.h>\n");
        for (int i = 0; i < n; i++) {
            c.append("int f")
                    .append(i)
                    .append("(int x) { int y = x * ")
                    .append(i % 97 + 1)
                    .append("; return y + ")
                    .append(i)
                    .append("; }\n");
        }
        c.append("typedef int (*fn)(int);\nstatic fn table[] = {");
        for (int i = 0; i < n; i++) {
            c.append("f").append(i).append(',');
        }
        c.append(
                        "};\nint main(void) { long s = 0; for (int r = 0; r < 3; r++) for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) s += table[i](r + (int)i);\n")
                .append("  printf(\"%ld\\n\", s); return (int)(s % 256); }\n");
        Files.writeString(tmp.resolve("many.c"), c);
        Path exe = TestPrograms.cc(tmp, "many", "-O0", "many.c");
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            names.add("f" + i);
        }
        names.add("main");
        InstrumentPlan plan = TestPrograms.plan(exe, true, names);
        Path out = tmp.resolve("many.inst");
        ElfRewriter.rewrite(plan, Map.of(), tmp.resolve("warmup"));
        long t0 = System.nanoTime();
        Area area = AreaBuilder.build(plan, Map.of());
        long t1 = System.nanoTime();
        ElfRewriter.Result r = ElfRewriter.rewrite(exe, out, area);
        long t2 = System.nanoTime();
        System.out.printf(
                "rewrite of %d functions: area %.1f ms, ELF %.1f ms (%.2f ms per 1000 functions in all)%n",
                n + 1, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t2 - t0) / 1e6 / ((n + 1) / 1000.0));
        assertEquals(n + 1, r.functions());
        assertTrue(area.rxSize() > 10 * 4096);
        assertSameRun(exe, out, Map.of());
        assertToolsHappy(out, r);
        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts.txt");
        assertSameRun(exe, out, Map.of("LD_PRELOAD", hook.toString(), "HOOK_OUT", counts.toString()));
        Map<String, Long> m = hookCounts(counts);
        for (int i = 0; i < n; i += 499) {
            assertEquals(3L, m.get("main:f" + i), "f" + i);
        }
        assertEquals(1L, m.get("main:main"));
    }

    @Test
    void debugInformationAndSymbolsSurvive() throws Exception {
        TestPrograms.source(tmp, "prog.c");
        Path exe = TestPrograms.cc(tmp, "gprog", "-g", "-O0", "prog.c");
        InstrumentPlan plan = TestPrograms.plan(exe, true, PROG_FUNCS);
        Path out = tmp.resolve("gprog.inst");
        ElfRewriter.Result r = ElfRewriter.rewrite(plan, Map.of(), out);
        assertSameRun(exe, out, Map.of());
        assertToolsHappy(out, r);
        String nm = Command.of("nm", out.toString()).ok();
        assertEquals(
                Command.of("nm", exe.toString()).ok(),
                nm.lines()
                        .filter(l -> !l.contains(" rocprofsys."))
                        .map(l -> l + "\n")
                        .reduce("", String::concat));
        // the stub and the trampolines have symbols, so tools name them
        assertTrue(nm.contains(" rocprofsys.entry_stub\n") && nm.contains(" rocprofsys.tramp.fib\n"), nm);
        String dis = Command.of("objdump", "-d", "-j", ".rocprofsys.text", out.toString())
                .ok();
        assertTrue(
                dis.contains("<rocprofsys.tramp.fib>:")
                        && dis.contains("call")
                        && dis.contains("<rocprofsys.entry_stub>"),
                dis);
        assertEquals(
                Command.of("readelf", "--debug-dump=info,line", exe.toString())
                        .ok()
                        .replace(exe.toString(), "F"),
                Command.of("readelf", "--debug-dump=info,line", out.toString())
                        .ok()
                        .replace(out.toString(), "F"));
        String fib = "0x"
                + Long.toHexString(plan.instrumented().stream()
                        .filter(f -> f.function().name().equals("fib"))
                        .findFirst()
                        .orElseThrow()
                        .function()
                        .address());
        String line = Command.of("addr2line", "-e", exe.toString(), fib).ok();
        assertTrue(line.contains("prog.c:"), line);
        assertEquals(line, Command.of("addr2line", "-e", out.toString(), fib).ok());
        // the new parts sit right above the loaded bytes and segments, not behind the debug information
        long loadedEnd = 0;
        long maxEnd = 0;
        for (String l : Command.of("readelf", "-lW", exe.toString()).ok().split("\n")) {
            String[] f = l.trim().split("\\s+");
            if (f.length > 5 && f[0].equals("LOAD")) {
                loadedEnd = Math.max(loadedEnd, Long.decode(f[1]) + Long.decode(f[4]));
                maxEnd = Math.max(maxEnd, Long.decode(f[2]) + Long.decode(f[5]));
            }
        }
        long page = 4096;
        assertEquals(Math.max(ElfRewriter.alignUp(loadedEnd, page), ElfRewriter.alignUp(maxEnd, page)), r.phdrOffset());
        assertTrue(loadedEnd < Files.size(exe) - 4096, "debug information follows the loaded bytes");
    }

    @Test
    void cetFeatureBitsAreCleared() throws Exception {
        TestPrograms.source(tmp, "prog.c");
        // the crt objects here carry no CET marking; the linker is told to set the bits anyway
        Path exe = TestPrograms.cc(tmp, "cet", "-O0", "-Wl,-z,ibt", "-Wl,-z,shstk", "prog.c");
        String before = Command.of("readelf", "-n", exe.toString()).ok();
        assertTrue(before.contains("x86 feature: IBT, SHSTK"), before);
        InstrumentPlan plan = TestPrograms.plan(exe, true, Set.of("fib"));
        Path out = tmp.resolve("cet.inst");
        ElfRewriter.rewrite(plan, Map.of(), out);
        String after = Command.of("readelf", "-n", out.toString()).ok();
        assertFalse(after.contains("IBT") || after.contains("SHSTK"), after);
        assertTrue(after.contains("NT_GNU_PROPERTY_TYPE_0"), after);
        assertSameRun(exe, out, Map.of());
    }

    @Test
    void rewrittenFilesAreNotRewrittenAgain() throws Exception {
        Path exe = prog();
        InstrumentPlan plan = TestPrograms.plan(exe, true, Set.of("fib"));
        Path once = tmp.resolve("once");
        ElfRewriter.rewrite(plan, Map.of(), once);
        InstrumentPlan again = TestPrograms.plan(once, true, Set.of("main"));
        RewriteException e =
                assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(again, Map.of(), tmp.resolve("twice")));
        assertTrue(e.getMessage().contains("already instrumented"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("twice")));
    }

    @Test
    void everyRegisterSurvivesAnInstrumentedCall() throws Exception {
        TestPrograms.source(tmp, "regs.c");
        Path exe = TestPrograms.cc(tmp, "regs", "-O0", "regs.c");
        InstrumentPlan plan = TestPrograms.plan(exe, true, Set.of("leaf"));
        Path out = tmp.resolve("regs.inst");
        ElfRewriter.rewrite(plan, Map.of(), out);
        ProcessResult bare = Command.of(out.toString()).in(tmp).run();
        assertEquals("registers preserved\n", bare.stdout());
        Path hook = TestPrograms.hook(tmp);
        Path counts = tmp.resolve("counts.txt");
        ProcessResult hooked = Command.of(out.toString())
                .in(tmp)
                .env(Map.of("LD_PRELOAD", hook.toString(), "HOOK_OUT", counts.toString()))
                .run();
        assertEquals("registers preserved\n", hooked.stdout(), hooked.stderr());
        assertEquals(3L, hookCounts(counts).get("main:leaf"));
    }

    @Test
    void entriesUnderTextRelocationsAreRefused() throws Exception {
        Files.writeString(tmp.resolve("textrel.c"), """
                int counter = 7;
                __asm__(".text\\n.globl tr\\n.type tr,@function\\ntr:\\n"
                        "  movabs $counter, %rax\\n  mov (%rax), %eax\\n  ret\\n.size tr, .-tr\\n");
                int other(int x) { return x + counter; }
                """);
        Path lib = TestPrograms.cc(tmp, "libtr.so", "-O0", "-shared", "-fPIC", "-Wl,-z,notext", "textrel.c");
        InstrumentPlan bad = TestPrograms.plan(lib, true, Set.of("tr"));
        RewriteException e =
                assertThrows(RewriteException.class, () -> ElfRewriter.rewrite(bad, Map.of(), tmp.resolve("o.so")));
        assertTrue(e.getMessage().contains("text relocation") && e.getMessage().contains("tr"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("o.so")));
        InstrumentPlan good = TestPrograms.plan(lib, true, Set.of("other"));
        ElfRewriter.rewrite(good, Map.of(), tmp.resolve("o.so"));
    }

    @Test
    void otherElfKindsAreRefusedClearly() throws Exception {
        Area area = AreaBuilder.build(List.of(), Map.of(), 0);
        TestPrograms.source(tmp, "lib.c");
        NativeCompiler.c()
                .compile(
                        tmp.resolve("lib.o"),
                        List.of("-c", "-o", tmp.resolve("lib.o").toString(), "lib.c"));
        RewriteException rel = assertThrows(
                RewriteException.class, () -> ElfRewriter.rewrite(tmp.resolve("lib.o"), tmp.resolve("x"), area));
        assertTrue(rel.getMessage().contains("not an executable or shared library"), rel.getMessage());
        byte[] elf32 = new byte[64];
        elf32[0] = 0x7f;
        elf32[1] = 'E';
        elf32[2] = 'L';
        elf32[3] = 'F';
        elf32[4] = 1;
        elf32[5] = 1;
        Files.write(tmp.resolve("e32"), elf32);
        RewriteException c32 = assertThrows(
                RewriteException.class, () -> ElfRewriter.rewrite(tmp.resolve("e32"), tmp.resolve("x"), area));
        assertTrue(c32.getMessage().contains("not a 64-bit little-endian ELF file"), c32.getMessage());
        Files.write(tmp.resolve("short"), new byte[] {0x7f, 'E', 'L', 'F'});
        RewriteException sh = assertThrows(
                RewriteException.class, () -> ElfRewriter.rewrite(tmp.resolve("short"), tmp.resolve("x"), area));
        assertTrue(sh.getMessage().contains("not an ELF file"), sh.getMessage());
        // a truncated executable: program headers cut off
        Path exe = prog();
        Files.write(tmp.resolve("cut"), Arrays.copyOf(Files.readAllBytes(exe), 100));
        RewriteException cut = assertThrows(
                RewriteException.class, () -> ElfRewriter.rewrite(tmp.resolve("cut"), tmp.resolve("x"), area));
        assertTrue(cut.getMessage().contains("bad program header table"), cut.getMessage());
        assertFalse(Files.exists(tmp.resolve("x")));
        try (var files = Files.list(tmp)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")));
        }
    }
}
