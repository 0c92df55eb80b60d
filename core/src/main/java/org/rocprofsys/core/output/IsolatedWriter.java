package org.rocprofsys.core.output;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;

/**
 * One output of the run whose file failures stay its own: the first {@link IOException} it throws
 * (a full disk under the trace it streams) ends that output only, which by then has removed what
 * it had written; the run, the other outputs and the program's exit code go on. Unchecked
 * exceptions are bugs and still end the run.
 */
final class IsolatedWriter implements OutputWriter {
    private final OutputWriter writer;
    private UnwrittenFile failure;

    IsolatedWriter(OutputWriter writer) {
        this.writer = writer;
    }

    @Override
    public void accept(SinkEvent event) {
        unlessFailed(() -> writer.accept(event));
    }

    @Override
    public void acceptRegions(RegionRun run) {
        unlessFailed(() -> writer.acceptRegions(run));
    }

    @Override
    public boolean readsRegions() {
        return writer.readsRegions();
    }

    @Override
    public boolean growsWhileRunning() {
        return writer.growsWhileRunning();
    }

    @Override
    public void finish(RunSummary summary) {
        unlessFailed(() -> writer.finish(summary));
    }

    /** The files written; none when the output failed as a whole. */
    @Override
    public List<WrittenFile> report() {
        List<WrittenFile> files = new ArrayList<>();
        unlessFailed(() -> files.addAll(writer.report()));
        return files;
    }

    @Override
    public List<UnwrittenFile> unwritten() {
        List<UnwrittenFile> all = new ArrayList<>(writer.unwritten());
        if (failure != null) {
            all.add(failure);
        }
        return all;
    }

    @Override
    public Map<String, JsonNode> metadata() {
        return writer.metadata();
    }

    /** Runs {@code step} unless the output has failed; its failure is the output's. */
    private void unlessFailed(FileStep step) {
        if (failure == null) {
            try {
                step.run();
            } catch (IOException e) {
                failure = UnwrittenFile.of(e);
            }
        }
    }
}
