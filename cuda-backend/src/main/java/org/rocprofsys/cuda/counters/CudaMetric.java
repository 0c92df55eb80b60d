package org.rocprofsys.cuda.counters;

/**
 * A base metric of CUPTI's profiler host API for one GPU ({@code cuptiProfilerHostGetBaseMetrics},
 * {@code cuptiProfilerHostGetMetricProperties}). Users collect it with a rollup or sub-metric
 * appended ({@code smsp__inst_executed} as {@code smsp__inst_executed.sum}).
 *
 * @param device CUDA device index; -1 when listed for a chip name alone
 * @param chip   CUPTI's chip name ({@code GH100})
 * @param type   {@code counter}, {@code ratio} or {@code throughput}
 * @param unit   CUPTI's dimension unit ({@code byte}, {@code instruction}; empty for ratios)
 */
public record CudaMetric(int device, String chip, String name, String type, String unit, String description) {}
