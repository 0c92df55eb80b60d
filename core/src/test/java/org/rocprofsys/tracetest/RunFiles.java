package org.rocprofsys.tracetest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.config.output.OutputSettings;

/** The output files of a run that a test drives through the outputs (GPU fixtures, replays). */
public final class RunFiles {
    private RunFiles() {}

    /** The output paths of a run of {@code command} as {@code pid}, under {@code dir}/out. */
    public static OutputPaths paths(Path dir, int pid, String command, ZonedDateTime launched) {
        LaunchContext ctx = new LaunchContext(
                List.of(command), pid, 1, pid, pid, launched, Map.of(), k -> Optional.empty(), Optional.empty());
        OutputSettings os =
                new OutputSettings(dir.resolve("out").toString(), "", false, "%F_%H.%M", true, "perfetto-trace.proto");
        return new OutputPaths(os, ctx, dir, OptionalInt.empty());
    }

    /** The file of {@code directory} whose name starts with {@code prefix} and ends with {@code suffix}. */
    public static Path find(Path directory, String prefix, String suffix) {
        try (var files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                            && f.getFileName().toString().endsWith(suffix))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + prefix + "*" + suffix + " in " + directory));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A stats file of a run ({@code kernel_stats}, ...; {@code csv} or {@code json}). */
    public static String statsFile(Path directory, String table, String extension) {
        try {
            return Files.readString(find(directory, table + "-", "." + extension));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
