package org.rocprofsys.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandTest {
    @TempDir
    Path dir;

    @Test
    void capturesBothOutputsAndTheExitCode() throws Exception {
        ProcessResult r =
                Command.of("sh", "-c", "echo out; echo err >&2; exit 3").run();
        assertEquals(new ProcessResult(3, "out\n", "err\n"), r);
        assertEquals("out\nerr\n", r.all());
    }

    @Test
    void runsInItsFolderWithItsEnvironmentAndInput() throws Exception {
        String out = Command.of("sh", "-c", "pwd; echo $KIT_A; cat")
                .in(dir)
                .env("KIT_A", "a")
                .stdin("piped")
                .ok();
        assertEquals(dir.toRealPath() + "\na\npiped", out);
    }

    @Test
    void dropsInheritedVariablesByPrefix() throws Exception {
        assertTrue(System.getenv().containsKey("HOME"), "the test needs an inherited HOME");
        String home = Command.of("/bin/sh", "-c", "echo \"[$HOME]\"")
                .withoutInherited("HOM")
                .ok();
        assertEquals("[]\n", home);
        String set = Command.of("/bin/sh", "-c", "echo \"[$HOME]\"")
                .withoutInherited("HOM")
                .env("HOME", "/x")
                .ok();
        assertEquals("[/x]\n", set);
    }

    @Test
    void okRefusesAFailureAndTellsWhy() {
        IOException e = assertThrows(
                IOException.class,
                () -> Command.of("sh", "-c", "echo why >&2; exit 1").ok());
        assertTrue(e.getMessage().contains("exited 1") && e.getMessage().contains("why"), e.getMessage());
    }

    @Test
    void aMissingProgramAndAHangAreReported() {
        assertThrows(
                CannotStartException.class,
                () -> Command.of("/nonexistent/program").run());
        IOException slow = assertThrows(
                IOException.class,
                () -> Command.of("sleep", "30").timeout(Duration.ofMillis(200)).run());
        assertTrue(slow.getMessage().startsWith("timed out"), slow.getMessage());
    }
}
