package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 35 item 8: a statically linked program (gcc -static, and -static-pie) cannot load the
 * profiler's library. rocprof-sys-run says so up front and names sampling, rocprof-sys-instrument
 * refuses runtime instrumentation and a rewrite (which would record nothing) with the reason, and
 * rocprof-sys-sample profiles the program's own function.
 */
class StaticBinaryIT extends DistributionTest {
    /** A known amount of CPU work in one function (no wall clock involved). */
    private static final String SOURCE = "#include <stdio.h>\n#include <stdlib.h>\n"
            + "__attribute__((noinline)) double static_work(long n) {\n"
            + "    volatile double s = 0; for (long i = 0; i < n; i++) s += i * 0.5; return s;\n}\n"
            + "int main(int argc, char **argv) {\n"
            + "    long n = argc > 1 ? atol(argv[1]) : 1000;\n"
            + "    printf(\"%.1f\\n\", static_work(n));\n    return 7;\n}\n";

    private Path program;
    private Path pie;

    @BeforeEach
    void build() throws Exception {
        assumeTrue(
                Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libc.a")),
                "no libc.a (libc6-dev) to link a static program");
        Path src = cwd.resolve("static_work.c");
        Files.writeString(src, SOURCE);
        program = NativeCompiler.c().compile(src, cwd.resolve("static_work"), "-O1", "-g", "-static");
        pie = NativeCompiler.c().compile(src, cwd.resolve("static_work_pie"), "-O1", "-g", "-static-pie");
    }

    @Test
    void runWarnsUpFrontAndNamesSampling() throws Exception {
        for (Path p : new Path[] {program, pie}) {
            ProcessResult r =
                    tool("rocprof-sys-run", cwd, environment("run-" + p.getFileName()), "--", p.toString(), "1000");
            assertEquals(7, r.exitCode(), r::toString);
            assertEquals("249750.0\n", r.stdout());
            assertTrue(r.stderr().contains("warning: '" + p + "' is statically linked"), r::toString);
            assertTrue(r.stderr().contains("rocprof-sys-sample -- " + p), r::toString);
            // the warning comes before the program runs, not after empty outputs
            assertTrue(r.stderr().indexOf("statically linked") < r.stderr().indexOf("exited with code"), r::toString);
        }
    }

    @Test
    void dynamicProgramsDrawNoWarning() throws Exception {
        ProcessResult r = tool("rocprof-sys-run", cwd, environment("dynamic"), "--", "true");
        assertEquals(0, r.exitCode(), r::toString);
        assertFalse(r.stderr().contains("statically linked"), r::toString);
    }

    @Test
    void instrumentRefusesWithTheReason() throws Exception {
        ProcessResult runtime =
                tool("rocprof-sys-instrument", cwd, environment("instr-runtime"), "--", program.toString(), "1000");
        assertEquals(1, runtime.exitCode(), runtime::toString);
        assertTrue(runtime.stderr().contains("is statically linked: runtime instrumentation"), runtime::toString);
        assertTrue(runtime.stderr().contains("rocprof-sys-sample -- " + program), runtime::toString);
        assertFalse(runtime.stdout().contains("249750"), "the program is not run: " + runtime);

        Path copy = cwd.resolve("static_work.inst");
        ProcessResult rewrite = tool(
                "rocprof-sys-instrument",
                cwd,
                environment("instr-rewrite"),
                "-o",
                copy.toString(),
                "--",
                pie.toString());
        assertEquals(1, rewrite.exitCode(), rewrite::toString);
        assertTrue(rewrite.stderr().contains("is statically linked: a rewritten copy"), rewrite::toString);
        assertFalse(Files.exists(copy), "nothing is written");

        // --simulate still lists the functions
        ProcessResult simulate = tool(
                "rocprof-sys-instrument",
                cwd,
                environment("instr-simulate"),
                "--simulate",
                "-i",
                "1",
                "--",
                program.toString());
        assertEquals(0, simulate.exitCode(), simulate::toString);
        assertTrue(Files.readString(outputRoot().resolve("instr-simulate/instrumentation/instrumented.txt"))
                .contains("static_work"));
    }

    @Test
    void sampleProfilesTheStaticProgram() throws Exception {
        // 300 million iterations: some hundreds of milliseconds of CPU time, sampled at 500 Hz of
        // the program's own CPU time (perf cpu-clock), whatever the machine's load
        ProcessResult r = CallStackSampling.orSkip(tool(
                "rocprof-sys-sample",
                cwd,
                environment("sample"),
                "-P",
                "-f",
                "500",
                "-w",
                "0",
                "--",
                program.toString(),
                "300000000"));
        assertEquals(7, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("is statically linked"), r::toString);
        String profile = Files.readString(outputRoot().resolve("sample/sampling_wall_clock.txt"));
        assertTrue(profile.contains("static_work"), profile);
    }
}
