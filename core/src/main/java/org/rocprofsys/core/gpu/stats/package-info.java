/**
 * Summaries of GPU events as rocprofv3 {@code --stats} writes them: per name, the count, total,
 * mean, share, minimum, maximum and standard deviation of the durations, sorted by total time
 * ({@code kernel_stats}, {@code cuda_api_stats}, {@code memory_copy_stats}, {@code domain_stats}).
 */
package org.rocprofsys.core.gpu.stats;
