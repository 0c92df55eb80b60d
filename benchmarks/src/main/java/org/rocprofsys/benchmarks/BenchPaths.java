package org.rocprofsys.benchmarks;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.config.output.OutputSettings;

/** The output paths of a benchmark's run: one process {@code exe}, launched at a fixed time, no settings. */
final class BenchPaths {
    private BenchPaths() {}

    /** Outputs under {@code outputDir} (no time folder, pid suffix on); {@code base} resolves relative paths. */
    static OutputPaths of(Path outputDir, Path base, String exe, int pid, ZonedDateTime launched) {
        LaunchContext ctx = new LaunchContext(
                List.of(exe), pid, 1, pid, pid, launched, Map.of(), k -> Optional.empty(), Optional.empty());
        OutputSettings os =
                new OutputSettings(outputDir.toString(), "", false, "%F_%H.%M", true, "perfetto-trace.proto");
        return new OutputPaths(os, ctx, base, OptionalInt.empty());
    }
}
