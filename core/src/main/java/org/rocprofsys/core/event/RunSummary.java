package org.rocprofsys.core.event;

import java.util.Map;

/**
 * What sinks know at the end of a run.
 *
 * @param endNs           CLOCK_MONOTONIC ns when the collector finished reading
 * @param realtimeOffsetNs CLOCK_REALTIME minus CLOCK_MONOTONIC at the start of the run, so a sink can
 *                         show wall-clock times
 * @param rootPid         the pid of the launched target
 * @param executable      basename of the target executable (the main region's name)
 * @param droppedRecords  records lost per "pid/tid", empty when none
 */
public record RunSummary(
        long endNs, long realtimeOffsetNs, int rootPid, String executable, Map<String, Long> droppedRecords) {}
