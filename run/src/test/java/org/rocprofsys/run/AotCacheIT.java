package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.DistributionTest;

/**
 * rocprof-sys-run's AOT cache is recorded from the training target (libexec/aot-cache.sh), not from
 * the user's first run: the method profiles it keeps decide how fast later runs ingest.
 */
class AotCacheIT extends DistributionTest {
    @TempDir
    Path tmp;

    @Test
    void theTrainingTargetPushesRegionsOnTwoThreads() throws Exception {
        Path out = tmp.resolve("out");
        var r = tool(
                "rocprof-sys-run",
                tmp,
                testEnvironment(out, "train", "ROCPROFSYS_PROFILE", "ON", "ROCPROFSYS_TRACE", "OFF"),
                "--",
                DIST.resolve("libexec/rocprofiler-systems/rocprof-sys-aot-train")
                        .toString(),
                "60000");
        assertEquals(0, r.exitCode(), r::toString);
        String wallClock = Files.readString(out.resolve("train/wall_clock.txt"));
        for (String name : List.of("train_3", "step_7", "leaf_7")) {
            assertTrue(wallClock.contains(name), name + " in\n" + wallClock);
        }
        // 5,000 outer laps of 6 events on each thread, a quarter of them in train_0
        for (int thread : new int[] {0, 1}) {
            assertTrue(
                    wallClock.matches("(?s).*\\|" + thread + ">>> +\\|_train_0 +\\| +1250 \\|.*"),
                    "thread " + thread + ":\n" + wallClock);
        }
    }

    @Test
    @Timeout(600)
    void aFreshInstallRecordsTheRunCacheFromTheTrainingRunAfterTheUsersRun() throws Exception {
        Path prefix = copyOfTheInstall(tmp.resolve("prefix"));
        Path scratch = Files.createDirectories(tmp.resolve("scratch"));
        Path out = tmp.resolve("out");
        var r = launch(
                prefix.resolve("bin/rocprof-sys-run"),
                tmp,
                Map.of("ROCPROFSYS_OUTPUT_PATH", out.toString(), "TMPDIR", scratch.toString()),
                "--",
                "/bin/true");
        assertEquals(0, r.exitCode(), r::toString);
        Path aot = prefix.resolve("lib/aot");
        // a recorded run leaves its AOT configuration as it exits, for the seconds the cache takes
        // to make; the training run writes its own only when it ends, seconds later
        assertFalse(has(aot, ".conf"), "the user's run was recorded: " + list(aot));
        assertTrue(has(aot, ".lock"), "no training run was started: " + list(aot));
        for (int i = 0; i < 1000 && has(aot, ".lock"); i++) {
            Thread.sleep(500);
        }
        assertFalse(has(aot, ".lock"), "the cache is still being made after 500 s");
        assertTrue(has(aot, ".aot"), "no cache was made: " + list(aot));
        assertFalse(has(aot, ".untrained"), "the training run failed: " + list(aot));
        assertEquals(List.of(), list(scratch), "the training run's outputs are removed");
        try (Stream<Path> s = Files.walk(out)) {
            assertTrue(
                    s.noneMatch(p -> p.getFileName().toString().contains("aot-train")),
                    "the training run wrote nothing where the user's settings point");
        }
    }

    private static boolean has(Path dir, String suffix) throws IOException {
        return list(dir).stream().anyMatch(n -> n.endsWith(suffix));
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
