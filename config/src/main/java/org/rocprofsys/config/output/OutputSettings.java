package org.rocprofsys.config.output;

import java.util.Objects;

/**
 * The settings that decide where output goes, taken as plain values so this package does not
 * depend on the settings registry.
 *
 * @param outputPath   ROCPROFSYS_OUTPUT_PATH, the output folder (may hold %keys%)
 * @param outputPrefix ROCPROFSYS_OUTPUT_PREFIX, put before every file name (may hold %keys%)
 * @param timeOutput   ROCPROFSYS_TIME_OUTPUT, add a launch-time folder below the output folder
 * @param timeFormat   ROCPROFSYS_TIME_FORMAT, strftime format of that folder
 * @param usePid       ROCPROFSYS_USE_PID, end file names with "-<pid>"
 * @param perfettoFile ROCPROFSYS_PERFETTO_FILE, name (and optionally folder) of the trace
 */
public record OutputSettings(
        String outputPath,
        String outputPrefix,
        boolean timeOutput,
        String timeFormat,
        boolean usePid,
        String perfettoFile) {

    public OutputSettings {
        Objects.requireNonNull(outputPath, "outputPath");
        Objects.requireNonNull(outputPrefix, "outputPrefix");
        Objects.requireNonNull(timeFormat, "timeFormat");
        Objects.requireNonNull(perfettoFile, "perfettoFile");
    }

    /** rocprof-sys's defaults (TIME_OUTPUT is on in rocprof-sys although off in timemory). */
    public static OutputSettings defaults() {
        return new OutputSettings(
                "rocprofsys-%tag%-output", "", true, OutputKeys.DEFAULT_TIME_FORMAT, true, "perfetto-trace.proto");
    }
}
