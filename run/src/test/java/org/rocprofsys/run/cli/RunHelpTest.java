package org.rocprofsys.run.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code rocprof-sys-run --help} / {@code --version}. */
class RunHelpTest {
    private final String help = RunHelp.text();

    @Test
    void startsWithTheTimemoryUsageLine() {
        assertTrue(
                help.startsWith("[rocprof-sys-run] Usage: rocprof-sys-run [ --help (count: 0, dtype: bool)"),
                help.substring(0, 120));
        assertTrue(help.contains("\nOptions:\n"));
        assertTrue(help.strip().endsWith("Usage: rocprof-sys-run <OPTIONS> -- <COMMAND> <ARGS>"));
    }

    @Test
    void groupsComeInUpstreamOrder() {
        List<String> headers = List.of(
                "[DEBUG OPTIONS]",
                "[MODE OPTIONS]",
                "[GENERAL OPTIONS]",
                "[BACKEND OPTIONS]",
                "[PARALLELISM OPTIONS]",
                "[TRACING OPTIONS]",
                "[PROFILE OPTIONS]",
                "[HOST/DEVICE (PROCESS SAMPLING) OPTIONS]",
                "[GENERAL SAMPLING OPTIONS]",
                "[SAMPLING TIMER OPTIONS]",
                "[ADVANCED SAMPLING OPTIONS]",
                "[HARDWARE COUNTER OPTIONS]",
                "[CATEGORY OPTIONS]",
                "[IO OPTIONS]",
                "[PERFETTO OPTIONS]",
                "[TIMEMORY OPTIONS]",
                "[ROCM OPTIONS]",
                "[MISCELLANEOUS OPTIONS]",
                "[EXECUTION OPTIONS]");
        int at = -1;
        for (String h : headers) {
            int next = help.indexOf("    " + h);
            assertTrue(next > at, h + " missing or out of order");
            at = next;
        }
        assertTrue(help.contains("[GENERAL OPTIONS]") && help.contains("These are options which are ubiquitously"));
    }

    @Test
    void listsOptionsWithTheirDescriptions() {
        assertFalse(help.contains("null ("), "a description is missing");
        assertTrue(help.contains("    --monochrome                    Disable colorized output (max: 1)"), help);
        assertLists(
                help,
                List.of(
                        "-P, --profile",
                        "--trace-clock-id [ 0 (realtime|CLOCK_REALTIME)",
                        "    --use-pid ",
                        "    --fork "),
                List.of("--sampling-delay", "--causal-"));
        assertTrue(help.contains("Shows this page"));
    }

    /** {@code help} names each of {@code listed} and none of {@code left}. */
    static void assertLists(String help, List<String> listed, List<String> left) {
        for (String s : listed) {
            assertTrue(help.contains(s), () -> "does not list " + s);
        }
        for (String s : left) {
            assertFalse(help.contains(s), () -> "lists " + s);
        }
    }

    @Test
    void helpAndVersionRequests() throws Exception {
        assertEquals(
                RunInvocation.Request.HELP,
                RunArguments.parse(new String[] {"--help"}, Map.of()).request());
        assertTrue(RunHelp.versionLine().startsWith("rocprof-sys-run v"), RunHelp.versionLine());
        assertEquals("Usage: rocprof-sys-run <OPTIONS> -- <COMMAND> <ARGS>", RunHelp.usageLine());
    }
}
