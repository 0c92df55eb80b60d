package org.rocprofsys.run.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** rocprof-sys-sample's own option table (inventory §1.3): what differs from rocprof-sys-run. */
class SampleOptionsTest {
    private static final RunArguments.Libraries LIBS =
            new RunArguments.Libraries("/p/lib/librocprof-sys-dl.so", "/p/lib/librocprof-sys.so");

    private static Map<String, String> env(String... argv) throws RunUsageException {
        return RunArguments.parseSample(argv, Map.of("OMP_TOOL_LIBRARIES", "libother.so"), LIBS)
                .environment();
    }

    @Test
    void frequencyTimersAndWindowsUseTheSampleSpellings() throws Exception {
        Map<String, String> e = env(
                "--freq",
                "500",
                "-w",
                "1",
                "--duration=2",
                "--cputime",
                "1000",
                "0.5",
                "0-1",
                "--realtime",
                "50",
                "--",
                "app",
                "--freq",
                "3");
        assertEquals("500", e.get("ROCPROFSYS_SAMPLING_FREQ"));
        assertEquals("1", e.get("ROCPROFSYS_TRACE_DELAY"));
        assertEquals("1", e.get("ROCPROFSYS_SAMPLING_DELAY"));
        assertEquals("2", e.get("ROCPROFSYS_TRACE_DURATION"));
        assertEquals("2", e.get("ROCPROFSYS_SAMPLING_DURATION"));
        assertFalse(e.containsKey("ROCPROFSYS_CAUSAL_DELAY"), "sample's -w does not touch causal settings");
        assertEquals("true", e.get("ROCPROFSYS_SAMPLING_CPUTIME"));
        assertEquals("1000", e.get("ROCPROFSYS_SAMPLING_CPUTIME_FREQ"));
        assertEquals("0.5", e.get("ROCPROFSYS_SAMPLING_CPUTIME_DELAY"));
        assertEquals("0-1", e.get("ROCPROFSYS_SAMPLING_CPUTIME_TIDS"));
        assertEquals("50", e.get("ROCPROFSYS_SAMPLING_REALTIME_FREQ"));
        assertEquals("1000", env("-f", "1000", "--", "ls").get("ROCPROFSYS_SAMPLING_FREQ"));
    }

    @Test
    void runOnlyOptionsAreUnknownHere() {
        for (String opt : List.of(
                "--sampling-freq=10",
                "-S",
                "--fork",
                "--launcher=x",
                "--sample-cputime",
                "--sample-overflow",
                "--periods=1:2",
                "--use-pid=false",
                "--timemory-components=wall_clock")) {
            assertThrows(RunUsageException.class, () -> env(opt, "--", "ls"), opt);
        }
    }

    @Test
    void configMayComeWithoutFilesAndProfileConflictsWithFlat() throws Exception {
        assertFalse(env("-c", "--", "ls").containsKey("ROCPROFSYS_CONFIG_FILE"));
        assertEquals("a.cfg:b.cfg", env("-c", "a.cfg", "b.cfg", "--", "ls").get("ROCPROFSYS_CONFIG_FILE"));
        RunUsageException e = assertThrows(RunUsageException.class, () -> env("-P", "-F", "--", "ls"));
        assertTrue(e.getMessage().contains("conflicts"), e.getMessage());
    }

    @Test
    void includeSwitchesToolSettingsAsRunDoes() throws Exception {
        // upstream appends the tool libraries here where run prepends them; here both only switch the
        // settings on (the run's threading-tools part puts the OMPT library first in
        // OMP_TOOL_LIBRARIES and names the Kokkos library at launch)
        assertEquals("true", env("-I", "ompt", "--", "ls").get("ROCPROFSYS_USE_OMPT"));
        assertEquals("true", env("-I", "kokkosp", "--", "ls").get("ROCPROFSYS_USE_KOKKOSP"));
        assertEquals("libother.so", env("-I", "all", "--", "ls").get("OMP_TOOL_LIBRARIES"));
        assertEquals("true", env("-I", "all", "--", "ls").get("ROCPROFSYS_USE_OMPT"));
    }

    @Test
    void helpListsOnlyTheSampleOptions() {
        String help = RunHelp.sampleText("rocprof-sys-sample");
        assertTrue(help.startsWith("[rocprof-sys-sample] Usage: rocprof-sys-sample"), help.substring(0, 80));
        RunHelpTest.assertLists(
                help,
                List.of("--freq", "--cputime", "--realtime"),
                List.of("--sampling-freq", "--launcher", "--use-pid"));
        assertTrue(help.endsWith("Usage: rocprof-sys-sample <OPTIONS> -- <COMMAND> <ARGS>\n"));
    }
}
