package org.rocprofsys.run.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingsRegistry;

/** Which settings become {@code --<setting-name>} options of rocprof-sys-run (inventory §1.2). */
class RunOptionsTest {
    private final RunOptions table = RunOptions.standard();

    private OptionDef option(String name) {
        return table.byKey.get(name.substring(2));
    }

    @Test
    void generatedOptionsExist() {
        Map<String, String> expected = Map.ofEntries(
                Map.entry("--use-pid", "ROCPROFSYS_USE_PID"),
                Map.entry("--thread-pool-size", "ROCPROFSYS_THREAD_POOL_SIZE"),
                Map.entry("--timemory-components", "ROCPROFSYS_TIMEMORY_COMPONENTS"),
                Map.entry("--perfetto-annotations", "ROCPROFSYS_PERFETTO_ANNOTATIONS"),
                Map.entry("--num-threads-hint", "ROCPROFSYS_NUM_THREADS_HINT"),
                Map.entry("--sampling-allocator-size", "ROCPROFSYS_SAMPLING_ALLOCATOR_SIZE"),
                Map.entry("--tmpdir", "ROCPROFSYS_TMPDIR"),
                Map.entry("--perfetto-backend", "ROCPROFSYS_PERFETTO_BACKEND"),
                Map.entry("--time-output", "ROCPROFSYS_TIME_OUTPUT"),
                Map.entry("--kokkosp-prefix", "ROCPROFSYS_KOKKOSP_PREFIX"),
                Map.entry("--ci", "ROCPROFSYS_CI"),
                Map.entry("--dl-verbose", "ROCPROFSYS_DL_VERBOSE"),
                Map.entry("--use-kokkosp", "ROCPROFSYS_USE_KOKKOSP"),
                Map.entry("--use-causal", "ROCPROFSYS_USE_CAUSAL"),
                Map.entry("--mode", "ROCPROFSYS_MODE"),
                // claimed only later by -i/--inlines, -D/--device (as "amd_smi") and -H (as "cpu_freq")
                Map.entry("--sampling-include-inlines", "ROCPROFSYS_SAMPLING_INCLUDE_INLINES"),
                Map.entry("--use-amd-smi", "ROCPROFSYS_USE_AMD_SMI"),
                Map.entry("--cpu-freq-enabled", "ROCPROFSYS_CPU_FREQ_ENABLED"));
        expected.forEach((name, env) -> {
            OptionDef o = option(name);
            assertNotNull(o, name);
            assertNotNull(o.setting(), name);
            assertEquals(env, o.setting().envName(), name);
        });
    }

    @Test
    void noGeneratedOptionForSettingsTheExplicitOptionsClaimedFirst() {
        for (String name : List.of(
                "--sampling-delay",
                "--trace-delay",
                "--trace-duration",
                "--perfetto-file",
                "--perfetto-buffer-size-kb",
                "--perfetto-fill-policy",
                "--papi-events",
                "--sampling-tids",
                "--sampling-freq",
                "--output-path",
                "--output-prefix",
                "--config-file",
                "--trace-period-clock-id",
                "--sampling-cpus",
                "--sampling-gpus",
                "--sampling-cputime",
                "--sampling-realtime",
                "--sampling-overflow",
                "--process-sampling-freq",
                "--process-sampling-duration",
                "--text-output",
                "--flat-profile",
                "--verbose",
                "--debug",
                "--monochrome")) {
            OptionDef o = option(name);
            assertTrue(o == null || o.setting() == null, name);
        }
        assertThrows(
                RunUsageException.class,
                () -> RunArguments.parse(new String[] {"--sampling-delay", "1", "--", "a"}, Map.of()));
    }

    @Test
    void noGeneratedOptionForCausalDeprecatedHiddenOrLegacySettings() {
        int causal = 0;
        for (SettingDefinition d : SettingsRegistry.standard().all()) {
            OptionDef o = table.byKey.get(d.name().replace('_', '-'));
            boolean generated = o != null && o.setting() == d;
            if (d.inCategory("causal") && !RunOptions.CAUSAL_EXCEPTIONS.contains(d.envName())) {
                causal++;
                assertFalse(generated, d.envName());
            }
            if (d.deprecated() || d.hidden() || d.legacy() || !d.inCategory("rocprofsys")) {
                assertFalse(generated, d.envName());
            }
        }
        assertTrue(causal >= 10, "causal settings in the registry: " + causal);
        assertNull(option("--causal-delay"));
        assertNull(option("--causal-mode"));
        assertNull(option("--causal-file"));
        assertNull(option("--use-perfetto"));
        assertNull(option("--use-ompt"));
    }

    @Test
    void generatedOptionsCoverEveryOtherListedSetting() {
        long generated = table.options.stream().filter(o -> o.setting() != null).count();
        assertTrue(generated > 100, "generated options: " + generated);
        for (OptionDef o : table.options) {
            if (o.setting() != null) {
                assertEquals(List.of("--" + o.setting().name().replace('_', '-')), o.names());
                assertEquals(
                        o.setting().type() == org.rocprofsys.config.SettingType.BOOL ? 1 : OptionDef.ANY,
                        o.max(),
                        o.label());
            }
        }
    }

    @Test
    void everyOptionNameIsUnique() {
        // the builder throws on a duplicate; building a second table must succeed too
        RunOptions again = RunOptions.build(SettingsRegistry.standard());
        assertEquals(table.byKey.keySet(), again.byKey.keySet());
    }

    @Test
    void explicitOptionsOfInventory() {
        for (String name : List.of(
                "--monochrome",
                "--debug",
                "--verbose",
                "--config",
                "--output",
                "--trace",
                "--profile",
                "--flat-profile",
                "--sample",
                "--host",
                "--device",
                "--wait",
                "--duration",
                "--periods",
                "--include",
                "--exclude",
                "--launcher",
                "--trace-file",
                "--trace-buffer-size",
                "--trace-fill-policy",
                "--trace-wait",
                "--trace-duration",
                "--trace-periods",
                "--trace-clock-id",
                "--profile-format",
                "--profile-diff",
                "--process-freq",
                "--process-wait",
                "--process-duration",
                "--cpus",
                "--gpus",
                "--sampling-freq",
                "--tids",
                "--sampling-wait",
                "--sampling-duration",
                "--sample-cputime",
                "--sample-realtime",
                "--sample-overflow",
                "--cpu-events",
                "--inlines",
                "--hsa-interrupt",
                "--fork")) {
            OptionDef o = option(name);
            assertNotNull(o, name);
            assertNull(o.setting(), name);
        }
        for (String shortName : List.of(
                "v", "c", "o", "T", "P", "F", "S", "H", "D", "w", "d", "I", "E", "l", "f", "t", "C", "i", "h", "?")) {
            assertNotNull(table.byKey.get(shortName), shortName);
        }
    }
}
