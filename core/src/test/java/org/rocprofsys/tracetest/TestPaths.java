package org.rocprofsys.tracetest;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.config.output.OutputSettings;

/**
 * OutputPaths for tests: folder "out" under {@code dir}, no time folder, pid suffix on; launched as
 * {@code ./app} at a fixed time.
 */
public final class TestPaths {
    private TestPaths() {}

    public static OutputPaths paths(Path dir, long pid) {
        return paths(dir, pid, true);
    }

    public static OutputPaths paths(Path dir, long pid, boolean usePid) {
        LaunchContext ctx = new LaunchContext(
                List.of("./app"),
                pid,
                1,
                pid,
                pid,
                ZonedDateTime.of(2025, 8, 9, 13, 5, 0, 0, ZoneOffset.UTC),
                Map.of(),
                k -> Optional.empty(),
                Optional.empty());
        OutputSettings os = new OutputSettings("out", "", false, "%F_%H.%M", usePid, "perfetto-trace.proto");
        return new OutputPaths(os, ctx, dir, OptionalInt.empty());
    }
}
