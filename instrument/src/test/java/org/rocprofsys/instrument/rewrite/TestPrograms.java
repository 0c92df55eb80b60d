package org.rocprofsys.instrument.rewrite;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.instrument.area.Objdump;
import org.rocprofsys.instrument.capstone.Capstone;
import org.rocprofsys.instrument.plan.FunctionInfo;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.LabelFormat;
import org.rocprofsys.instrument.plan.PlannedFunction;
import org.rocprofsys.instrument.plan.Planner;
import org.rocprofsys.instrument.plan.PlannerOptions;
import org.rocprofsys.instrument.select.SelectionOptions;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;
import org.rocprofsys.testkit.ResourceFiles;

/** Compiles the C test programs and hand-plans functions whose first instructions are position-independent. */
final class TestPrograms {
    private TestPrograms() {}

    static final String CFLAGS = "-fcf-protection=none";

    static Path source(Path dir, String name) throws IOException {
        return ResourceFiles.copy(TestPrograms.class, "/rewrite/" + name, dir.resolve(name));
    }

    /** {@code cc CFLAGS -o dir/out args} in {@code dir}, where {@code args} name their sources. */
    static Path cc(Path dir, String out, String... args) throws IOException, InterruptedException {
        List<String> all =
                new ArrayList<>(List.of(CFLAGS, "-o", dir.resolve(out).toString()));
        all.addAll(List.of(args));
        return NativeCompiler.c().compile(dir.resolve(out), all);
    }

    /** Runs {@code program} in {@code dir} with its libraries from {@code libraries}. */
    static ProcessResult runWith(Path dir, Path program, Path libraries) throws IOException, InterruptedException {
        return Command.of(program.toString())
                .in(dir)
                .env("LD_LIBRARY_PATH", libraries.toString())
                .run();
    }

    /**
     * {@link #runWith} with the {@link #hook} library preloaded, writing its call counts to
     * {@code counts}.
     */
    static ProcessResult runHooked(Path dir, Path program, Path libraries, Path hook, Path counts)
            throws IOException, InterruptedException {
        return Command.of(program.toString())
                .in(dir)
                .env(Map.of(
                        "LD_LIBRARY_PATH",
                        libraries.toString(),
                        "LD_PRELOAD",
                        hook.toString(),
                        "HOOK_OUT",
                        counts.toString()))
                .run();
    }

    private static final Pattern FUNC = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");

    /** Instructions (objdump -d, Intel syntax) of each function symbol, in address order. */
    static Map<String, List<Objdump.Insn>> disassemble(Path file) throws IOException, InterruptedException {
        String out = Command.of("objdump", "-d", "-M", "intel", "-j", ".text", file.toString())
                .ok();
        Map<String, List<Objdump.Insn>> funcs = new LinkedHashMap<>();
        List<Objdump.Insn> cur = null;
        StringBuilder block = new StringBuilder();
        String name = null;
        for (String line : (out + "\n\n").split("\n", -1)) {
            Matcher m = FUNC.matcher(line);
            if (m.matches()) {
                name = m.group(2);
                block.setLength(0);
                continue;
            }
            if (line.isBlank() && name != null) {
                funcs.put(name, Objdump.parseObjdump(block.toString()));
                name = null;
                continue;
            }
            if (name != null) {
                block.append(line).append('\n');
            }
        }
        return funcs;
    }

    private static final Pattern SAFE =
            Pattern.compile("^(push|mov|sub|lea|movsd|movss|movq|movd|movabs|endbr64|nop)( .*)?");

    /**
     * A plan patching {@code names}: for each, whole leading instructions (>= 5 bytes) that use
     * no RIP-relative operand and are no branch, copied as they are (no fix-ups).
     */
    static InstrumentPlan plan(Path file, boolean sharedObject, Set<String> names)
            throws IOException, InterruptedException {
        Map<String, List<Objdump.Insn>> funcs = disassemble(file);
        List<PlannedFunction> planned = new ArrayList<>();
        for (String n : names) {
            List<Objdump.Insn> insns = funcs.get(n);
            if (insns == null) {
                throw new IllegalStateException("no function " + n + " in " + file + ": " + funcs.keySet());
            }
            StringBuilder hex = new StringBuilder();
            for (Objdump.Insn i : insns) {
                if (!SAFE.matcher(i.text()).matches() || i.text().contains("rip")) {
                    throw new IllegalStateException(n + ": prologue instruction not position-independent: " + i.text());
                }
                hex.append(i.hex());
                if (hex.length() >= 10) {
                    break;
                }
            }
            byte[] code = HexFormat.of().parseHex(hex.toString());
            long addr = insns.getFirst().address();
            FunctionInfo info = new FunctionInfo(file.toString(), n, n, addr, 0, insns.size(), "global", "default");
            planned.add(new PlannedFunction(info, n, code.length, code, List.of()));
        }
        planned.sort(java.util.Comparator.comparingLong(p -> p.function().address()));
        return new InstrumentPlan(file, sharedObject, List.of(), planned, List.of(), List.of(), 0);
    }

    /** The planner's plan of {@code bin} with {@code selection}, labels by name only. */
    static InstrumentPlan planned(Path bin, SelectionOptions selection) throws Exception {
        try (Capstone cs = Capstone.openX86_64()) {
            return new Planner(cs)
                    .plan(ElfFile.open(bin), new PlannerOptions(selection, LabelFormat.NAME_ONLY, 0, false))
                    .plan();
        }
    }

    /**
     * The plan's functions less compiler fragments ({@code [clone .cold]}): entered by jumps, not
     * calls, so their entry has no return address at [rsp] for a hook.
     */
    static List<PlannedFunction> withoutColdParts(InstrumentPlan plan) {
        return plan.instrumented().stream()
                .filter(f -> !f.function().signature().contains(".cold"))
                .toList();
    }

    /** Builds hook.c (the agent stand-in) as a shared library. */
    static Path hook(Path dir) throws IOException, InterruptedException {
        source(dir, "hook.c");
        return cc(
                dir,
                "libhook.so",
                "-O1",
                "-fno-omit-frame-pointer",
                "-mgeneral-regs-only",
                "-shared",
                "-fPIC",
                "hook.c");
    }
}
