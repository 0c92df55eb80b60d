package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.DistributionTest;

/** The launchers: relocatable install tree, any working directory, symlinks, JDK discovery. */
class LauncherIT extends DistributionTest {
    @TempDir
    Path tmp;

    @Test
    void distributionHasTheInstallLayout() {
        for (String d : new String[] {"bin", "lib", "libexec/rocprofiler-systems", "share/doc/rocprof-sys"}) {
            assertTrue(Files.isDirectory(DIST.resolve(d)), d);
        }
        for (String t : new String[] {"avail", "run", "sample", "instrument", "python"}) {
            assertTrue(Files.isExecutable(DIST.resolve("bin/rocprof-sys-" + t)), t);
        }
        assertTrue(Files.isRegularFile(DIST.resolve("lib/rocprof-sys-config.jar")));
        assertTrue(Files.isRegularFile(DIST.resolve("lib/librocprof-sys.so")));
        assertTrue(Files.isRegularFile(DIST.resolve("lib/librocprof-sys-user.so")));
        assertTrue(Files.isRegularFile(DIST.resolve("include/rocprofiler-systems/user.h")));
    }

    @Test
    void distBinaryRunsThroughASymlinkFromAnotherDirectory() throws Exception {
        assertVersionThroughSymlink(tmp.resolve("my-avail"), DIST.resolve("bin/rocprof-sys-avail"));
    }

    @Test
    void installTreeIsRelocatable() throws Exception {
        Path copy = copyOfTheInstall(tmp.resolve("prefix"));
        var r = launch(copy.resolve("bin/rocprof-sys-avail"), tmp, Map.of(), "-r", "USE_PID", "--brief");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("ROCPROFSYS_USE_PID"), r::toString);
    }

    @Test
    void repositoryLauncherRunsFromAnyDirectoryAndThroughSymlinks() throws Exception {
        assertVersionThroughSymlink(tmp.resolve("rocprof-sys-avail"), REPO.resolve("bin/rocprof-sys-avail"));
    }

    @Test
    void olderJdkInJavaHomeIsSkipped() throws Exception {
        // a JDK < 25 in JAVA_HOME (Debian's default 17) is passed over for a newer one
        var r = tool("rocprof-sys-avail", tmp, Map.of("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64"), "--version");
        assertEquals(0, r.exitCode(), r::toString);
    }

    /** {@code link} to rocprof-sys-avail {@code target}, run from the test's folder, prints the version. */
    private void assertVersionThroughSymlink(Path link, Path target) throws Exception {
        Files.createSymbolicLink(link, target);
        var r = launch(link, tmp, Map.of(), "--version");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().startsWith("rocprof-sys-avail "), r::toString);
    }
}
