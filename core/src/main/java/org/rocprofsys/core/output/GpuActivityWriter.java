package org.rocprofsys.core.output;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.SinkEvent;

/**
 * The shell of a writer that reads GPU activity only (the GPU stats, the GPU counters, the
 * unified-memory reports): it takes no regions, hands each {@link GpuActivity} to
 * {@link #accept(GpuActivity)}, writes its text files atomically with the
 * {@code [rocprof-sys][<pid>][<key>]> Outputting '<file>'...} line, and reports them.
 */
public abstract class GpuActivityWriter implements OutputWriter {
    protected final OutputContext context;
    private final List<WrittenFile> written = new ArrayList<>();
    private final List<UnwrittenFile> unwritten = new ArrayList<>();

    protected GpuActivityWriter(OutputContext context) {
        this.context = context;
    }

    /** One GPU activity record of the run. */
    protected abstract void accept(GpuActivity activity);

    @Override
    public final boolean readsRegions() {
        return false; // GPU activity only
    }

    @Override
    public final void accept(SinkEvent event) {
        if (event instanceof GpuActivity g) {
            accept(g);
        }
    }

    /**
     * Writes {@code text} to {@code file}, logs it and lists it under {@code kind}, then {@code key};
     * a file that cannot be written (a full disk) is listed as not written, and the others still are.
     */
    protected final void write(Path file, String text, String kind, String key) {
        Optional<UnwrittenFile> failed = UnwrittenFile.write(file, text);
        if (failed.isPresent()) {
            unwritten.add(failed.get());
            return;
        }
        context.announce(key, file);
        written.add(new WrittenFile(kind, key, file));
    }

    @Override
    public final List<UnwrittenFile> unwritten() {
        return List.copyOf(unwritten);
    }

    @Override
    public final List<WrittenFile> report() {
        return List.copyOf(written);
    }
}
