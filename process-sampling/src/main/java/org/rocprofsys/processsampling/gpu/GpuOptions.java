package org.rocprofsys.processsampling.gpu;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.rocprofsys.config.Settings;

/**
 * What GPU sampling reads and where it looks.
 *
 * @param enabled       ROCPROFSYS_USE_AMD_SMI: GPU metric sampling at all (for NVIDIA GPUs too)
 * @param metrics       from ROCPROFSYS_AMD_SMI_METRICS
 * @param devices       from ROCPROFSYS_SAMPLING_GPUS
 * @param sysfsRoot     the directory holding {@code sys/class/drm} ("/" but in tests)
 * @param nvmlLibrary   the NVML library to load ({@value NvmlBackend#LIBRARY})
 * @param amdSmiLibrary the AMD SMI library to load first ("libamd_smi.so"; then $ROCM_PATH/lib and
 *                      /opt/rocm/lib are tried)
 */
public record GpuOptions(
        boolean enabled,
        Set<GpuMetric> metrics,
        GpuDeviceSelection devices,
        Path sysfsRoot,
        String nvmlLibrary,
        String amdSmiLibrary) {

    public static final String AMD_SMI_LIBRARY = "libamd_smi.so";

    public GpuOptions {
        metrics = Collections.unmodifiableSet(
                metrics.isEmpty() ? EnumSet.noneOf(GpuMetric.class) : EnumSet.copyOf(metrics));
    }

    /** Upstream's defaults: on, busy/temp/power/mem_usage, all GPUs, the real libraries and sysfs. */
    public static GpuOptions defaults() {
        return new GpuOptions(
                true,
                GpuMetric.parse(GpuMetric.DEFAULT_SPEC),
                GpuDeviceSelection.ALL,
                Path.of("/"),
                NvmlBackend.LIBRARY,
                AMD_SMI_LIBRARY);
    }

    /**
     * ROCPROFSYS_USE_AMD_SMI, ROCPROFSYS_AMD_SMI_METRICS and ROCPROFSYS_SAMPLING_GPUS.
     *
     * @throws IllegalArgumentException for an unknown metric or a malformed GPU list
     */
    public static GpuOptions from(Settings settings) {
        return new GpuOptions(
                settings.bool("ROCPROFSYS_USE_AMD_SMI"),
                GpuMetric.parse(settings.get("ROCPROFSYS_AMD_SMI_METRICS")),
                GpuDeviceSelection.parse(settings.get("ROCPROFSYS_SAMPLING_GPUS")),
                Path.of("/"),
                NvmlBackend.LIBRARY,
                AMD_SMI_LIBRARY);
    }

    public GpuOptions withSysfsRoot(Path root) {
        return new GpuOptions(enabled, metrics, devices, root, nvmlLibrary, amdSmiLibrary);
    }

    public GpuOptions withLibraries(String nvml, String amdSmi) {
        return new GpuOptions(enabled, metrics, devices, sysfsRoot, nvml, amdSmi);
    }

    public GpuOptions withMetrics(Set<GpuMetric> m) {
        return new GpuOptions(enabled, m, devices, sysfsRoot, nvmlLibrary, amdSmiLibrary);
    }

    public GpuOptions withDevices(GpuDeviceSelection d) {
        return new GpuOptions(enabled, metrics, d, sysfsRoot, nvmlLibrary, amdSmiLibrary);
    }
}
