/**
 * The vendor-neutral GPU event model: what every GPU tracing backend (CUDA through CUPTI, ROCm
 * through rocprofiler-sdk) turns its runtime's records into, and what the GPU parts of the
 * writers read. Every time is CLOCK_MONOTONIC ns, the time base of the host events; every event
 * is complete (begin and end known) when it is emitted, since GPU activity reaches the collector
 * in buffers, after the fact and not in time order.
 *
 * <p>No type here names a vendor: a backend defines its {@link org.rocprofsys.core.gpu.GpuVendor}
 * (stats table, rocpd names, tracing switch) and {@link org.rocprofsys.core.gpu.GpuDomain}s
 * (setting name, category), and puts on each piece of device work its
 * {@link org.rocprofsys.core.gpu.DevicePlacement}: the track, category and annotations the trace
 * shows it with.
 */
package org.rocprofsys.core.gpu;
