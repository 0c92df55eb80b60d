package org.rocprofsys.core.session;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.metadata.MetadataWriter;
import org.rocprofsys.core.perfetto.PerfettoSink;
import org.rocprofsys.core.timemory.SamplingProfileSink;
import org.rocprofsys.core.timemory.TimemoryOptions;
import org.rocprofsys.core.timemory.TimemorySink;

/**
 * The output writers of one run, chosen by the settings (TRACE: Perfetto; PROFILE: timemory
 * profiles; always metadata.json), and the upstream "Outputting" lines once they are written.
 */
final class RunOutputs {
    private final Settings settings;
    private final OutputPaths paths;
    private final Session.RunInfo run;
    private final PrintStream log;
    private final List<EventSink> sinks = new ArrayList<>();
    private final Map<String, Map<String, List<Path>>> written = new LinkedHashMap<>();
    private Path perfettoFile;
    private TimemorySink timemory;
    private SamplingProfileSink sampled;

    RunOutputs(Settings settings, OutputPaths paths, Session.RunInfo run, PrintStream log) throws IOException {
        this.settings = settings;
        this.paths = paths;
        this.run = run;
        this.log = log;
        if (settings.bool("ROCPROFSYS_TRACE")) {
            perfettoFile = paths.perfettoFile();
            OutputPaths.createParentDirectories(perfettoFile);
            sinks.add(new PerfettoSink(perfettoFile, new PerfettoSink.Options(
                    settings.bool("ROCPROFSYS_PERFETTO_ANNOTATIONS"), run.realtimeOffsetNs(), run.executable())));
        }
        if (settings.bool("ROCPROFSYS_PROFILE")) {
            timemory = new TimemorySink(TimemoryOptions.from(settings), paths, log, System.out);
            sinks.add(timemory);
            if (settings.bool("ROCPROFSYS_USE_SAMPLING")) {
                sampled = new SamplingProfileSink(TimemoryOptions.from(settings), paths, log, System.out);
                sinks.add(sampled);
            }
        }
    }

    List<EventSink> sinks() {
        return sinks;
    }

    /** Finishes every writer, reports each file, then writes metadata.json listing them. */
    void finish(RunSummary summary, List<String> commandLine, ZonedDateTime launch, Map<String, String> env)
            throws IOException {
        for (EventSink s : sinks) {
            s.finish(summary);
        }
        if (perfettoFile != null) {
            double bytes = Files.size(perfettoFile);
            log.printf(Locale.ROOT, "%s> Outputting '%s' (%.2f KB / %.2f MB / %.2f GB)... Done%n", label("perfetto"),
                    perfettoFile, bytes / 1024, bytes / (1024 * 1024), bytes / (1024 * 1024 * 1024));
            record("protobuf", "perfetto", perfettoFile);
        }
        if (timemory != null) {
            timemory.outputsByLabel().forEach((kind, byKey) -> byKey.forEach((key, files) -> files.forEach(
                    f -> record(kind, key, f))));
        }
        if (sampled != null) {
            sampled.outputsByLabel().forEach((kind, byKey) -> byKey.forEach((key, files) -> files.forEach(
                    f -> record(kind, key, f))));
        }
        Path metadata = paths.file("metadata", "json");
        MetadataWriter.write(metadata, settings, commandLine, launch, written, env, summary.droppedRecords());
        log.println(label("metadata") + "> Outputting '" + metadata + "'...");
    }

    private void record(String kind, String key, Path file) {
        written.computeIfAbsent(kind, k -> new LinkedHashMap<>()).computeIfAbsent(key, k -> new ArrayList<>())
                .add(file);
    }

    private String label(String what) {
        return "[rocprof-sys][" + run.rootPid() + "][" + what + "]";
    }
}
