package org.rocprofsys.instrument.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.rocprofsys.elf.ElfConstants;
import org.rocprofsys.elf.ElfFile;

/**
 * A statically linked program (no PT_INTERP: no dynamic loader runs, so LD_PRELOAD is never read):
 * the profiler's library cannot be loaded into it, so nothing is recorded from inside it, neither
 * by a run nor by instrumentation (a rewritten copy's hooks are switched on by that library).
 * Call-stack sampling reads it from outside (perf) and works; these messages say so up front.
 */
public final class StaticProgram {
    private StaticProgram() {}

    /** Whether {@code elf} is a program that runs without the dynamic loader (static, or static-pie). */
    public static boolean is(ElfFile elf) {
        if (elf.hasInterpreter()) {
            return false;
        }
        return elf.type() == ElfConstants.ET_EXEC || (elf.type() == ElfConstants.ET_DYN && elf.pieFlag());
    }

    /** {@link #is} for the file {@code program}; false when it is not an ELF file (a script, say). */
    public static boolean is(Path program) {
        try {
            return is(ElfFile.open(program));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Why a run of {@code program} records nothing from inside it, and what does work. */
    public static String runWarning(String program, boolean sampling) {
        return "'" + program + "' is statically linked: the profiler's library cannot be loaded into it (there is no"
                + " dynamic loader to preload it), so no regions, traces or user annotations of the program are"
                + " recorded"
                + (sampling
                        ? "; its call stacks are sampled from outside (perf)"
                        : "; call-stack sampling works on it: rocprof-sys-sample -- " + program
                                + " (or rocprof-sys-run -S)");
    }

    /** Why {@code program} cannot be instrumented, and what to use instead. */
    public static String instrumentRefusal(String program, boolean rewrite) {
        return "'" + program + "' is statically linked: "
                + (rewrite
                        ? "a rewritten copy's hooks are switched on by the profiler's library, which a static"
                                + " program cannot load, so it would record nothing"
                        : "runtime instrumentation loads the profiler's library into the program, which a static"
                                + " program cannot do")
                + "; sample it instead: rocprof-sys-sample -- " + program
                + " (--simulate still lists the functions)";
    }
}
