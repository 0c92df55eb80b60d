package org.rocprofsys.processsampling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;

/** The amdgpu sysfs backend on fake trees in the kernel's formats. */
class AmdGpuSysfsBackendTest {
    @TempDir
    Path dir;

    private FakeSysfs fs;
    private Path dev0;
    private Path dev1;
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    /**
     * card0: an MI210 with every file (two temperature sensors, edge and junction, power1_average only).
     * card1: a Radeon without mem_busy_percent and product_name, with power1_input and power1_average,
     * and only the edge sensor. card2: an NVIDIA card, not ours.
     */
    @BeforeEach
    void tree() throws Exception {
        fs = new FakeSysfs(dir.resolve("root"));
        dev0 = fs.card(0, "0000:03:00.0", 2, FakeSysfs.files("""
                        vendor=0x1002
                        device=0x740f
                        product_name=AMD Instinct MI210
                        gpu_busy_percent=37
                        mem_busy_percent=12
                        mem_info_vram_used=1073741824
                        """), FakeSysfs.files("""
                        name=amdgpu
                        temp1_label=edge
                        temp1_input=45000
                        temp2_label=junction
                        temp2_input=51000
                        temp3_label=mem
                        temp3_input=48000
                        power1_average=35000000
                        """));
        dev1 = fs.card(1, "0000:43:00.0", 5, FakeSysfs.files("""
                        vendor=0x1002
                        device=0x73bf
                        gpu_busy_percent=100
                        mem_info_vram_used=524288000
                        """), FakeSysfs.files("""
                        name=amdgpu
                        temp1_label=edge
                        temp1_input=61000
                        power1_input=120000000
                        power1_average=99000000
                        """));
        fs.card(2, "0000:81:00.0", 7, Map.of("vendor", "0x10de", "device", "0x2330"), Map.of("temp1_input", "30000"));
    }

