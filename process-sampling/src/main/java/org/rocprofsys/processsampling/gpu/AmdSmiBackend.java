package org.rocprofsys.processsampling.gpu;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

/**
 * AMD GPUs through AMD SMI ({@code libamd_smi.so}) called with FFM, as upstream samples them:
 * {@code amdsmi_get_gpu_activity} (GFX/UMC/MM busy %), {@code amdsmi_get_temp_metric} (junction,
 * current, °C), {@code amdsmi_get_power_info} (current socket power, else average, W),
 * {@code amdsmi_get_gpu_memory_usage} (VRAM bytes, written as MB of 10^6 bytes) and, only when
 * VCN or JPEG activity is asked for, {@code amdsmi_get_gpu_metrics_info}'s {@code vcn_activity[]}
 * and {@code jpeg_activity[]} (0xFFFF marks an absent engine; the per-XCP arrays of partitioned
 * MI300 parts are not read).
 *
 * <p>Written from amdsmi.h (lib versions 24.x and 26.x) but not run: the team has no AMD GPU.
 * Whatever fails here makes {@link GpuBackends} fall back to the amdgpu sysfs files.
 */
final class AmdSmiBackend extends AbstractGpuBackend {
    static final int AMDSMI_STATUS_SUCCESS = 0;
    static final int AMDSMI_STATUS_NOT_SUPPORTED = 2;
    static final long AMDSMI_INIT_AMD_GPUS = 1L << 1;
    static final int AMDSMI_TEMPERATURE_TYPE_JUNCTION = 1; // = HOTSPOT
    static final int AMDSMI_TEMP_CURRENT = 0;
    static final int AMDSMI_MEM_TYPE_VRAM = 0;
    static final int NO_VALUE_16 = 0xFFFF;
    static final long NO_VALUE_32 = 0xFFFF_FFFFL;
    static final String NO_GPU = "AMD SMI reports no AMD GPU";

    /** amdsmi_engine_usage_t: uint32 gfx_activity, umc_activity, mm_activity, reserved[13]. */
    static final StructLayout ENGINE_USAGE = MemoryLayout.structLayout(
            JAVA_INT.withName("gfx_activity"),
            JAVA_INT.withName("umc_activity"),
            JAVA_INT.withName("mm_activity"),
            sequenceLayout(13, JAVA_INT).withName("reserved"));

    /** amdsmi_power_info_t up to lib 24.x: uint32 current_socket_power, average_socket_power, ... */
    static final StructLayout POWER_INFO_V24 = MemoryLayout.structLayout(
            JAVA_INT.withName("current_socket_power"),
            JAVA_INT.withName("average_socket_power"),
            JAVA_INT.withName("gfx_voltage"),
            JAVA_INT.withName("soc_voltage"),
            JAVA_INT.withName("mem_voltage"),
            JAVA_INT.withName("power_limit"),
            sequenceLayout(11, JAVA_INT).withName("reserved"));

    /** amdsmi_power_info_t from lib 25: uint64 socket_power first, then the two uint32 (UINT32_MAX = none). */
    static final StructLayout POWER_INFO_V25 = MemoryLayout.structLayout(
            JAVA_LONG.withName("socket_power"),
            JAVA_INT.withName("current_socket_power"),
            JAVA_INT.withName("average_socket_power"),
            JAVA_LONG.withName("gfx_voltage"),
            JAVA_LONG.withName("soc_voltage"),
            JAVA_LONG.withName("mem_voltage"),
            JAVA_INT.withName("power_limit"),
            paddingLayout(4),
            sequenceLayout(18, JAVA_LONG).withName("reserved"));

