package org.rocprofsys.processsampling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemoryLayout.PathElement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.CounterSample;

/** Backend choice: absent libraries are no error, AMD SMI falls back to sysfs, settings select. */
class GpuBackendsTest {
    /** Names no machine has. */
    static final String NO_NVML = "libnvidia-ml-absent-for-test.so.1";

    static final String NO_AMD_SMI = "libamd_smi-absent-for-test.so";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    private String logText() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    private FakeSysfs oneAmdCard() throws Exception {
        FakeSysfs fs = new FakeSysfs(dir.resolve("root"));
        fs.card(
                0,
                "0000:03:00.0",
                0,
                FakeSysfs.files("""
                        vendor=0x1002
                        device=0x740f
                        gpu_busy_percent=5
                        mem_busy_percent=1
                        mem_info_vram_used=2000000
                        """),
                Map.of("temp1_input", "40000", "power1_average", "20000000"));
        return fs;
    }

    @Test
    void noLibrariesAndNoCardsMeanNoBackendAndNoNoise() {
        List<GpuBackend> b =
                GpuBackends.detect(GpuOptions.defaults().withSysfsRoot(dir).withLibraries(NO_NVML, NO_AMD_SMI), log);
        assertTrue(b.isEmpty());
        assertEquals("", logText());
    }

