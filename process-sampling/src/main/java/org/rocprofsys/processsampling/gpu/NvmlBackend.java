package org.rocprofsys.processsampling.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.ffm.LibraryLoad;
import org.rocprofsys.ffm.OptionalLibrary;

/**
 * NVIDIA GPUs through NVML ({@code libnvidia-ml.so.1}, the driver's library) called with FFM.
 *
 * <p>Per tick and device, only NVML's cheap queries (anchors.md: about 0.25 µs each, memory
 * information about 4 µs): {@code nvmlDeviceGetUtilizationRates} (the GPU's busy % as GFX Busy,
 * the memory controller's as UMC Busy), {@code nvmlDeviceGetTemperature} (the GPU sensor, °C),
 * {@code nvmlDeviceGetPowerUsage} (mW, written as watts) and {@code nvmlDeviceGetMemoryInfo} (bytes
 * in use, written as MB of 10^6 bytes as timemory's). Optional VCN-like series: engine 00 is the
 * video decoder (NVDEC), 01 the encoder (NVENC); JPEG Activity [00] is NVJPG where the driver has
 * {@code nvmlDeviceGetJpgUtilization}. NVML has no multimedia-engine busy, so MM Busy is skipped
 * with a notice.
 */
final class NvmlBackend extends AbstractGpuBackend {
    static final String LIBRARY = "libnvidia-ml.so.1";

    static final int NVML_SUCCESS = 0;
    static final int NVML_ERROR_NOT_SUPPORTED = 3;
    static final int NVML_TEMPERATURE_GPU = 0;
    /** NVML_DEVICE_NAME_V2_BUFFER_SIZE. */
    static final int NAME_BUFFER = 96;

    /** nvmlUtilization_t: unsigned int gpu, memory (percent of the last sample period). */
    static final StructLayout UTILIZATION =
            MemoryLayout.structLayout(JAVA_INT.withName("gpu"), JAVA_INT.withName("memory"));
    /** nvmlMemory_t: unsigned long long total, free, used (bytes). */
    static final StructLayout MEMORY = MemoryLayout.structLayout(
            JAVA_LONG.withName("total"), JAVA_LONG.withName("free"), JAVA_LONG.withName("used"));

    static final long UTIL_GPU = UTILIZATION.byteOffset(MemoryLayout.PathElement.groupElement("gpu"));
    static final long UTIL_MEMORY = UTILIZATION.byteOffset(MemoryLayout.PathElement.groupElement("memory"));
    static final long MEMORY_USED = MEMORY.byteOffset(MemoryLayout.PathElement.groupElement("used"));

