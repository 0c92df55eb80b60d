package org.rocprofsys.core.output;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.metadata.MetadataWriter;

/**
 * The output writers of one run: one per format the settings enable, in the order the formats are
 * given; and metadata.json, always, listing what they wrote.
 */
public final class RunOutputs {
    private final OutputContext context;
    private final List<OutputWriter> writers;

    private RunOutputs(OutputContext context, List<OutputWriter> writers) {
        this.context = context;
        this.writers = List.copyOf(writers);
    }

    public static RunOutputs open(List<OutputFormat> formats, OutputContext context) throws IOException {
        List<OutputWriter> writers = new ArrayList<>();
        for (OutputFormat f : formats) {
            if (f.enabled(context.settings())) {
                writers.add(f.open(context));
            }
        }
        return new RunOutputs(context, writers);
    }

    public List<OutputWriter> writers() {
        return writers;
    }

    /** Finishes every writer, has each report its files, then writes metadata.json listing them. */
    public void finish(RunSummary summary, List<String> commandLine, ZonedDateTime launch, Map<String, String> env)
            throws IOException {
        // a writer that fails (a full disk) leaves no partial file; the others still write theirs
        IOException failure = null;
        List<OutputWriter> finished = new ArrayList<>();
        for (OutputWriter w : writers) {
            try {
                w.finish(summary);
                finished.add(w);
            } catch (IOException e) {
                if (failure == null) {
                    failure = e; // the caller reports it
                } else {
                    context.log().println("[rocprof-sys][" + context.rootPid() + "] error: " + e.getMessage());
                    failure.addSuppressed(e);
                }
            }
        }
        Map<String, Map<String, List<Path>>> written = new LinkedHashMap<>();
        for (OutputWriter w : finished) {
            for (WrittenFile f : w.report()) {
                written.computeIfAbsent(f.kind(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(f.key(), k -> new ArrayList<>())
                        .add(f.path());
            }
        }
        Map<String, com.fasterxml.jackson.databind.JsonNode> facts = new LinkedHashMap<>();
        for (OutputWriter w : writers) {
            facts.putAll(w.metadata());
        }
        Path metadata = context.paths().file("metadata", "json");
        try {
            MetadataWriter.write(
                    metadata, context.settings(), commandLine, launch, written, env, summary.droppedRecords(), facts);
            context.announce("metadata", metadata);
        } catch (IOException e) {
            if (failure == null) {
                throw e;
            }
            // the writer's failure came first and is the one the caller reports
            context.log().println("[rocprof-sys][" + context.rootPid() + "] error: " + e.getMessage());
            failure.addSuppressed(e);
        }
        if (failure != null) {
            throw failure;
        }
    }
}
