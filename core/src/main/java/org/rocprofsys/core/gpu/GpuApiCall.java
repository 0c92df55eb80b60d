package org.rocprofsys.core.gpu;

import java.util.List;

/**
 * A host-side call of a GPU runtime API on thread {@code tid}.
 *
 * @param correlationId the runtime's id for this call; the device work it launched carries the same
 *                      id (0 when the runtime gave none)
 * @param arguments     the recorded arguments, empty when none were recorded
 */
public record GpuApiCall(
        int pid,
        int tid,
        GpuDomain domain,
        String function,
        long beginNs,
        long endNs,
        long correlationId,
        List<GpuArgument> arguments)
        implements GpuEvent {
    public GpuApiCall {
        arguments = List.copyOf(arguments);
    }

    @Override
    public long timestampNs() {
        return beginNs;
    }
}
