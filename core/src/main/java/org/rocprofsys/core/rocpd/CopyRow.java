package org.rocprofsys.core.rocpd;

/**
 * A rocpd_memory_copy row's values (ids of rows already added). A null address (both sides: a
 * unified-memory migration keeps its virtual address), queue, stream or region name is NULL.
 */
record CopyRow(
        long processId,
        long threadId,
        long start,
        long end,
        long nameId,
        long dstAgentId,
        long srcAgentId,
        Long address,
        long size,
        Long queueId,
        Long streamId,
        Long regionNameId,
        long eventId) {}
