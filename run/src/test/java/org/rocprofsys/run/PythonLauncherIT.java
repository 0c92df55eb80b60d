package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 35 item 10: rocprof-sys-python behaves as python does. {@code --version} prints the
 * version as the other tools do; {@code -- -m module args} runs the module as {@code python3 -m}
 * (argv, __file__, its functions profiled); a script's {@code __file__} is absolute as python
 * makes it.
 */
class PythonLauncherIT extends DistributionTest {
    private static final String[] PROFILE = {
        "ROCPROFSYS_TRACE", "OFF",
        "ROCPROFSYS_PROFILE", "ON",
        "ROCPROFSYS_USE_SAMPLING", "OFF",
        "ROCPROFSYS_USE_PROCESS_SAMPLING", "OFF",
        "ROCPROFSYS_TIMEMORY_COMPONENTS", "wall_clock trip_count"
    };

    private static final String REPORT = "import sys\n"
            + "def crunch(n):\n"
            + "    return sum(i * i for i in range(n))\n"
            + "print('file=' + __file__)\n"
            + "print('argv=' + ' '.join(sys.argv))\n"
            + "print('name=' + __name__)\n"
            + "print('crunch=%d' % crunch(1000))\n";

    @Test
    void versionIsPrintedLikeTheOtherTools() throws Exception {
        ProcessResult run = tool("rocprof-sys-run", cwd, java.util.Map.of(), "--version");
        ProcessResult python = tool("rocprof-sys-python", cwd, java.util.Map.of(), "--version");
        assertEquals(0, python.exitCode(), python::toString);
        assertEquals(
                run.stdout().strip().replace("rocprof-sys-run", "rocprof-sys-python"),
                python.stdout().strip());
    }

    @Test
    void dashMRunsTheModuleAsPythonDoes() throws Exception {
        Path pkg = Files.createDirectories(cwd.resolve("crunchpkg"));
        Files.writeString(pkg.resolve("__init__.py"), "");
        Files.writeString(pkg.resolve("__main__.py"), REPORT);
        String bare = Command.of("python3", "-m", "crunchpkg", "a", "b").in(cwd).ok();

        ProcessResult r = tool("rocprof-sys-python", environment("dash-m", PROFILE), "--", "-m", "crunchpkg", "a", "b");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(bare, r.stdout(), "the module sees what python -m gives it");
        String profile = Files.readString(outputRoot().resolve("dash-m/wall_clock.txt"));
        assertTrue(profile.contains("crunch"), profile);
        assertTrue(!profile.contains("_run_module"), "runpy's frames are not the program's: " + profile);

        ProcessResult missing =
                tool("rocprof-sys-python", environment("dash-m-missing", PROFILE), "--", "-m", "no_such_module_here");
        assertEquals(1, missing.exitCode(), missing::toString);
        assertTrue(missing.stderr().contains("No module named no_such_module_here"), missing::toString);
        assertTrue(!Files.exists(outputRoot().resolve("dash-m-missing")), "a refused run writes nothing");
    }

    @Test
    void scriptFileIsAbsoluteAsPythonMakesIt() throws Exception {
        Files.writeString(cwd.resolve("report.py"), REPORT);
        String bare = Command.of("python3", "report.py", "x").in(cwd).ok();
        assertTrue(bare.contains("file=" + cwd.resolve("report.py")), bare);

        ProcessResult r = tool("rocprof-sys-python", environment("file", PROFILE), "--", "report.py", "x");
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(bare, r.stdout());
    }
}