    private String logText() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    private static Map<String, Double> byTrack(List<CounterSample> samples) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (CounterSample s : samples) {
            m.put(s.track().name(), s.value());
        }
        return m;
    }

    private static long lines(String text, String... all) {
        return text.lines()
                .filter(l -> {
                    for (String a : all) {
                        if (!l.contains(a)) {
                            return false;
                        }
                    }
                    return true;
                })
                .count();
    }

    /** The backend over the fake tree's cards: these metrics, these GPU numbers, numbered from {@code first}. */
    private AmdGpuSysfsBackend open(String metrics, String devices, int first) throws Exception {
        return AmdGpuSysfsBackend.open(
                AmdGpuSysfsBackend.scan(fs.root()),
                GpuMetric.parse(metrics),
                GpuDeviceSelection.parse(devices),
                first,
                log);
    }

    @Test
    void twoDevicesOneLackingAMetricAllOtherMetricsSampledAndConverted() throws Exception {
        List<AmdGpuSysfsBackend.Card> cards = AmdGpuSysfsBackend.scan(fs.root());
        assertEquals(2, cards.size(), "the NVIDIA card and the connector nodes are not amdgpu cards");
        assertEquals("AMD Instinct MI210", cards.get(0).name());
        assertEquals("AMD GPU 0x73bf", cards.get(1).name());

        try (AmdGpuSysfsBackend b = AmdGpuSysfsBackend.open(
                cards, GpuMetric.parse(GpuMetric.DEFAULT_SPEC), GpuDeviceSelection.ALL, 0, log)) {
            assertEquals("amdgpu-sysfs", b.name());
            assertEquals(
                    List.of(0, 1), b.devices().stream().map(GpuDevice::index).toList());

            List<CounterSample> out = new ArrayList<>();
            b.sample(1_000, out::add);
            Map<String, Double> v = byTrack(out);
            Map<String, Double> want = new LinkedHashMap<>();
            want.put("GPU GFX Busy [0] (S)", 37.0);
            want.put("GPU UMC Busy [0] (S)", 12.0);
            want.put("GPU Temperature [0] (S)", 51.0); // the junction sensor, as AMD SMI reads
            want.put("GPU Current Power [0] (S)", 35.0); // microwatts to watts
            want.put("GPU Memory Usage [0] (S)", 1073.741824); // bytes to MB of 10^6 bytes
            want.put("GPU GFX Busy [1] (S)", 100.0);
            want.put("GPU Temperature [1] (S)", 61.0); // edge: no junction sensor
            want.put("GPU Current Power [1] (S)", 120.0); // power1_input before power1_average
            want.put("GPU Memory Usage [1] (S)", 524.288);
            assertEquals(want, v);
            for (CounterSample s : out) {
                assertEquals(1_000, s.timestampNs());
                assertEquals(0, s.pid());
            }
            CounterSample power = out.stream()
                    .filter(s -> s.track().name().equals("GPU Current Power [0] (S)"))
                    .findFirst()
                    .orElseThrow();
            assertEquals("watts", power.track().unit());
            assertEquals(Category.AMD_SMI_POWER, power.track().category());

            // one notice for device 1's missing file, none for device 0's UMC
            assertEquals(1, lines(logText(), "GPU 1 (", "UMC Busy"), logText());
            assertTrue(logText().contains("mem_busy_percent"), logText());
            assertEquals(0, lines(logText(), "GPU 0 (", "UMC Busy"), logText());
            // sysfs has no MM busy: one notice per device
            assertEquals(1, lines(logText(), "GPU 0 (", "MM Busy"), logText());
            assertEquals(1, lines(logText(), "GPU 1 (", "MM Busy"), logText());
            int noticeLines = (int) logText().lines().count();
            assertEquals(3, noticeLines, logText());

            // the next tick reads the files afresh and prints no notice again
            FakeSysfs.write(dev0.resolve("gpu_busy_percent"), "0");
            FakeSysfs.write(dev1.resolve("hwmon/hwmon5/power1_input"), "7500000");
            out.clear();
            b.sample(2_000, out::add);
            v = byTrack(out);
            assertEquals(9, v.size());
            assertEquals(0.0, v.get("GPU GFX Busy [0] (S)"));
            assertEquals(7.5, v.get("GPU Current Power [1] (S)"));
            assertEquals(noticeLines, (int) logText().lines().count());

            // stop: a 0 on every series that produced a value, at the stop time
            out.clear();
            b.stop(3_000, out::add);
            assertEquals(want.keySet(), byTrack(out).keySet());
            for (CounterSample s : out) {
                assertEquals(0.0, s.value());
                assertEquals(3_000, s.timestampNs());
            }
        }
    }

    @Test
    void selectionKeepsTheUsersNumbersAndOnlyTheChosenMetrics() throws Exception {
        try (AmdGpuSysfsBackend b = open("temp, mem_usage", "1", 0)) {
            assertEquals(
                    List.of(new GpuDevice(1, "AMD GPU 0x73bf", dev1.toRealPath().toString())), b.devices());
            List<CounterSample> out = new ArrayList<>();
            b.sample(5, out::add);
            assertEquals(Map.of("GPU Temperature [1] (S)", 61.0, "GPU Memory Usage [1] (S)", 524.288), byTrack(out));
            assertEquals("", logText(), "no metric asked for is missing");
        }
        assertEquals(null, open("busy", "4-6", 0));
    }

    @Test
    void aFileThatStopsReadingIsSkippedWithOneNoticeTheRestGoesOn() throws Exception {
        try (AmdGpuSysfsBackend b = open("busy temp", "0", 0)) {
            List<CounterSample> out = new ArrayList<>();
            b.sample(1, out::add);
            assertEquals(3, out.size());
            FakeSysfs.write(dev0.resolve("hwmon/hwmon2/temp2_input"), "N/A");
            for (int t = 2; t <= 4; t++) {
                out.clear();
                b.sample(t, out::add);
                assertEquals(Map.of("GPU GFX Busy [0] (S)", 37.0, "GPU UMC Busy [0] (S)", 12.0), byTrack(out));
            }
            assertEquals(1, lines(logText(), "GPU 0 (", "Temperature", "cannot be read"), logText());
            out.clear();
            b.stop(9, out::add);
            assertEquals(3, out.size(), "the temperature series had values: it ends with 0 too");
        }
    }

    @Test
    void numbersStartWhereTheNvidiaGpusEnd() throws Exception {
        try (AmdGpuSysfsBackend b = open("busy", "2,3", 2)) {
            List<CounterSample> out = new ArrayList<>();
            b.sample(1, out::add);
            assertEquals(
                    List.of("GPU GFX Busy [2] (S)", "GPU UMC Busy [2] (S)", "GPU GFX Busy [3] (S)"),
                    out.stream().map(s -> s.track().name()).toList());
        }
    }
}
