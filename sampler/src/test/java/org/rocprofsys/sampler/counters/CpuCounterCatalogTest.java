package org.rocprofsys.sampler.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.avail.AvailCatalog;
import org.rocprofsys.config.avail.HardwareCounter;
import org.rocprofsys.sampler.perf.PerfEventAttr;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfException;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;

/** rocprof-sys-avail -H's CPU rows: PAPI presets and perf events, available as this machine says. */
class CpuCounterCatalogTest {
    private static Map<String, HardwareCounter> rows() {
        return new CpuCounterCatalog()
                .hardwareCounters().stream()
                        .collect(Collectors.toMap(HardwareCounter::name, Function.identity(), (a, b) -> a));
    }

    @Test
    void perfEventsAreListedAvailableExactlyWhenTheyOpen() {
        Map<String, HardwareCounter> rows = rows();
        for (PerfCounter c : PerfCounter.ALL) {
            HardwareCounter h = rows.get(c.name());
            assertEquals("CPU", h.device());
            assertEquals("CPU", h.category());
            assertEquals(CpuCounterCatalog.opens(c), h.available(), c.name());
        }
        boolean clock;
        try {
            PerfEvents.probe(PerfEventAttr.clockSampling(false, 1000));
            clock = true;
        } catch (PerfException e) {
            clock = false;
        }
        assumeTrue(clock, "perf_event_open is not allowed here");
        assertTrue(rows.get("perf::PERF_COUNT_SW_CPU_CLOCK").available());
        assertTrue(rows.get("perf::CONTEXT-SWITCHES").available());
    }

    @Test
    void withoutAPmuHardwareEventsAreUnavailable() {
        assumeTrue(
                !Files.exists(Path.of("/sys/bus/event_source/devices/cpu"))
                        && !Files.exists(Path.of("/sys/bus/event_source/devices/cpu_core")),
                "this machine has a CPU PMU");
        Map<String, HardwareCounter> rows = rows();
        assertFalse(rows.get("perf::PERF_COUNT_HW_CPU_CYCLES").available());
        assertFalse(rows.get("perf::INSTRUCTIONS").available());
        rows.values().stream()
                .filter(h -> h.name().equals("PAPI_TOT_INS"))
                .forEach(h -> assertFalse(h.available(), "PAPI_TOT_INS without a PMU"));
    }

    @Test
    void papiPresetsWhereLibpapiIsInstalled() {
        var presets = Papi.presets();
        assumeTrue(presets.isPresent(), "no libpapi here");
        Map<String, Papi.Preset> byName =
                presets.get().stream().collect(Collectors.toMap(Papi.Preset::name, Function.identity()));
        assertTrue(byName.containsKey("PAPI_TOT_INS"), byName.keySet().toString());
        assertEquals("Instructions completed", byName.get("PAPI_TOT_INS").description());
        assertTrue(rows().containsKey("PAPI_TOT_CYC"));
    }

    @Test
    void theCatalogIsInstalledAsAService() {
        List<HardwareCounter> all = AvailCatalog.installed().hardwareCounters();
        assertTrue(all.stream().anyMatch(h -> h.name().equals("perf::PERF_COUNT_SW_TASK_CLOCK")));
    }

    @Test
    void eventInfoOffsetsMatchPapiH(@TempDir Path dir) throws Exception {
        assumeTrue(Files.exists(Path.of("/usr/include/papi.h")), "no papi.h (libpapi-dev)");
        Path c = Files.writeString(dir.resolve("papi_layout.c"), """
                #include <papi.h>
                #include <stddef.h>
                #include <stdio.h>
                int main(void) {
                    printf("%zu %d %d %zu\\n", offsetof(PAPI_event_info_t, long_descr), PAPI_MAX_STR_LEN,
                           PAPI_VER_CURRENT, sizeof(PAPI_event_info_t));
                    return 0;
                }
                """);
        Path exe = NativeCompiler.c().compile(c, dir.resolve("papi_layout"));
        String[] out = Command.of(exe.toString()).run().stdout().strip().split(" ");
        assertEquals(Papi.INFO_LONG_DESCR, Long.parseLong(out[0]));
        assertEquals(Papi.NAME_LENGTH, Integer.parseInt(out[1]));
        assertEquals(Papi.VERSION_7, Integer.parseInt(out[2]));
        assertTrue(Long.parseLong(out[3]) <= Papi.INFO_SIZE);
    }
}
