package org.rocprofsys.core.output;

import java.io.PrintStream;
import java.nio.file.Path;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.OutputPaths;

/**
 * What an output format is opened with.
 *
 * @param settings         the run's settings
 * @param paths            where the run's files go (named after the target's pid)
 * @param rootPid          the launched target's pid
 * @param executable       basename of the target executable (the main region's name)
 * @param realtimeOffsetNs CLOCK_REALTIME minus CLOCK_MONOTONIC at the start of the run
 * @param log              where the "Outputting" lines go (upstream: standard error)
 * @param cout             where tables meant for the terminal go (upstream: standard output)
 */
public record OutputContext(
        Settings settings,
        OutputPaths paths,
        int rootPid,
        String executable,
        long realtimeOffsetNs,
        PrintStream log,
        PrintStream cout) {
    /** Says on the log that {@code file} of output {@code key} is written, as upstream's outputs do. */
    public void announce(String key, Path file) {
        log.println("[rocprof-sys][" + rootPid + "][" + key + "]> Outputting '" + file + "'...");
    }
}
