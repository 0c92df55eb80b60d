package org.rocprofsys.rocm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/** How the tool is loaded, or not: what a program pays and what a refusing SDK gives. */
class ToolLoadingTest {
    @TempDir
    Path dir;

    /**
     * A program that never loads a ROCm runtime, with the environment a profiled target gets: the
     * SDK is never loaded, so neither is our tool (only the SDK reads ROCP_TOOL_LIBRARIES).
     */
    @Test
    void aProgramWithoutRocmLoadsNothingOfOurs() throws Exception {
        ReplayBuild b = ReplayBuild.get();
        Path src = dir.resolve("plain.c");
        Files.writeString(src, """
                #include <stdio.h>
                int main(void) {
                    FILE *f = fopen("/proc/self/maps", "r");
                    char line[4096];
                    while (fgets(line, sizeof line, f)) fputs(line, stdout);
                    return 0;
                }
                """);
        Path exe = NativeCompiler.c().compile(src, dir.resolve("plain"));
        ProcessResult r = inSession(
                b, List.of(exe.toString()), "ROCPROFSYS_AGENT_ROCM_DOMAINS", "hip_runtime_api,kernel_dispatch");
        assertTrue(r.stdout().contains("librocprof-sys.so"), "the agent is there: " + r.stdout());
        assertFalse(r.stdout().contains("librocprof-sys-rocm"), r.stdout());
        assertFalse(r.stdout().contains("librocprofiler-sdk"), r.stdout());
    }

    /** An SDK that refuses the tool's configuration: one notice, and the program runs on. */
    @Test
    void aRefusingSdkGivesOneNoticeAndTheProgramRunsOn() throws Exception {
        ReplayBuild b = ReplayBuild.get();
        ProcessResult r = inSession(b, List.of(b.app().toString(), "transpose", "3"), "REPLAY_SDK_REFUSE_KIND", "5");
        assertTrue(r.stdout().contains("tool=-1"), r.all());
        assertTrue(r.stdout().contains("done transpose"), r.all());
        List<String> notices = r.stderr()
                .lines()
                .filter(l -> l.contains("[rocprof-sys][rocm]"))
                .toList();
        assertEquals(1, notices.size(), r.stderr());
        assertEquals(
                "[rocprof-sys][rocm] rocprofiler-sdk refused hip_runtime_api"
                        + " (ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED): ROCm activity is not traced in this process",
                notices.getFirst());
    }

    /**
     * {@code argv} run to a successful end as a profiled target: the agent preloaded, a session
     * directory, the tool named to the SDK, and {@code name}={@code value}.
     */
    private ProcessResult inSession(ReplayBuild b, List<String> argv, String name, String value) throws Exception {
        Path session = Files.createDirectory(dir.resolve("session"));
        ProcessResult r = Command.of(argv)
                .env(Map.of(
                        "LD_PRELOAD",
                        b.agent().toString(),
                        "ROCPROFSYS_SESSION_DIR",
                        session.toString(),
                        "ROCP_TOOL_LIBRARIES",
                        b.tool().toString(),
                        name,
                        value))
                .run();
        assertEquals(0, r.exitCode(), r.all());
        return r;
    }

    /** Outside a profiling session the tool declines: rocprofiler_configure returns NULL. */
    @Test
    void withoutASessionTheToolDeclines() throws Exception {
        ReplayBuild b = ReplayBuild.get();
        ProcessResult r = Command.of(List.of(b.app().toString(), "roctx"))
                .env(Map.of("ROCP_TOOL_LIBRARIES", b.tool().toString()))
                .run();
        assertEquals(0, r.exitCode(), r.all());
        assertTrue(r.stdout().contains("tool=0"), r.all());
        assertEquals("", r.stderr());
    }
}
