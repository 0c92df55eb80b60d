package org.rocprofsys.processsampling.gpu;

import java.util.List;
import java.util.function.Consumer;
import org.rocprofsys.core.event.CounterSample;

/**
 * A source of GPU metric samples for the process sampler: NVML, AMD-SMI, or the amdgpu sysfs
 * files. Made by {@link GpuBackends#detect}; used by one sampler thread at a time (not
 * thread-safe); {@link #close()} after the last call.
 *
 * <p>Only cheap queries run on the periodic path (utilisation, temperature, power, memory in use;
 * never energy counters or process lists). A metric a device lacks is skipped with one notice naming
 * the device and the metric; the device's other metrics go on (upstream issue 330).
 */
public interface GpuBackend extends AutoCloseable {
    /** "nvml", "amd-smi" or "amdgpu-sysfs". */
    String name();

    /** The selected devices this backend samples, in index order. */
    List<GpuDevice> devices();

    /** Reads the enabled metrics of every selected device once, all stamped {@code timestampNs}. */
    void sample(long timestampNs, Consumer<CounterSample> out);

    /** Ends every series that produced a value with a 0 at {@code timestampNs}, as upstream. */
    void stop(long timestampNs, Consumer<CounterSample> out);

    /** Releases the library or files; idempotent. */
    @Override
    void close();
}
