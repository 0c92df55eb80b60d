package org.rocprofsys.core.rocpd;

/** A rocpd_memory_copy row's values (ids of rows already added). */
record CopyRow(
        long processId,
        long threadId,
        long start,
        long end,
        long nameId,
        long dstAgentId,
        long srcAgentId,
        long size,
        long queueId,
        long streamId,
        long regionNameId,
        long eventId) {}
