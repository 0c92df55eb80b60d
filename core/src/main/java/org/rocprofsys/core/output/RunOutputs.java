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
 * given; and metadata.json, always, listing what they wrote and what they could not write.
 *
 * <p>Each output fails on its own ({@link IsolatedWriter}): a full disk under the trace ends the
 * trace, not the run, and the files that fit are still written. Outputs that write only at the end
 * finish first, those whose file grew while the program ran last ({@link
 * OutputWriter#growsWhileRunning}), then metadata.json: a disk that is nearly full keeps the small
 * files. A file that could not be written is said on the log and listed in metadata.json; the run
 * goes on and ends with the program's exit code.
 */
public final class RunOutputs {
    private final OutputContext context;
    private final List<IsolatedWriter> writers;

    private RunOutputs(OutputContext context, List<IsolatedWriter> writers) {
        this.context = context;
        this.writers = List.copyOf(writers);
    }

    public static RunOutputs open(List<OutputFormat> formats, OutputContext context) throws IOException {
        List<IsolatedWriter> writers = new ArrayList<>();
        for (OutputFormat f : formats) {
            if (f.enabled(context.settings())) {
                writers.add(new IsolatedWriter(f.open(context)));
            }
        }
        return new RunOutputs(context, writers);
    }

    /** The run's writers; a file failure of one stays its own (said when the run finishes). */
    public List<OutputWriter> writers() {
        return List.copyOf(writers);
    }

    /**
     * Finishes every writer, has each report its files, then writes metadata.json listing them and
     * those not written. Returns the files not written (each already said on the log).
     */
    public List<UnwrittenFile> finish(
            RunSummary summary, List<String> commandLine, ZonedDateTime launch, Map<String, String> env) {
        for (IsolatedWriter w : writers) {
            if (!w.growsWhileRunning()) {
                w.finish(summary);
            }
        }
        for (IsolatedWriter w : writers) {
            if (w.growsWhileRunning()) {
                w.finish(summary);
            }
        }
        Map<String, Map<String, List<Path>>> written = new LinkedHashMap<>();
        for (IsolatedWriter w : writers) {
            for (WrittenFile f : w.report()) {
                written.computeIfAbsent(f.kind(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(f.key(), k -> new ArrayList<>())
                        .add(f.path());
            }
        }
        List<UnwrittenFile> unwritten = new ArrayList<>();
        for (IsolatedWriter w : writers) {
            unwritten.addAll(w.unwritten());
        }
        Map<String, com.fasterxml.jackson.databind.JsonNode> facts = new LinkedHashMap<>();
        for (IsolatedWriter w : writers) {
            facts.putAll(w.metadata());
        }
        for (UnwrittenFile u : unwritten) {
            error(u.describe() + " (not written)");
        }
        Path metadata = context.paths().file("metadata", "json");
        try {
            MetadataWriter.write(
                    metadata,
                    context.settings(),
                    commandLine,
                    launch,
                    written,
                    env,
                    summary.droppedRecords(),
                    facts,
                    unwritten);
            context.announce("metadata", metadata);
        } catch (IOException e) {
            UnwrittenFile u = UnwrittenFile.of(e);
            error(u.describe() + " (not written)");
            unwritten.add(u);
        }
        if (!unwritten.isEmpty()) {
            boolean listed = unwritten.getLast().file().filter(metadata::equals).isEmpty();
            error(unwritten.size() + (unwritten.size() == 1 ? " output file was" : " output files were")
                    + " not written, the others were"
                    + (listed ? " (listed under not_written in metadata.json)" : ""));
        }
        return unwritten;
    }

    private void error(String message) {
        context.log().println("[rocprof-sys][" + context.rootPid() + "] error: " + message);
    }
}