    /** The downcalls; {@code jpgUtilization} is null where the driver predates it. */
    record Api(
            MethodHandle init,
            MethodHandle shutdown,
            MethodHandle errorString,
            MethodHandle count,
            MethodHandle handleByIndex,
            MethodHandle name,
            MethodHandle utilization,
            MethodHandle temperature,
            MethodHandle power,
            MethodHandle memory,
            MethodHandle encoder,
            MethodHandle decoder,
            MethodHandle jpgUtilization) {

        /** @throws IllegalArgumentException where the library or a required symbol is missing */
        static Api load(String library, Arena arena) {
            if (!(OptionalLibrary.load("NVML", List.of(library), arena) instanceof LibraryLoad.Loaded loaded)) {
                throw new IllegalArgumentException("cannot load " + library);
            }
            SymbolLookup lib = loaded.lookup();
            Linker l = Linker.nativeLinker();
            FunctionDescriptor noArgs = FunctionDescriptor.of(JAVA_INT);
            FunctionDescriptor ptr = FunctionDescriptor.of(JAVA_INT, ADDRESS);
            FunctionDescriptor devPtr = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
            FunctionDescriptor devPtrPtr = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
            return new Api(
                    l.downcallHandle(need(lib, "nvmlInit_v2"), noArgs),
                    l.downcallHandle(need(lib, "nvmlShutdown"), noArgs),
                    l.downcallHandle(need(lib, "nvmlErrorString"), FunctionDescriptor.of(ADDRESS, JAVA_INT)),
                    l.downcallHandle(need(lib, "nvmlDeviceGetCount_v2"), ptr),
                    l.downcallHandle(
                            need(lib, "nvmlDeviceGetHandleByIndex_v2"),
                            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
                    l.downcallHandle(
                            need(lib, "nvmlDeviceGetName"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
                    l.downcallHandle(need(lib, "nvmlDeviceGetUtilizationRates"), devPtr),
                    l.downcallHandle(
                            need(lib, "nvmlDeviceGetTemperature"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)),
                    l.downcallHandle(need(lib, "nvmlDeviceGetPowerUsage"), devPtr),
                    l.downcallHandle(need(lib, "nvmlDeviceGetMemoryInfo"), devPtr),
                    l.downcallHandle(need(lib, "nvmlDeviceGetEncoderUtilization"), devPtrPtr),
                    l.downcallHandle(need(lib, "nvmlDeviceGetDecoderUtilization"), devPtrPtr),
                    lib.find("nvmlDeviceGetJpgUtilization")
                            .map(s -> l.downcallHandle(s, devPtrPtr))
                            .orElse(null));
        }

        private static MemorySegment need(SymbolLookup lib, String symbol) {
            return lib.find(symbol).orElseThrow(() -> new IllegalArgumentException("no symbol " + symbol));
        }

        String error(int rc) {
            try {
                MemorySegment s = (MemorySegment) errorString.invokeExact(rc);
                return s.equals(MemorySegment.NULL)
                        ? "NVML error " + rc
                        : s.reinterpret(256).getString(0) + " (NVML error " + rc + ")";
            } catch (Throwable t) {
                return "NVML error " + rc;
            }
        }
    }

    private final Arena arena;
    private final Api api;
    private final MemorySegment[] handles;
    private final MemorySegment util;
    private final MemorySegment value;
    private final MemorySegment period;
    private final MemorySegment memory;

    private NvmlBackend(
            Arena arena,
            Api api,
            List<GpuDevice> devices,
            MemorySegment[] handles,
            Set<GpuMetric> metrics,
            PrintStream log) {
        super("nvml", devices, metrics, log);
        this.arena = arena;
        this.api = api;
        this.handles = handles;
        this.util = arena.allocate(UTILIZATION);
        this.value = arena.allocate(JAVA_INT);
        this.period = arena.allocate(JAVA_INT);
        this.memory = arena.allocate(MEMORY);
        for (int d = 0; d < devices.size(); d++) {
            unsupported(d, GpuMetric.BUSY_MM, "is not available through NVML (it has no multimedia-engine busy)");
            if (api.jpgUtilization() == null) {
                unsupported(
                        d, GpuMetric.JPEG_ACTIVITY, "is not available: this NVML has no nvmlDeviceGetJpgUtilization");
            }
        }
    }

    /** NVIDIA's GPUs, a {@link GpuVendor}. */
    static GpuDetection detect(GpuOptions options, int firstIndex, PrintStream log) {
        return open(options.nvmlLibrary(), options.metrics(), options.devices(), firstIndex, log);
    }

    /**
     * Loads and initialises NVML and takes the selected GPUs.
     *
     * @param firstIndex the number the user sees for NVML's GPU 0
     * @return the number of NVIDIA GPUs NVML reports (selected or not) and the backend; no backend
     *         where the library is missing, NVML cannot initialise, or no GPU is selected
     */
    static GpuDetection open(
            String library, Set<GpuMetric> metrics, GpuDeviceSelection selection, int firstIndex, PrintStream log) {
        Arena arena = Arena.ofShared();
        Api api;
        try {
            api = Api.load(library, arena);
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            arena.close();
            return GpuDetection.NONE; // no NVIDIA driver here: nothing to say
        }
        boolean initialised = false;
        int found = 0;
        try {
            int rc = (int) api.init().invokeExact();
            if (rc != NVML_SUCCESS) {
                log.println("[rocprof-sys] NVML is present but did not initialise: " + api.error(rc)
                        + "; no NVIDIA GPU metrics");
                arena.close();
                return GpuDetection.NONE;
            }
            initialised = true;
            MemorySegment count = arena.allocate(JAVA_INT);
            rc = (int) api.count().invokeExact(count);
            if (rc != NVML_SUCCESS) {
                throw new IllegalStateException("nvmlDeviceGetCount_v2: " + api.error(rc));
            }
            int n = count.get(JAVA_INT, 0);
            found = n;
            List<GpuDevice> devices = new ArrayList<>();
            List<MemorySegment> handles = new ArrayList<>();
            MemorySegment handle = arena.allocate(ADDRESS);
            MemorySegment name = arena.allocate(NAME_BUFFER);
            for (int i = 0; i < n; i++) {
                int index = firstIndex + i;
                if (!selection.includes(index)) {
                    continue;
                }
                rc = (int) api.handleByIndex().invokeExact(i, handle);
                if (rc != NVML_SUCCESS) {
                    log.println("[rocprof-sys] warning: GPU " + index + ": NVML gives no handle (" + api.error(rc)
                            + "); skipping this GPU");
                    continue;
                }
                MemorySegment h = handle.get(ADDRESS, 0);
                name.fill((byte) 0);
                rc = (int) api.name().invokeExact(h, name, NAME_BUFFER);
                String label = rc == NVML_SUCCESS ? name.getString(0) : "NVIDIA GPU";
                devices.add(new GpuDevice(index, label, "nvml:" + i));
                handles.add(h);
            }
            if (devices.isEmpty()) {
                int ignored = (int) api.shutdown().invokeExact();
                arena.close();
                return new GpuDetection(n, Optional.empty());
            }
            return new GpuDetection(
                    n,
                    Optional.of(
                            new NvmlBackend(arena, api, devices, handles.toArray(MemorySegment[]::new), metrics, log)));
        } catch (Throwable t) {
            log.println("[rocprof-sys] warning: NVML failed while listing GPUs (" + t.getMessage()
                    + "); no NVIDIA GPU metrics");
            if (initialised) {
                shutDownQuietly(api.shutdown());
            }
            arena.close();
            return new GpuDetection(found, Optional.empty());
        }
    }

    @Override
    void sampleDevice(int d, long ts, Consumer<CounterSample> out) {
        MemorySegment h = handles[d];
        try {
            boolean gfx = wants(d, GpuMetric.BUSY_GFX);
            boolean umc = wants(d, GpuMetric.BUSY_UMC);
            if (gfx || umc) {
                int rc = (int) api.utilization().invokeExact(h, util);
                if (rc == NVML_SUCCESS) {
                    if (gfx) {
                        emit(d, GpuMetric.BUSY_GFX, ts, Integer.toUnsignedLong(util.get(JAVA_INT, UTIL_GPU)), out);
                    }
                    if (umc) {
                        emit(d, GpuMetric.BUSY_UMC, ts, Integer.toUnsignedLong(util.get(JAVA_INT, UTIL_MEMORY)), out);
                    }
                } else {
                    failed(d, GpuMetric.BUSY_GFX, rc);
                    failed(d, GpuMetric.BUSY_UMC, rc);
                }
            }
            if (wants(d, GpuMetric.TEMPERATURE)) {
                int rc = (int) api.temperature().invokeExact(h, NVML_TEMPERATURE_GPU, value);
                if (rc == NVML_SUCCESS) {
                    emit(d, GpuMetric.TEMPERATURE, ts, Integer.toUnsignedLong(value.get(JAVA_INT, 0)), out);
                } else {
                    failed(d, GpuMetric.TEMPERATURE, rc);
                }
            }
            if (wants(d, GpuMetric.POWER)) {
                int rc = (int) api.power().invokeExact(h, value);
                if (rc == NVML_SUCCESS) {
                    emit(d, GpuMetric.POWER, ts, Integer.toUnsignedLong(value.get(JAVA_INT, 0)) / 1000.0, out);
                } else {
                    failed(d, GpuMetric.POWER, rc);
                }
            }
            if (wants(d, GpuMetric.MEMORY_USAGE)) {
                int rc = (int) api.memory().invokeExact(h, memory);
                if (rc == NVML_SUCCESS) {
                    emit(d, GpuMetric.MEMORY_USAGE, ts, memory.get(JAVA_LONG, MEMORY_USED) / 1e6, out);
                } else {
                    failed(d, GpuMetric.MEMORY_USAGE, rc);
                }
            }
            if (wants(d, GpuMetric.VCN_ACTIVITY, 0)) {
                int rc = (int) api.decoder().invokeExact(h, value, period);
                engine(d, GpuMetric.VCN_ACTIVITY, 0, "NVDEC", rc, ts, out);
            }
            if (wants(d, GpuMetric.VCN_ACTIVITY, 1)) {
                int rc = (int) api.encoder().invokeExact(h, value, period);
                engine(d, GpuMetric.VCN_ACTIVITY, 1, "NVENC", rc, ts, out);
            }
            if (wants(d, GpuMetric.JPEG_ACTIVITY, 0)) {
                int rc = (int) api.jpgUtilization().invokeExact(h, value, period);
                engine(d, GpuMetric.JPEG_ACTIVITY, 0, "NVJPG", rc, ts, out);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private void engine(int d, GpuMetric m, int e, String engine, int rc, long ts, Consumer<CounterSample> out) {
        if (rc == NVML_SUCCESS) {
            emit(d, m, e, ts, Integer.toUnsignedLong(value.get(JAVA_INT, 0)), out);
        } else {
            unsupported(d, m, e, engine, reason(rc));
        }
    }

    private void failed(int d, GpuMetric m, int rc) {
        unsupported(d, m, reason(rc));
    }

    private String reason(int rc) {
        return rc == NVML_ERROR_NOT_SUPPORTED
                ? "is not supported by this GPU (NVML_ERROR_NOT_SUPPORTED)"
                : "cannot be read: " + api.error(rc);
    }

    @Override
    void release() {
        shutDownQuietly(api.shutdown());
        arena.close();
    }
}
