package org.rocprofsys.core.gpu;

/**
 * One hardware counter's value for one kernel execution (rocprofiler-sdk's dispatch counting
 * service on AMD, CUPTI's profiler on NVIDIA): what {@code ROCPROFSYS_ROCM_EVENTS} and its CUDA
 * counterpart ask for. Each backend emits one sample per kernel and requested metric, after the
 * kernel ended; when a runtime splits a metric into instances (per shader engine, per XCD) the
 * backend sums them first, as upstream does.
 *
 * @param device        the device index, as in {@link GpuKernel#device()}
 * @param correlationId the correlation id of the launching API call, as on the kernel (0 when
 *                      unknown); joins the sample to its {@link GpuKernel}
 * @param dispatchId    the runtime's id for this execution (rocprofiler-sdk's dispatch id, CUPTI's
 *                      range or kernel index), 0 when it has none
 * @param kernelName    the demangled kernel name, the row the per-kernel outputs file it under
 * @param metric        the counter's name as the user wrote it ({@code SQ_WAVES},
 *                      {@code smsp__inst_executed.sum})
 * @param value         the counter's value over the kernel
 * @param beginNs       the kernel's begin (CLOCK_MONOTONIC ns); the counter track shows the value
 *                      from here
 * @param endNs         the kernel's end; the counter track falls back to 0 here (begin when the
 *                      backend knows no interval)
 */
public record GpuCounterSample(
        int pid,
        int device,
        long correlationId,
        long dispatchId,
        String kernelName,
        String metric,
        double value,
        long beginNs,
        long endNs)
        implements GpuInterval {
    /**
     * The metric as upstream spells it in track and file names: an instance index in brackets
     * becomes a suffix ({@code TA_TA_BUSY[11]} is {@code TA_TA_BUSY_11}).
     */
    public String metricKey() {
        return INSTANCE.matcher(metric).replaceAll("$1_$2");
    }

    private static final java.util.regex.Pattern INSTANCE = java.util.regex.Pattern.compile("(.*)\\[([0-9]+)\\]");
}
