package org.rocprofsys.core.rocpd;

import org.rocprofsys.core.gpu.Dim3;

/** A rocpd_kernel_dispatch row's values (ids of rows already added). */
record KernelRow(
        long processId,
        long threadId,
        long agentId,
        long kernelId,
        long dispatchId,
        long queueId,
        long streamId,
        long start,
        long end,
        int groupSegmentSize,
        Dim3 block,
        Dim3 grid,
        long regionNameId,
        long eventId) {}
