package org.rocprofsys.sampler.unwind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rocprofsys.elf.DebugFiles;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.sampler.perf.ExecShim;
import org.rocprofsys.sampler.perf.PerfEventAttr;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfRecord;
import org.rocprofsys.sampler.perf.PerfUnavailableException;
import org.rocprofsys.testkit.CannotStartException;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.Objcopy;

/**
 * A program built -O2 -fomit-frame-pointer (so frame pointers do not hold) runs its hot leaf 6
 * calls under main; perf samples it with the user registers and an 8 KiB stack copy, and every
 * user-mode sample is unwound with the MMAP2 maps. Most samples must unwind through the whole
 * known chain, through main into libc (__libc_start_call_main, __libc_start_main) and end
 * cleanly at _start. Run with .eh_frame CFI, with the program's functions in .debug_frame only,
 * and with that .debug_frame in a separate debug file found through .gnu_debuglink.
 */
class DwarfUnwindEndToEndTest {
    static final List<String> CHAIN = List.of("hot_leaf", "level5", "level4", "level3", "level2", "level1", "main");
    static final int STACK_BYTES = 8192;

    /** A function's [start, end) in link-time addresses, from nm -S. */
    record Sym(String name, long start, long end) {}

    static Path compile(String name, String... flags) throws IOException, InterruptedException {
        Path src = Path.of("src/test/c/unwind/deep.c").toAbsolutePath();
        Path exe = Path.of("target/test-native/unwind").toAbsolutePath().resolve(name);
        NativeCompiler.c().compile(src, exe, flags);
        assertTrue(Files.isExecutable(exe), exe + " was not built");
        return exe.toRealPath();
    }

    static String run(List<String> cmd) throws IOException, InterruptedException {
        try {
            return Command.of(cmd).ok();
        } catch (CannotStartException e) {
            return abort(e.getMessage());
        }
    }