    /**
     * The head of amdsmi_gpu_metrics_t up to {@code jpeg_activity}, identical in lib 24.7 and 26.5
     * (the struct only grew after it). Natural C alignment, padding written out; FFM rejects a
     * misaligned member, so a slip here fails at class load.
     */
    static final StructLayout GPU_METRICS_HEAD = MemoryLayout.structLayout(
            JAVA_SHORT.withName("structure_size"),
            JAVA_BYTE.withName("format_revision"),
            JAVA_BYTE.withName("content_revision"),
            sequenceLayout(6, JAVA_SHORT).withName("temperature"), // edge hotspot mem vrgfx vrsoc vrmem
            sequenceLayout(3, JAVA_SHORT).withName("average_activity"), // gfx umc mm
            JAVA_SHORT.withName("average_socket_power"),
            JAVA_LONG.withName("energy_accumulator"),
            JAVA_LONG.withName("system_clock_counter"),
            sequenceLayout(7, JAVA_SHORT).withName("average_clocks"),
            sequenceLayout(7, JAVA_SHORT).withName("current_clocks"),
            JAVA_INT.withName("throttle_status"),
            JAVA_SHORT.withName("current_fan_speed"),
            JAVA_SHORT.withName("pcie_link_width"),
            JAVA_SHORT.withName("pcie_link_speed"),
            paddingLayout(2),
            JAVA_INT.withName("gfx_activity_acc"),
            JAVA_INT.withName("mem_activity_acc"),
            sequenceLayout(4, JAVA_SHORT).withName("temperature_hbm"),
            JAVA_LONG.withName("firmware_timestamp"),
            sequenceLayout(3, JAVA_SHORT).withName("voltage"), // soc gfx mem
            paddingLayout(2),
            JAVA_LONG.withName("indep_throttle_status"),
            JAVA_SHORT.withName("current_socket_power"),
            sequenceLayout(4, JAVA_SHORT).withName("vcn_activity"),
            paddingLayout(2),
            JAVA_INT.withName("gfxclk_lock_status"),
            JAVA_SHORT.withName("xgmi_link_width"),
            JAVA_SHORT.withName("xgmi_link_speed"),
            paddingLayout(4),
            sequenceLayout(5, JAVA_LONG).withName("pcie_counters"),
            sequenceLayout(8, JAVA_LONG).withName("xgmi_read_data_acc"),
            sequenceLayout(8, JAVA_LONG).withName("xgmi_write_data_acc"),
            sequenceLayout(8, JAVA_SHORT).withName("current_gfxclks"),
            sequenceLayout(4, JAVA_SHORT).withName("current_socclks"),
            sequenceLayout(4, JAVA_SHORT).withName("current_vclk0s"),
            sequenceLayout(4, JAVA_SHORT).withName("current_dclk0s"),
            sequenceLayout(32, JAVA_SHORT).withName("jpeg_activity"));

    static final long VCN_ACTIVITY = GPU_METRICS_HEAD.byteOffset(groupElement("vcn_activity"));
    static final int VCN_ENGINES = 4;
    static final long JPEG_ACTIVITY = GPU_METRICS_HEAD.byteOffset(groupElement("jpeg_activity"));
    static final int JPEG_ENGINES = 32;
    /** Room for the whole amdsmi_gpu_metrics_t of any version (about 5 KB in 26.x). */
    static final long GPU_METRICS_BYTES = 64 * 1024;

    /**
     * What opening AMD SMI gave.
     *
     * @param backend      the backend of the selected GPUs, or null
     * @param gpus         the number of AMD GPUs AMD SMI reports, selected or not
     * @param libraryFound whether a library loaded
     * @param failure      why AMD SMI is unusable, or null
     */
    record Opened(AmdSmiBackend backend, int gpus, boolean libraryFound, String failure) {}

    private final Arena arena;
    private final MethodHandle shutDown;
    private final MethodHandle statusString;
    private final MethodHandle activity;
    private final MethodHandle temperature;
    private final MethodHandle power;
    private final boolean powerTakesSensor;
    private final boolean powerV25;
    private final MethodHandle memoryUsage;
    private final MethodHandle gpuMetrics;
    private final MemorySegment[] handles;
    private final MemorySegment usage;
    private final MemorySegment powerInfo;
    private final MemorySegment value;
    private final MemorySegment metricsBuf;

