package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launchers: relocatable install tree, any working directory, symlinks, JDK discovery. */
class LauncherIT {
    @TempDir
    Path tmp;

    @Test
    void distributionHasTheInstallLayout() {
        for (String d : new String[] {"bin", "lib", "libexec/rocprofiler-systems", "share/doc/rocprof-sys"}) {
            assertTrue(Files.isDirectory(DistTool.DIST.resolve(d)), d);
        }
        for (String t : new String[] {"avail", "run", "sample", "instrument", "python"}) {
            assertTrue(Files.isExecutable(DistTool.DIST.resolve("bin/rocprof-sys-" + t)), t);
        }
        assertTrue(Files.isRegularFile(DistTool.DIST.resolve("lib/rocprof-sys-config.jar")));
        assertTrue(Files.isRegularFile(DistTool.DIST.resolve("lib/librocprof-sys.so")));
        assertTrue(Files.isRegularFile(DistTool.DIST.resolve("lib/librocprof-sys-user.so")));
        assertTrue(Files.isRegularFile(DistTool.DIST.resolve("include/rocprofiler-systems/user.h")));
    }

    @Test
    void distBinaryRunsThroughASymlinkFromAnotherDirectory() throws Exception {
        Path link = tmp.resolve("my-avail");
        Files.createSymbolicLink(link, DistTool.DIST.resolve("bin/rocprof-sys-avail"));
        var r = DistTool.run(link, tmp, Map.of(), "--version");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().startsWith("rocprof-sys-avail "), r::toString);
    }

    @Test
    void installTreeIsRelocatable() throws Exception {
        Path copy = tmp.resolve("prefix");
        try (var walk = Files.walk(DistTool.DIST)) {
            for (Path p : walk.toList()) {
                if (p.getFileName().toString().endsWith(".jsa")) {
                    continue;
                }
                Path target = copy.resolve(DistTool.DIST.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        var r = DistTool.run(copy.resolve("bin/rocprof-sys-avail"), tmp, Map.of(), "-r", "USE_PID", "--brief");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().contains("ROCPROFSYS_USE_PID"), r::toString);
    }

    @Test
    void repositoryLauncherRunsFromAnyDirectoryAndThroughSymlinks() throws Exception {
        Path link = tmp.resolve("rocprof-sys-avail");
        Files.createSymbolicLink(link, DistTool.REPO.resolve("bin/rocprof-sys-avail"));
        var r = DistTool.run(link, tmp, Map.of(), "--version");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stdout().startsWith("rocprof-sys-avail "), r::toString);
    }

    @Test
    void olderJdkInJavaHomeIsSkipped() throws Exception {
        // a JDK < 25 in JAVA_HOME (Debian's default 17) is passed over for a newer one
        var r = DistTool.tool(
                "rocprof-sys-avail", tmp, Map.of("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64"), "--version");
        assertEquals(0, r.exitCode(), r::toString);
    }
}
