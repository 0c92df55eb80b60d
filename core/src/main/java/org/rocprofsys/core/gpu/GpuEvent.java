package org.rocprofsys.core.gpu;

/**
 * One GPU event of a process. {@link #timestampNs()} is when it began (CLOCK_MONOTONIC ns), for
 * ordering; events of one kind and one stream or thread arrive in the order the runtime reported
 * them, which is not a global time order.
 */
public sealed interface GpuEvent permits GpuDevice, GpuMemoryAllocation, GpuInterval {
    int pid();

    long timestampNs();
}