    private AmdSmiBackend(
            Arena arena,
            SymbolLookup lib,
            int[] version,
            List<GpuDevice> devices,
            MemorySegment[] handles,
            Set<GpuMetric> metrics,
            PrintStream log) {
        super("amd-smi", devices, metrics, log);
        Linker l = Linker.nativeLinker();
        this.arena = arena;
        this.handles = handles;
        this.shutDown = l.downcallHandle(need(lib, "amdsmi_shut_down"), FunctionDescriptor.of(JAVA_INT));
        this.statusString = l.downcallHandle(
                need(lib, "amdsmi_status_code_to_string"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
        this.activity = l.downcallHandle(
                need(lib, "amdsmi_get_gpu_activity"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.temperature = l.downcallHandle(
                need(lib, "amdsmi_get_temp_metric"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
        // lib 2.0 and 25.2 (never released officially) took a sensor index before the struct
        this.powerTakesSensor = (version[0] == 2 && version[1] == 0) || (version[0] == 25 && version[1] == 2);
        this.powerV25 = version[0] >= 25 || powerTakesSensor;
        this.power = l.downcallHandle(
                need(lib, "amdsmi_get_power_info"),
                powerTakesSensor
                        ? FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)
                        : FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.memoryUsage = l.downcallHandle(
                need(lib, "amdsmi_get_gpu_memory_usage"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        this.gpuMetrics = l.downcallHandle(
                need(lib, "amdsmi_get_gpu_metrics_info"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        this.usage = arena.allocate(ENGINE_USAGE);
        this.powerInfo = arena.allocate(1024, 8);
        this.value = arena.allocate(JAVA_LONG);
        this.metricsBuf = metrics.contains(GpuMetric.VCN_ACTIVITY) || metrics.contains(GpuMetric.JPEG_ACTIVITY)
                ? arena.allocate(GPU_METRICS_BYTES, 8)
                : null;
    }

    /** The library names tried in turn: the loader's path, then ROCm's usual places (for the default name). */
    static List<String> libraryCandidates(String configured) {
        Set<String> out = new LinkedHashSet<>();
        out.add(configured);
        if (!configured.equals(GpuOptions.AMD_SMI_LIBRARY)) {
            return List.copyOf(out); // a library named on purpose: only that one
        }
        String rocm = System.getenv("ROCM_PATH");
        if (rocm != null && !rocm.isBlank()) {
            out.add(Path.of(rocm, "lib", "libamd_smi.so").toString());
        }
        out.add("/opt/rocm/lib/libamd_smi.so");
        return List.copyOf(out);
    }

    /**
     * Loads and initialises AMD SMI for AMD GPUs and takes the selected ones.
     *
     * @param firstIndex the number the user sees for AMD SMI's first GPU
     */
    static Opened open(
            List<String> libraries,
            Set<GpuMetric> metrics,
            GpuDeviceSelection selection,
            int firstIndex,
            PrintStream log) {
        Arena arena = Arena.ofShared();
        if (!(OptionalLibrary.load("AMD SMI", libraries, arena) instanceof LibraryLoad.Loaded loaded)) {
            arena.close();
            return new Opened(null, 0, false, "libamd_smi.so not found");
        }
        SymbolLookup lib = loaded.lookup();
        Linker l = Linker.nativeLinker();
        boolean initialised = false;
        MethodHandle shutDown = null;
        int found = 0;
        try {
            MethodHandle init = l.downcallHandle(need(lib, "amdsmi_init"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            shutDown = l.downcallHandle(need(lib, "amdsmi_shut_down"), FunctionDescriptor.of(JAVA_INT));
            MethodHandle libVersion =
                    l.downcallHandle(need(lib, "amdsmi_get_lib_version"), FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MethodHandle sockets = l.downcallHandle(
                    need(lib, "amdsmi_get_socket_handles"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
            MethodHandle processors = l.downcallHandle(
                    need(lib, "amdsmi_get_processor_handles"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
            MethodHandle asicInfo = l.downcallHandle(
                    need(lib, "amdsmi_get_gpu_asic_info"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

            int rc = (int) init.invokeExact(AMDSMI_INIT_AMD_GPUS);
            if (rc != AMDSMI_STATUS_SUCCESS) {
                arena.close();
                return new Opened(null, 0, true, "amdsmi_init failed with status " + rc);
            }
            initialised = true;
            int[] version = version(libVersion, arena);

            MemorySegment count = arena.allocate(JAVA_INT);
            rc = (int) sockets.invokeExact(count, MemorySegment.NULL);
            check(rc, "amdsmi_get_socket_handles");
            int nSockets = count.get(JAVA_INT, 0);
            MemorySegment socketHandles = arena.allocate(ADDRESS, Math.max(1, nSockets));
            rc = (int) sockets.invokeExact(count, socketHandles);
            check(rc, "amdsmi_get_socket_handles");
            nSockets = Math.min(nSockets, count.get(JAVA_INT, 0));

            List<GpuDevice> devices = new ArrayList<>();
            List<MemorySegment> handles = new ArrayList<>();
            MemorySegment asic = arena.allocate(4096, 8);
            int ordinal = 0;
            for (int s = 0; s < nSockets; s++) {
                MemorySegment socket = socketHandles.getAtIndex(ADDRESS, s);
                rc = (int) processors.invokeExact(socket, count, MemorySegment.NULL);
                check(rc, "amdsmi_get_processor_handles");
                int n = count.get(JAVA_INT, 0);
                if (n == 0) {
                    continue;
                }
                MemorySegment procs = arena.allocate(ADDRESS, n);
                rc = (int) processors.invokeExact(socket, count, procs);
                check(rc, "amdsmi_get_processor_handles");
                n = Math.min(n, count.get(JAVA_INT, 0));
                for (int p = 0; p < n; p++, ordinal++) {
                    int index = firstIndex + ordinal;
                    if (!selection.includes(index)) {
                        continue;
                    }
                    MemorySegment h = procs.getAtIndex(ADDRESS, p);
                    asic.fill((byte) 0);
                    rc = (int) asicInfo.invokeExact(h, asic);
                    String name =
                            rc == AMDSMI_STATUS_SUCCESS ? asic.getString(0).strip() : "";
                    devices.add(new GpuDevice(index, name.isEmpty() ? "AMD GPU" : name, "amdsmi:" + ordinal));
                    handles.add(h);
                }
            }
            found = ordinal;
            if (ordinal == 0) {
                int ignored = (int) shutDown.invokeExact();
                arena.close();
                return new Opened(null, 0, true, NO_GPU);
            }
            if (devices.isEmpty()) {
                int ignored = (int) shutDown.invokeExact();
                arena.close();
                return new Opened(null, ordinal, true, null); // GPUs there, none selected
            }
            return new Opened(
                    new AmdSmiBackend(
                            arena, lib, version, devices, handles.toArray(MemorySegment[]::new), metrics, log),
                    ordinal,
                    true,
                    null);
        } catch (Throwable t) {
            if (initialised && shutDown != null) {
                shutDownQuietly(shutDown);
            }
            arena.close();
            return new Opened(null, found, true, String.valueOf(t.getMessage()));
        }
    }

    /**
     * {major, minor} of the library. amdsmi_version_t was {year, major, minor, release, build} up to
     * 24.x and is {major, minor, release, build} since 25; in both {@code build} (the full version
     * string, "24.7.1.0" or "26.5.0") is the pointer at offset 16.
     */
    static int[] version(MethodHandle libVersion, Arena arena) throws Throwable {
        MemorySegment v = arena.allocate(64, 8);
        int rc = (int) libVersion.invokeExact(v);
        if (rc != AMDSMI_STATUS_SUCCESS) {
            return new int[] {0, 0};
        }
        MemorySegment build = v.get(ADDRESS, 16);
        if (!build.equals(MemorySegment.NULL)) {
            int[] parsed = parseVersion(build.reinterpret(64).getString(0));
            if (parsed != null) {
                return parsed;
            }
        }
        return new int[] {v.get(JAVA_INT, 0), v.get(JAVA_INT, 4)};
    }

    /** "24.7.1.0" (year.major.minor.release) gives {7, 1}; "26.5.0" gives {26, 5}; else null. */
    static int[] parseVersion(String build) {
        String[] p = build.strip().split("\\.");
        try {
            if (p.length >= 4) {
                return new int[] {Integer.parseInt(p[1]), Integer.parseInt(p[2])};
            }
            if (p.length == 3) {
                return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1])};
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }

    private static void check(int rc, String what) {
        if (rc != AMDSMI_STATUS_SUCCESS) {
            throw new IllegalStateException(what + " failed with status " + rc);
        }
    }

    private static MemorySegment need(SymbolLookup lib, String symbol) {
        return lib.find(symbol).orElseThrow(() -> new IllegalArgumentException("libamd_smi.so has no " + symbol));
    }

    @Override
    void sampleDevice(int d, long ts, Consumer<CounterSample> out) {
        MemorySegment h = handles[d];
        try {
            if (wants(d, GpuMetric.BUSY_GFX) || wants(d, GpuMetric.BUSY_UMC) || wants(d, GpuMetric.BUSY_MM)) {
                int rc = (int) activity.invokeExact(h, usage);
                busy(d, GpuMetric.BUSY_GFX, rc, 0, ts, out);
                busy(d, GpuMetric.BUSY_UMC, rc, 4, ts, out);
                busy(d, GpuMetric.BUSY_MM, rc, 8, ts, out);
            }
            if (wants(d, GpuMetric.TEMPERATURE)) {
                int rc = (int) temperature.invokeExact(h, AMDSMI_TEMPERATURE_TYPE_JUNCTION, AMDSMI_TEMP_CURRENT, value);
                if (rc == AMDSMI_STATUS_SUCCESS) {
                    emit(d, GpuMetric.TEMPERATURE, ts, value.get(JAVA_LONG, 0), out); // the library gives °C
                } else {
                    unsupported(d, GpuMetric.TEMPERATURE, reason(rc));
                }
            }
            if (wants(d, GpuMetric.POWER)) {
                int rc = powerTakesSensor
                        ? (int) power.invokeExact(h, 0, powerInfo)
                        : (int) power.invokeExact(h, powerInfo);
                if (rc == AMDSMI_STATUS_SUCCESS) {
                    long at = powerV25 ? 8 : 0;
                    long current = Integer.toUnsignedLong(powerInfo.get(JAVA_INT, at));
                    long average = Integer.toUnsignedLong(powerInfo.get(JAVA_INT, at + 4));
                    if (current != NO_VALUE_32 && current != NO_VALUE_16) {
                        emit(d, GpuMetric.POWER, ts, current, out);
                    } else if (average != NO_VALUE_32 && average != NO_VALUE_16) {
                        emit(d, GpuMetric.POWER, ts, average, out);
                    } else {
                        unsupported(d, GpuMetric.POWER, "is not reported by AMD SMI for this GPU");
                    }
                } else {
                    unsupported(d, GpuMetric.POWER, reason(rc));
                }
            }
            if (wants(d, GpuMetric.MEMORY_USAGE)) {
                int rc = (int) memoryUsage.invokeExact(h, AMDSMI_MEM_TYPE_VRAM, value);
                if (rc == AMDSMI_STATUS_SUCCESS) {
                    emit(d, GpuMetric.MEMORY_USAGE, ts, value.get(JAVA_LONG, 0) / 1e6, out);
                } else {
                    unsupported(d, GpuMetric.MEMORY_USAGE, reason(rc));
                }
            }
            boolean vcn = wants(d, GpuMetric.VCN_ACTIVITY);
            boolean jpeg = wants(d, GpuMetric.JPEG_ACTIVITY);
            if (vcn || jpeg) {
                int rc = (int) gpuMetrics.invokeExact(h, metricsBuf);
                if (rc != AMDSMI_STATUS_SUCCESS) {
                    unsupported(d, GpuMetric.VCN_ACTIVITY, reason(rc));
                    unsupported(d, GpuMetric.JPEG_ACTIVITY, reason(rc));
                } else {
                    if (vcn) {
                        engines(d, GpuMetric.VCN_ACTIVITY, VCN_ACTIVITY, VCN_ENGINES, ts, out);
                    }
                    if (jpeg) {
                        engines(d, GpuMetric.JPEG_ACTIVITY, JPEG_ACTIVITY, JPEG_ENGINES, ts, out);
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private void busy(int d, GpuMetric m, int rc, long offset, long ts, Consumer<CounterSample> out) {
        if (!wants(d, m)) {
            return;
        }
        if (rc != AMDSMI_STATUS_SUCCESS) {
            unsupported(d, m, reason(rc));
            return;
        }
        long v = Integer.toUnsignedLong(usage.get(JAVA_INT, offset));
        if (v == NO_VALUE_32 || v == NO_VALUE_16) {
            unsupported(d, m, "is not reported by AMD SMI for this GPU");
        } else {
            emit(d, m, ts, v, out);
        }
    }

    /** The engines with a value, numbered in order as upstream; none at all is a notice. */
    private void engines(int d, GpuMetric m, long offset, int max, long ts, Consumer<CounterSample> out) {
        int n = 0;
        for (int i = 0; i < max; i++) {
            int v = Short.toUnsignedInt(metricsBuf.get(JAVA_SHORT, offset + 2L * i));
            if (v != NO_VALUE_16) {
                emit(d, m, n++, ts, v, out);
            }
        }
        if (n == 0) {
            unsupported(d, m, "is not reported in this GPU's metrics table");
        }
    }

    private String reason(int rc) {
        String text = "status " + rc;
        try {
            MemorySegment p = arena.allocate(ADDRESS);
            if ((int) statusString.invokeExact(rc, p) == AMDSMI_STATUS_SUCCESS) {
                MemorySegment s = p.get(ADDRESS, 0);
                if (!s.equals(MemorySegment.NULL)) {
                    text = s.reinterpret(256).getString(0) + " (" + text + ")";
                }
            }
        } catch (Throwable ignored) {
            // keep the number
        }
        return rc == AMDSMI_STATUS_NOT_SUPPORTED
                ? "is not supported by this GPU (" + text + ")"
                : "cannot be read: " + text;
    }

    @Override
    void release() {
        shutDownQuietly(shutDown);
        arena.close();
    }
}
