package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.DistributionTest;
import org.rocprofsys.testkit.ProcessResult;

/**
 * Issue 35, item 4: a full disk keeps what fits. The outputs go to a tmpfs of a fixed size (the
 * test mounts one, so it needs the right to mount: root, as in CI; elsewhere it is skipped with that
 * reason). The trace, streamed while the program runs, fills the disk and is removed whole; the
 * profile and metadata.json, written after it failed, fit and are written; every file not written
 * is named on standard error with its cause and listed under not_written in metadata.json; the run
 * ends with the program's own exit code; no partial or temporary file is left.
 */
class FullDiskIT extends DistributionTest {
    /** 400 000 regions of 300 names: a trace of megabytes, a profile of tens of kilobytes; exits 7. */
    private static final String PROGRAM = """
            #include <rocprofiler-systems/user.h>
            #include <stdio.h>
            int main(void) {
                char name[32];
                for (int i = 0; i < 400000; i++) {
                    snprintf(name, sizeof name, "r%d", i % 300);
                    rocprofsys_user_push_region(name);
                    rocprofsys_user_pop_region(name);
                }
                return 7;
            }
            """;

    @Test
    void oneMebibyteKeepsTheProfileAndMetadataAndNamesTheLostTrace() throws Exception {
        runOnADiskOf("1m", (r, out) -> {
            Path trace = out.resolve("perfetto-trace.proto");
            assertTrue(
                    r.stderr().contains("error: cannot write " + trace + ": No space left on device (not written)"),
                    r::toString);
            assertFalse(Files.exists(trace), "no partial trace");
            assertTrue(Files.size(out.resolve("wall_clock.txt")) > 0);
            assertTrue(Files.readString(out.resolve("wall_clock.txt")).contains("r299"));
            new ObjectMapper().readTree(out.resolve("wall_clock.json").toFile());
            JsonNode notWritten = new ObjectMapper()
                    .readTree(out.resolve("metadata.json").toFile())
                    .get("rocprofiler-systems")
                    .get("metadata")
                    .get("not_written");
            assertEquals(1, notWritten.size(), notWritten::toString);
            assertEquals(trace.toString(), notWritten.get(0).get("file").asText());
            assertEquals(
                    "No space left on device", notWritten.get(0).get("reason").asText());
        });
    }

    @Test
    void sixtyFourKibibytesKeepTheProgramsExitCodeAndSayWhatIsLost() throws Exception {
        runOnADiskOf("64k", (r, out) -> {
            for (String file : List.of("perfetto-trace.proto", "metadata.json")) {
                assertTrue(
                        r.stderr().contains("cannot write " + out.resolve(file) + ": No space left on device"),
                        r::toString);
                assertFalse(Files.exists(out.resolve(file)));
            }
            assertTrue(r.stderr().contains("output files were not written"), r::toString);
            assertTrue(r.stderr().contains("exited with code 7"), r::toString);
        });
    }

    /** What a test checks of the run and of its output folder on the small disk. */
    private interface RunCheck {
        void check(ProcessResult r, Path out) throws Exception;
    }

    /**
     * The program traced and profiled onto a fresh file system of {@code size}: it keeps its exit
     * code 7, {@code check} reads what came of it, and no temporary or partial file is left.
     */
    private void runOnADiskOf(String size, RunCheck check) throws Exception {
        Path disk = mount(size);
        try {
            ProcessResult r = tool(
                    "rocprof-sys-run",
                    testEnvironment(disk, "run"),
                    "-T",
                    "-P",
                    "--",
                    userApiProgram("regions7", PROGRAM, "-O1").toString());
            assertEquals(7, r.exitCode(), r::toString);
            check.check(r, disk.resolve("run"));
            assertNoTemporaryOrPartialFile(disk);
        } finally {
            unmount(disk);
        }
    }

    /** Every file left is whole: no temporary file, every JSON file parses. */
    private static void assertNoTemporaryOrPartialFile(Path disk) throws Exception {
        List<Path> left;
        try (Stream<Path> walk = Files.walk(disk)) {
            left = walk.filter(Files::isRegularFile).toList();
        }
        for (Path p : left) {
            assertFalse(p.getFileName().toString().endsWith(".tmp"), "a temporary file is left: " + left);
            if (p.toString().endsWith(".json")) {
                new ObjectMapper().readTree(p.toFile());
            }
        }
    }

    /** A tmpfs of {@code size} in this test's folder; skipped where this user may not mount one. */
    private Path mount(String size) throws Exception {
        Path dir = Files.createDirectories(cwd.resolve("disk"));
        ProcessResult m = Command.of("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
                .run();
        Assumptions.assumeTrue(
                m.exitCode() == 0,
                () -> "a full disk needs a tmpfs of " + size + ", and mounting one is not permitted here: " + m);
        return dir;
    }

    private static void unmount(Path dir) throws Exception {
        Command.of("umount", dir.toString()).run();
    }
}
