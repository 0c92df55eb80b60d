package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutputKeysTest {
    private final AtomicInteger siblingScans = new AtomicInteger();
    private final OutputKeys keys = new OutputKeys(ppid -> {
        siblingScans.incrementAndGet();
        return ppid == 1000 ? 3 : -1;
    });

    private String expand(String template) {
        return keys.expand(template, Contexts.app());
    }

    @Test
    void doubleDashAfterExecutableIsNotAnArgument() {
        var ctx = Contexts.of(List.of("./app", "--", "in.dat"));
        assertEquals("app_in.dat|appin.dat|in.dat", keys.expand("%argv%|%argt%|%arg1%", ctx));
    }

    @Test
    void tagDropsPythonAndExeExtensions() {
        assertEquals("train", keys.expand("%tag%", Contexts.of(List.of("/opt/train.py", "-e", "3"))));
        assertEquals("solver", keys.expand("%tag%", Contexts.of(List.of("solver.exe"))));
    }

    @Test
    void tagOverrideFeedsTagAndArgt() {
        var ctx = Contexts.app().withTag("mytag");
        assertEquals("mytag|mytag10_4|usr_bin_app_10_4", keys.expand("%tag%|%argt%|%argv%", ctx));
    }

    @Test
    void siblingsAreCountedOnlyWhenAsked() {
        expand("%argv%-%pid%-%launch_time%");
        assertEquals(0, siblingScans.get());
        expand("%psize%-%psize%");
        assertEquals(1, siblingScans.get());
    }

    /**
     * Templates expanded for the app context: case, template, expected. (shorthand...: upstream
     * replaces "%p" wherever it occurs once the full keys are done.)
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            commandLineKeys, %argv%, usr_bin_app_10_4
            commandLineKeys, %argt%, app10_4
            commandLineKeys, %args%, 10_4
            commandLineKeys, %tag%, app
            commandLineKeys, %arg0%|%arg1%|%arg2%, usr_bin_app|10|4
            argBeyondCommandLineIsRemovedWithFollowingSeparators, out-%arg3%-x, out-x
            argBeyondCommandLineIsRemovedWithFollowingSeparators, run-%arg9%_-/%arg2%, run-4
            argBeyondCommandLineIsRemovedWithFollowingSeparators, a%arg5_hash%__, a
            argBeyondCommandLineIsRemovedWithFollowingSeparators, %arg2%-, 4-
            hashesAreMd5Hex, %argv_hash%, df0ba82d03af7dcf134d49b9c83f7cc1
            hashesAreMd5Hex, %argt_hash%, acb1bca93166b507e245714506eb8e64
            hashesAreMd5Hex, %args_hash%, 272ac326762d1003b41b7db27e3381ec
            hashesAreMd5Hex, %tag_hash%, d2a57dc1d883fd21fb9951699df71cc7
            hashesAreMd5Hex, %arg0_hash%|%arg1_hash%, 776043f3fc78974ec497fe1edfe86852|d3d9446802a44259755d38e6d163e820
            hashesAreMd5Hex, %m, acb1bca93166b507e245714506eb8e64
            processKeys, %pid%|%ppid%|%pgid%|%psid%, 1234|1000|1200|900
            processKeys, %psize%, 3
            jobRankSizeWithoutLaunchers, %job%|%rank%|%size%|%nid%, 0|0|1|1234
            jobRankSizeWithoutLaunchers, %p|%j|%r|%s, 1234|0|0|1
            unknownTextStays, %foo%-%tagx%-100%, %foo%-%tagx%-100%
            shorthandMatchesInsideLongerUnknownText, %path%, 1234ath%
            backslashesAndDoubleSlashesAreCanonicalised, a\\\\b//%tag%, a/b/app
            """)
    void expandsForTheApp(String name, String template, String expected) {
        assertEquals(expected, expand(template));
    }

    /** Templates expanded for "app" with an environment (NAME=value;...): case, env, template, expected. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            slurmVariables, SLURM_JOB_ID=777;SLURM_PROCID=5, %job%|%rank%|%nid%|%j|%r, 777|5|5|777|5
            nidIgnoresNonNumericSlurmProcid, SLURM_PROCID=x, %rank%|%nid%, x|1234
            lowerCaseVariableNamesAreNotKeys, home=/h, %env{home}%, %env{home}%
            valuesAreNotExpandedAgainThroughEnvPatterns, A=%env{A}%, %env{A}%, %env{A}%
            """)
    void expandsWithTheEnvironment(String name, String env, String template, String expected) {
        Map<String, String> vars = new LinkedHashMap<>();
        for (String kv : env.split(";")) {
            int eq = kv.indexOf('=');
            vars.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        var ctx = Contexts.of(List.of("app"), vars, Map.of());
        assertEquals(expected, keys.expand(template, ctx));
    }

    @Test
    void mpiLauncherVariables() {
        var ompi =
                Contexts.of(List.of("app"), Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4"), Map.of());
        assertEquals("2|4|2", keys.expand("%rank%|%size%|%nid%", ompi));
        var pmi = Contexts.of(List.of("app"), Map.of("PMI_RANK", "3", "PMI_SIZE", "8"), Map.of());
        assertEquals("3|8|3", keys.expand("%rank%|%size%|%nid%", pmi));
        var both = Contexts.of(List.of("app"), Map.of("SLURM_PROCID", "1", "PMI_RANK", "3"), Map.of());
        assertEquals("1|1", keys.expand("%rank%|%nid%", both));
    }

    @Test
    void launchTimeUsesTimeFormatSetting() {
        assertEquals("2025-08-09_13.05", expand("%launch_time%"));
        var ctx = Contexts.of(List.of("app"), Map.of(), Map.of("ROCPROFSYS_TIME_FORMAT", "%Y%m%d-%T"));
        assertEquals("20250809-13:05:07", keys.expand("%launch_time%", ctx));
    }

    @Test
    void environmentAndSettings() {
        var ctx = Contexts.of(
                List.of("app"),
                Map.of("HOME", "/home/me", "EMPTY", ""),
                Map.of("ROCPROFSYS_ROCM_DOMAINS", "hip_api,kernel_dispatch", "MODE", "trace"));
        assertEquals("/home/me/.cfg", keys.expand("%env{HOME}%/.cfg", ctx));
        assertEquals("/home/me/x", keys.expand("$env{HOME}/x", ctx));
        assertEquals("/home/me/x", keys.expand("$ENV{HOME}/x", ctx));
        assertEquals("d-hip_api-kernel_dispatch", keys.expand("d-%cfg{ROCPROFSYS_ROCM_DOMAINS}%", ctx));
        assertEquals("trace", keys.expand("$cfg{MODE}", ctx));
        assertEquals("a--b", keys.expand("a-%env{UNSET}%$env{EMPTY}-b", ctx));
        assertEquals("a-", keys.expand("a-%cfg{NOPE}%", ctx));
    }

    @Test
    void listIsInUpstreamOrder() {
        List<String> order =
                keys.list(Contexts.app()).stream().map(OutputKey::key).toList();
        assertEquals(
                List.of(
                        "%argv%",
                        "%argt%",
                        "%args%",
                        "%tag%",
                        "%arg0%",
                        "%arg1%",
                        "%arg2%",
                        "%pid%",
                        "%ppid%",
                        "%pgid%",
                        "%psid%",
                        "%psize%",
                        "%job%",
                        "%rank%",
                        "%size%",
                        "%nid%",
                        "%launch_time%",
                        "%m",
                        "%p",
                        "%j",
                        "%r",
                        "%s",
                        "%argv_hash%",
                        "%argt_hash%",
                        "%args_hash%",
                        "%tag_hash%",
                        "%arg0_hash%",
                        "%arg1_hash%",
                        "%arg2_hash%"),
                order);
    }

    @Test
    void listCarriesValuesAndDescriptions() {
        var list = keys.list(Contexts.app());
        assertEquals(
                new OutputKey(
                        "%argt%", "app10_4", "Similar to `%argv%` except basename of first command line argument"),
                list.get(1));
        assertEquals(new OutputKey("%arg2%", "4", "Argument #2"), list.get(6));
        assertEquals(new OutputKey("%nid%", "1234", "%rank% if possible, otherwise %pid%"), list.get(15));
        assertEquals(
                new OutputKey("%launch_time%", "2025-08-09_13.05", "Data and/or time of run according to time format"),
                list.get(16));
        assertEquals(
                new OutputKey("%m", "acb1bca93166b507e245714506eb8e64", "Shorthand for %argt_hash%"), list.get(17));
        assertEquals(new OutputKey("%tag_hash%", "d2a57dc1d883fd21fb9951699df71cc7", "MD5 sum of %tag%"), list.get(25));
    }
}
