package org.rocprofsys.core.rocpd;

/**
 * A rocpd_memory_allocate row's values (ids of rows already added).
 *
 * @param type  ALLOC or FREE
 * @param level REAL (device and host memory) or VIRTUAL (managed memory)
 */
record AllocationRow(
        long processId,
        long threadId,
        long agentId,
        String type,
        String level,
        long time,
        long address,
        long size,
        long queueId,
        long streamId,
        long eventId,
        String extdata) {}
