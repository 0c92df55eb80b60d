package org.rocprofsys.core.gpu;

/**
 * A host thread waiting on the GPU, from {@code beginNs} to {@code endNs}.
 *
 * @param device the device waited on (-1 when the runtime did not say)
 * @param stream the stream waited on (-1 for a device-wide wait)
 */
public record GpuSynchronization(
        int pid, int device, long stream, long correlationId, long beginNs, long endNs, SyncKind kind)
        implements GpuInterval {}