    @Test
    void detectionSoonFindsTheSameBackendsOnAThreadOfItsOwn() throws Exception {
        FakeSysfs fs = oneAmdCard();
        GpuOptions options = GpuOptions.defaults().withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI);
        assertTrue(GpuBackends.wanted(options));
        List<GpuBackend> b = GpuBackends.detectSoon(options, log).get(30, java.util.concurrent.TimeUnit.SECONDS);
        try {
            assertEquals(
                    List.of("amdgpu-sysfs"), b.stream().map(GpuBackend::name).toList());
        } finally {
            GpuBackends.closeAll(b);
        }
        assertFalse(GpuBackends.wanted(GpuOptions.defaults().withMetrics(java.util.Set.of())));
    }

    @Test
    void librariesWithoutTheirSymbolsAreTreatedAsAbsent() throws Exception {
        // libc loads but is neither NVML nor AMD SMI: NVML is skipped silently; AMD SMI counts as
        // present-but-broken, so the sysfs fallback says so once
        FakeSysfs fs = oneAmdCard();
        List<GpuBackend> b = GpuBackends.detect(
                GpuOptions.defaults().withSysfsRoot(fs.root()).withLibraries("libc.so.6", "libc.so.6"), log);
        try {
            assertEquals(
                    List.of("amdgpu-sysfs"), b.stream().map(GpuBackend::name).toList());
            assertEquals(
                    1,
                    logText()
                            .lines()
                            .filter(l -> l.contains("AMD SMI is unusable")
                                    && l.contains("amdsmi_init")
                                    && l.contains("amdgpu sysfs"))
                            .count(),
                    logText());
            assertFalse(logText().contains("NVML"), logText());
        } finally {
            GpuBackends.closeAll(b);
        }
    }

    @Test
    void missingAmdSmiFallsBackToSysfsQuietly() throws Exception {
        FakeSysfs fs = oneAmdCard();
        List<GpuBackend> b = GpuBackends.detect(
                GpuOptions.defaults().withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI), log);
        try {
            assertEquals(1, b.size());
            GpuBackend sysfs = b.get(0);
            assertEquals("amdgpu-sysfs", sysfs.name());
            List<CounterSample> out = new ArrayList<>();
            sysfs.sample(10, out::add);
            Map<String, Double> v = new HashMap<>();
            out.forEach(s -> v.put(s.track().name(), s.value()));
            assertEquals(
                    Map.of(
                            "GPU GFX Busy [0] (S)",
                            5.0,
                            "GPU UMC Busy [0] (S)",
                            1.0,
                            "GPU Temperature [0] (S)",
                            40.0,
                            "GPU Current Power [0] (S)",
                            20.0,
                            "GPU Memory Usage [0] (S)",
                            2.0),
                    v);
            // the only notice: sysfs has no MM busy
            assertEquals(1, logText().lines().count(), logText());
            assertTrue(logText().contains("MM Busy"), logText());
        } finally {
            GpuBackends.closeAll(b);
        }
    }

    @Test
    void settingsSelectAndBadSettingsAreErrors() throws Exception {
        FakeSysfs fs = oneAmdCard();
        GpuOptions off = GpuOptions.from(load(Map.of("ROCPROFSYS_USE_AMD_SMI", "false")));
        assertFalse(off.enabled());
        assertTrue(GpuBackends.detect(off.withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI), log)
                .isEmpty());

        GpuOptions none = GpuOptions.from(load(Map.of("ROCPROFSYS_AMD_SMI_METRICS", "none")));
        assertTrue(GpuBackends.detect(none.withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI), log)
                .isEmpty());
        GpuOptions noGpus = GpuOptions.from(load(Map.of("ROCPROFSYS_SAMPLING_GPUS", "none")));
        assertTrue(GpuBackends.detect(noGpus.withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI), log)
                .isEmpty());
        assertEquals("", logText());

        GpuOptions d = GpuOptions.from(load(Map.of()));
        assertEquals(GpuOptions.defaults(), d);

        GpuOptions some =
                GpuOptions.from(load(Map.of("ROCPROFSYS_SAMPLING_GPUS", "0,5", "ROCPROFSYS_AMD_SMI_METRICS", "power")));
        List<GpuBackend> b = GpuBackends.detect(some.withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI), log);
        try {
            assertEquals(1, b.size());
            assertEquals(
                    List.of(0),
                    b.get(0).devices().stream().map(GpuDevice::index).toList());
            List<CounterSample> out = new ArrayList<>();
            b.get(0).sample(1, out::add);
            assertEquals(
                    List.of("GPU Current Power [0] (S)"),
                    out.stream().map(s -> s.track().name()).toList());
            assertEquals(
                    1,
                    logText()
                            .lines()
                            .filter(l -> l.contains("[5]") && l.contains("1 GPU"))
                            .count(),
                    logText());
        } finally {
            GpuBackends.closeAll(b);
        }

        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> GpuOptions.from(load(Map.of("ROCPROFSYS_AMD_SMI_METRICS", "busy,bogus"))));
        assertTrue(e.getMessage().contains("unsupported amd-smi metric: bogus"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> GpuOptions.from(load(Map.of("ROCPROFSYS_SAMPLING_GPUS", "gpu1"))));
        assertTrue(e.getMessage().contains("Invalid GPU specification: 'gpu1'"), e.getMessage());
    }

    /** /dev/nvidia0, /dev/nvidia1, ...: one node per NVIDIA GPU this machine (or container) is given. */
    private static final Pattern NVIDIA_NODE = Pattern.compile("nvidia\\d+");

    /** DRM cards, not their connectors (card0-DP-1) or render nodes. */
    private static final Pattern DRM_CARD = Pattern.compile("card\\d+");

    /**
     * The GPUs the operating system shows, read without the product's code: NVIDIA's device nodes
     * and the DRM cards whose PCI vendor is AMD (0x1002).
     */
    private static int gpusTheKernelShows() throws Exception {
        return count(Path.of("/dev"), NVIDIA_NODE, p -> true)
                + count(Path.of("/sys/class/drm"), DRM_CARD, p -> {
                    Path vendor = p.resolve("device/vendor");
                    return Files.isReadable(vendor)
                            && Files.readString(vendor).strip().equalsIgnoreCase("0x1002");
                });
    }

    private interface PathTest {
        boolean test(Path p) throws Exception;
    }

    private static int count(Path folder, Pattern name, PathTest test) throws Exception {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        int n = 0;
        try (Stream<Path> s = Files.list(folder)) {
            for (Path p : s.toList()) {
                if (name.matcher(p.getFileName().toString()).matches() && test.test(p)) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void aMachineWithoutGpusGetsNoBackendAndNoNotice() throws Exception {
        int gpus = gpusTheKernelShows();
        assumeTrue(gpus == 0, () -> "this machine shows " + gpus + " GPU(s)");
        // the real libraries and the real /sys: nothing is found, nothing to sample, nothing said
        // (a missing library or an absent card is not worth a notice)
        List<GpuBackend> b = GpuBackends.detect(GpuOptions.defaults(), log);
        try {
            assertEquals(List.of(), b.stream().map(GpuBackend::name).toList());
        } finally {
            GpuBackends.closeAll(b);
        }
        assertEquals("", logText());
        // each vendor alike, numbering none
        for (GpuVendor v : GpuBackends.VENDORS) {
            assertEquals(GpuDetection.NONE, v.detect(GpuOptions.defaults(), 0, log));
        }
        // asking for a GPU by number on such a machine says it is not there
        assertEquals(
                List.of(), GpuBackends.detect(GpuOptions.defaults().withDevices(GpuDeviceSelection.parse("0")), log));
        assertEquals(
                List.of("[rocprof-sys] warning: ROCPROFSYS_SAMPLING_GPUS names GPU(s) [0] but this machine has 0"
                        + " GPU(s); ignoring them"),
                logText().lines().toList());
    }

    @Test
    void theRealGpusAreFoundSampledAndEnded() throws Exception {
        int gpus = gpusTheKernelShows();
        assumeTrue(gpus > 0, "this machine shows no GPU (aMachineWithoutGpusGetsNoBackendAndNoNotice runs instead)");
        List<GpuBackend> b = GpuBackends.detect(GpuOptions.defaults(), log);
        try {
            List<Integer> indices = b.stream()
                    .flatMap(g -> g.devices().stream())
                    .map(GpuDevice::index)
                    .toList();
            assertEquals(
                    IntStream.range(0, gpus).boxed().toList(),
                    indices,
                    "every GPU the kernel shows, numbered in vendor order\n" + logText());
            for (GpuBackend g : b) {
                assertTrue(Set.of("nvml", "amd-smi", "amdgpu-sysfs").contains(g.name()), g.name());
                List<CounterSample> sampled = new ArrayList<>();
                g.sample(1, sampled::add);
                for (GpuDevice d : g.devices()) {
                    assertTrue(
                            sampled.stream().anyMatch(s -> s.track().name().contains("[" + d.index() + "]")),
                            () -> g.name() + ": no value for GPU " + d.index() + ": " + sampled + "\n" + logText());
                }
                for (CounterSample s : sampled) {
                    assertEquals(1, s.timestampNs());
                    assertTrue(Double.isFinite(s.value()) && s.value() >= 0, s.toString());
                }
                // every series it started ends with a 0, once
                List<CounterSample> stopped = new ArrayList<>();
                g.stop(2, stopped::add);
                assertEquals(
                        sampled.stream().map(CounterSample::track).distinct().toList(),
                        stopped.stream().map(CounterSample::track).toList());
                assertTrue(stopped.stream().allMatch(s -> s.timestampNs() == 2 && s.value() == 0), stopped.toString());
            }
        } finally {
            GpuBackends.closeAll(b);
            GpuBackends.closeAll(b); // closing twice is harmless
        }
        assertTrue(logText().lines().allMatch(l -> l.startsWith("[rocprof-sys] ")), logText());
    }

    @Test
    void vendorsAreAskedInOrderAndNumberedAfterEachOther() {
        List<String> asked = new ArrayList<>();
        GpuVendor first = (o, firstIndex, l) -> {
            asked.add("first@" + firstIndex);
            return new GpuDetection(2, Optional.of(new FakeBackend("first", devices(o, firstIndex, 2))));
        };
        GpuVendor absent = (o, firstIndex, l) -> {
            asked.add("absent@" + firstIndex);
            return GpuDetection.NONE;
        };
        GpuVendor unselected = (o, firstIndex, l) -> {
            asked.add("unselected@" + firstIndex);
            return new GpuDetection(1, Optional.empty()); // its GPU takes a number all the same
        };
        GpuVendor last = (o, firstIndex, l) -> {
            asked.add("last@" + firstIndex);
            return new GpuDetection(3, Optional.of(new FakeBackend("last", devices(o, firstIndex, 3))));
        };
        GpuOptions some = GpuOptions.defaults().withDevices(GpuDeviceSelection.parse("1,3-4,9"));
        List<GpuBackend> b = GpuBackends.detect(List.of(first, absent, unselected, last), some, log);

        assertEquals(List.of("first@0", "absent@2", "unselected@2", "last@3"), asked);
        assertEquals(List.of("first", "last"), b.stream().map(GpuBackend::name).toList());
        assertEquals(
                List.of(1), b.get(0).devices().stream().map(GpuDevice::index).toList());
        assertEquals(
                List.of(3, 4), b.get(1).devices().stream().map(GpuDevice::index).toList());
        // six GPUs in all (2 + 0 + 1 + 3): only 9 is absent
        assertEquals(
                List.of("[rocprof-sys] warning: ROCPROFSYS_SAMPLING_GPUS names GPU(s) [9] but this machine has 6"
                        + " GPU(s); ignoring them"),
                logText().lines().toList());

        asked.clear();
        assertTrue(GpuBackends.detect(List.of(first, last), some.withDevices(GpuDeviceSelection.parse("none")), log)
                .isEmpty());
        assertEquals(List.of(), asked, "no vendor is asked when no GPU is selected");
    }

    @Test
    void theVendorsAreNvidiaThenAmdNumberedFromTheIndexTheyAreGiven() throws Exception {
        // with NVML absent and one amdgpu card: the first vendor finds nothing, the second the card,
        // numbered from the index it is given
        FakeSysfs fs = oneAmdCard();
        GpuOptions o = GpuOptions.defaults().withSysfsRoot(fs.root()).withLibraries(NO_NVML, NO_AMD_SMI);
        assertEquals(2, GpuBackends.VENDORS.size());
        assertEquals(GpuDetection.NONE, GpuBackends.VENDORS.get(0).detect(o, 0, log));
        GpuDetection d = GpuBackends.VENDORS.get(1).detect(o, 3, log);
        try {
            assertEquals(1, d.gpus());
            assertEquals("amdgpu-sysfs", d.backend().orElseThrow().name());
            assertEquals(
                    List.of(3),
                    d.backend().orElseThrow().devices().stream()
                            .map(GpuDevice::index)
                            .toList());
        } finally {
            d.backend().ifPresent(GpuBackend::close);
        }
        assertEquals(
                GpuDetection.NONE, GpuBackends.VENDORS.get(1).detect(o.withSysfsRoot(dir.resolve("empty")), 0, log));
    }

    private static List<GpuDevice> devices(GpuOptions o, int firstIndex, int n) {
        List<GpuDevice> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (o.devices().includes(firstIndex + i)) {
                out.add(new GpuDevice(firstIndex + i, "fake", "fake:" + i));
            }
        }
        return out;
    }

    /** A backend that reads nothing. */
    private record FakeBackend(String name, List<GpuDevice> devices) implements GpuBackend {
        @Override
        public void sample(long timestampNs, Consumer<CounterSample> out) {}

        @Override
        public void stop(long timestampNs, Consumer<CounterSample> out) {}

        @Override
        public void close() {}
    }

    @Test
    void nativeLayoutsMatchTheHeaders() {
        // nvml.h: nvmlUtilization_t {uint gpu, memory}; nvmlMemory_t {ull total, free, used}
        assertEquals(0, NvmlBackend.UTIL_GPU);
        assertEquals(4, NvmlBackend.UTIL_MEMORY);
        assertEquals(16, NvmlBackend.MEMORY_USED);
        assertEquals(24, NvmlBackend.MEMORY.byteSize());
        // amdsmi.h: engine usage 16 uint32; power info 68 bytes (24.x) and 192 (25+)
        assertEquals(64, AmdSmiBackend.ENGINE_USAGE.byteSize());
        assertEquals(68, AmdSmiBackend.POWER_INFO_V24.byteSize());
        assertEquals(8, AmdSmiBackend.POWER_INFO_V25.byteOffset(PathElement.groupElement("current_socket_power")));
        assertEquals(192, AmdSmiBackend.POWER_INFO_V25.byteSize());
        // amdsmi_gpu_metrics_t: vcn_activity after current_socket_power (120), jpeg_activity after the clocks
        assertEquals(122, AmdSmiBackend.VCN_ACTIVITY);
        assertEquals(352, AmdSmiBackend.JPEG_ACTIVITY);
        assertEquals(24, AmdSmiBackend.GPU_METRICS_HEAD.byteOffset(PathElement.groupElement("energy_accumulator")));
        assertEquals(112, AmdSmiBackend.GPU_METRICS_HEAD.byteOffset(PathElement.groupElement("indep_throttle_status")));
        assertEquals(184, AmdSmiBackend.GPU_METRICS_HEAD.byteOffset(PathElement.groupElement("xgmi_read_data_acc")));
    }

    @Test
    void amdSmiVersionStrings() {
        assertEquals(List.of(7, 1), toList(AmdSmiBackend.parseVersion("24.7.1.0")));
        assertEquals(List.of(26, 5), toList(AmdSmiBackend.parseVersion("26.5.0")));
        assertEquals(null, AmdSmiBackend.parseVersion("unknown"));
        assertEquals(
                List.of("libamd_smi.so", "/opt/rocm/lib/libamd_smi.so"),
                AmdSmiBackend.libraryCandidates("libamd_smi.so").stream()
                        .filter(s -> !s.contains(String.valueOf(System.getenv("ROCM_PATH"))))
                        .toList());
        assertEquals(List.of("/x/libamd_smi.so"), AmdSmiBackend.libraryCandidates("/x/libamd_smi.so"));
    }

    private static List<Integer> toList(int[] a) {
        return a == null ? null : List.of(a[0], a[1]);
    }

    private Settings load(Map<String, String> env) throws Exception {
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("HOME", dir.resolve("home").toString());
        return new SettingsLoader(SettingsRegistry.standard(), e, dir).load();
    }
}
