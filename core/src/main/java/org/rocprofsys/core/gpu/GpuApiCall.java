package org.rocprofsys.core.gpu;

import java.util.List;

/**
 * A host-side call of a GPU runtime API on thread {@code tid}.
 *
 * @param correlationId the runtime's id for this call; the device work it launched carries the same
 *                      id (0 when the runtime gave none)
 * @param streamId      the runtime's id of the stream the call names (the id its device work
 *                      carries), -1 when it names none or the backend did not record it
 * @param arguments     the recorded arguments by name, in the API's order, empty when none were
 *                      recorded
 */
public record GpuApiCall(
        int pid,
        int tid,
        GpuDomain domain,
        String function,
        long beginNs,
        long endNs,
        long correlationId,
        long streamId,
        List<GpuArgument> arguments)
        implements GpuInterval {
    public GpuApiCall {
        arguments = List.copyOf(arguments);
    }

    /** A call without a stream. */
    public GpuApiCall(
            int pid,
            int tid,
            GpuDomain domain,
            String function,
            long beginNs,
            long endNs,
            long correlationId,
            List<GpuArgument> arguments) {
        this(pid, tid, domain, function, beginNs, endNs, correlationId, -1, arguments);
    }
}