    /** Sized function symbols of {@code nm -S} (with -D: the dynamic symbols). */
    static List<Sym> nm(Path file, boolean dynamic) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("nm", "-S"));
        if (dynamic) {
            cmd.add("-D");
        }
        cmd.add(file.toString());
        List<Sym> out = new ArrayList<>();
        Matcher m =
                Pattern.compile("(?m)^([0-9a-f]+) ([0-9a-f]+) [TtWwi] (\\S+)$").matcher(run(cmd));
        while (m.find()) {
            long start = Long.parseUnsignedLong(m.group(1), 16);
            out.add(new Sym(m.group(3).replaceFirst("@.*", ""), start, start + Long.parseUnsignedLong(m.group(2), 16)));
        }
        return out;
    }

    static String name(List<Sym> syms, long vaddr) {
        for (Sym s : syms) {
            if (vaddr >= s.start() && vaddr < s.end()) {
                return s.name();
            }
        }
        return null;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "eh_frame, deep_eh, -O2 -fomit-frame-pointer",
        "debug_frame, deep_dbg, -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables -g",
        "separate_debug_frame, deep_split, -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables -fno-unwind-tables -g"
    })
    void omitFramePointerProgramUnwindsToMainAndIntoLibc(String what, String exeName, String flags) throws Exception {
        assumeTrue(System.getProperty("os.arch").equals("amd64"), "x86-64 unwinding");
        Path built = compile(exeName, flags.split(" "));
        Path exe = what.equals("separate_debug_frame") ? splitDebugFile(built) : built;
        List<Sym> exeSyms = nm(exe, false);
        for (String f : CHAIN) {
            assertTrue(exeSyms.stream().anyMatch(s -> s.name().equals(f)), f + " in nm output");
        }
        ElfFile img = ElfFile.open(exe);
        if (what.endsWith("debug_frame")) {
            long leaf = exeSyms.stream()
                    .filter(s -> s.name().equals("hot_leaf"))
                    .findFirst()
                    .orElseThrow()
                    .start();
            CfiTable t = CfiTable.load(img);
            if (what.equals("separate_debug_frame")) {
                assertTrue(t.find(leaf) == null, "the stripped program has no CFI for hot_leaf");
                ElfFile debug = DebugFiles.system().open(img).orElseThrow(() -> new AssertionError("the debug file"));
                t = CfiTable.load(img, debug);
            }
            assertTrue(t.hasDebugFrame(), "the program (or its debug file) has .debug_frame");
            assertNotNull(t.find(leaf), "hot_leaf has an FDE (in .debug_frame)");
        }

        // Launch: a shim waits on stdin, the events are opened on it with enable_on_exec, then it execs.
        PerfEventAttr attr = PerfEventAttr.clockSampling(false, 1000)
                .userOnly()
                .withUserStack(PerfEventAttr.X86_64_REGS_UNWIND, STACK_BYTES);
        PerfEvents.warmUp();
        Process shim = ExecShim.start(exe, "1000");
        List<PerfRecord> records = new ArrayList<>();
        try (PerfEvents events = PerfEvents.openOnExec((int) shim.pid(), attr, 8)) {
            ExecShim.releaseAndDrain(shim, events, records, 10);
            System.out.printf("unwind e2e (%s): %d records, %d lost%n", what, records.size(), events.lostRecords());
        } catch (PerfUnavailableException e) {
            shim.destroyForcibly();
            abort("perf_event_open is not usable here: " + e.getMessage());
        }
        String out = new String(shim.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(shim.waitFor(10, TimeUnit.SECONDS) && shim.exitValue() == 0, out);
        Matcher pm = Pattern.compile("pid=(\\d+)").matcher(out);
        assertTrue(pm.find(), out);
        int pid = Integer.parseInt(pm.group(1));

        AddressSpace maps = new AddressSpace();
        PerfRecord.Mmap exeMap = null;
        PerfRecord.Mmap libcMap = null;
        for (PerfRecord r : records) {
            if (r instanceof PerfRecord.Mmap m && m.pid() == pid) {
                addExecutable(maps, m);
                if (!m.data() && m.filename().equals(exe.toString())) {
                    exeMap = m;
                }
                if (!m.data() && m.filename().matches(".*/libc\\.so\\.6$")) {
                    libcMap = m;
                }
            }
        }
        assertNotNull(exeMap, "an MMAP2 record of the executable's text");
        assertNotNull(libcMap, "an MMAP2 record of libc's text");
        // The load bias from the record alone (text PT_LOAD has vaddr == offset in gcc/ld output),
        // checked against the ELF reader's.
        long exeBias = exeMap.address() - exeMap.pageOffset();
        assertEquals(exeBias, ModuleCache.loadBias(img, exeMap.address(), exeMap.pageOffset()), "executable load bias");
        Path libc = Path.of(libcMap.filename());
        long libcBias = ModuleCache.loadBias(ElfFile.open(libc), libcMap.address(), libcMap.pageOffset());
        List<Sym> libcSyms = nm(libc, true);
        PerfRecord.Mmap lm = libcMap;

        Unwinder unwinder = new Unwinder();
        int inChain = 0;
        int toMain = 0;
        int intoLibc = 0;
        int libcStartMain = 0;
        int outermost = 0;
        long depthSum = 0;
        int user = 0;
        Map<UnwindResult.Stop, Integer> stops = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        long t0 = System.nanoTime();
        List<UnwindResult> results = new ArrayList<>();
        List<PerfRecord.Sample> samples = new ArrayList<>();
        for (PerfRecord r : records) {
            if (r instanceof PerfRecord.Sample s && s.pid() == pid && s.userMode() && s.userRegsAbi() == 2) {
                samples.add(s);
                results.add(unwind(unwinder, s, attr.sampleRegsUser(), maps));
            }
        }
        long unwindNs = System.nanoTime() - t0;
        long t1 = System.nanoTime();
        for (int rep = 0; rep < 5; rep++) {
            for (PerfRecord.Sample s : samples) {
                unwind(unwinder, s, attr.sampleRegsUser(), maps);
            }
        }
        long warmNs = (System.nanoTime() - t1) / 5;
        for (int i = 0; i < samples.size(); i++) {
            UnwindResult res = results.get(i);
            user++;
            depthSum += res.depth();
            stops.merge(res.stop(), 1, Integer::sum);
            List<String> names = new ArrayList<>();
            for (int k = 0; k < res.pcs().size(); k++) {
                long pc = res.pcs().get(k) - (k == 0 ? 0 : 1); // a return address belongs to its call
                String n = name(exeSyms, pc - exeBias);
                if (n == null && lm.address() <= pc && pc < lm.end()) {
                    n = name(libcSyms, pc - libcBias);
                    n = "libc:" + (n == null ? "?" : n);
                }
                names.add(n == null ? "0x" + Long.toHexString(pc) : n);
            }
            int level = CHAIN.indexOf(names.get(0));
            if (level < 0) {
                continue; // sampled outside the chain (clock_gettime in the vdso, libc, startup)
            }
            inChain++;
            List<String> expected = CHAIN.subList(level, CHAIN.size());
            boolean ok = names.size() >= expected.size()
                    && names.subList(0, expected.size()).equals(expected);
            if (ok) {
                toMain++;
                List<String> rest = names.subList(expected.size(), names.size());
                if (!rest.isEmpty() && rest.get(0).startsWith("libc:")) {
                    intoLibc++;
                }
                if (rest.contains("libc:__libc_start_main")) {
                    libcStartMain++;
                }
                if (res.stop() == UnwindResult.Stop.OUTERMOST
                        && rest.get(rest.size() - 1).equals("_start")) {
                    outermost++;
                }
            } else if (failures.size() < 5) {
                failures.add(names + " " + res.stop() + " " + res.detail());
            }
        }
        double pct = 100.0 * toMain / Math.max(1, inChain);
        System.out.printf(
                "unwind e2e (%s): %d user samples, %d in the chain; %d (%.1f %%) unwind to main, %d into"
                        + " libc, %d through __libc_start_main, %d end at _start (outermost); mean depth %.2f;"
                        + " stops %s; %.1f us per unwind (first pass, cold caches), %.1f us warm%n",
                what,
                user,
                inChain,
                toMain,
                pct,
                intoLibc,
                libcStartMain,
                outermost,
                (double) depthSum / Math.max(1, user),
                stops,
                unwindNs / 1e3 / Math.max(1, user),
                warmNs / 1e3 / Math.max(1, user));
        failures.forEach(f -> System.out.println("  not unwound: " + f));
        assertTrue(inChain >= 300, inChain + " samples in the chain of " + user);
        assertTrue(toMain >= inChain * 0.8, String.format("%.1f %% unwound to main: %s", pct, failures));
        assertTrue(intoLibc >= toMain * 0.8, intoLibc + " of " + toMain + " continue into libc");
        assertTrue(outermost >= toMain * 0.8, outermost + " of " + toMain + " end cleanly at _start");
        assertTrue(libcStartMain >= toMain * 0.8, libcStartMain + " of " + toMain + " pass __libc_start_main");
    }

    /**
     * A copy of {@code exe} whose DWARF (its .debug_frame too) is in a debug file beside it, found
     * through the copy's .gnu_debuglink, as distributions ship their -dbg packages: the unwinder
     * finds the program's CFI only there.
     */
    static Path splitDebugFile(Path exe) throws IOException, InterruptedException {
        try {
            return Objcopy.split(
                    exe,
                    "--strip-debug",
                    exe.resolveSibling(exe.getFileName() + "_stripped.debug"),
                    exe.resolveSibling(exe.getFileName() + "_stripped"));
        } catch (CannotStartException e) {
            return abort(e.getMessage());
        }
    }

    /** The unwinder's entry from a perf sample, as PerfSamplingSource calls it. */
    static UnwindResult unwind(Unwinder unwinder, PerfRecord.Sample s, long regsMask, AddressSpace maps) {
        RegisterSet regs = X86Regs.fromPerf(regsMask, s.userRegs());
        return unwinder.unwind(regs, s.userStack(), regs.sp(), maps);
    }

    /** An MMAP2 record's executable mapping (data and non-executable mappings are not code). */
    static void addExecutable(AddressSpace maps, PerfRecord.Mmap m) {
        if (m.data() || (m.mmap2() && (m.prot() & PROT_EXEC) == 0)) {
            return;
        }
        maps.add(new AddressSpace.Mapping(m.address(), m.end(), m.pageOffset(), m.filename()));
    }

    private static final int PROT_EXEC = 4;
}
