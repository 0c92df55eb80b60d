package org.rocprofsys.core.output;

import java.io.IOException;
import org.rocprofsys.core.event.EventSink;
import org.rocprofsys.core.event.RegionRun;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;

/**
 * An output written to its file while the program runs (a streamed trace, a database): the first
 * failure to write it (a full disk) abandons it as a whole, removing what was written, so that no
 * partial file is left; the error thrown names the output's file.
 */
public interface AbandonedOnFailure extends OutputWriter {
    /** The sink that writes the output's file. */
    EventSink sink();

    /** Removes the incomplete output; {@code e} (with what failed on the way) as the error to throw. */
    IOException abandon(IOException e);

    /** Runs {@code step}; where it fails, abandons the output and throws {@link #abandon}'s error. */
    default void orAbandon(FileStep step) throws IOException {
        try {
            step.run();
        } catch (IOException e) {
            throw abandon(e);
        }
    }

    @Override
    default void accept(SinkEvent event) throws IOException {
        orAbandon(() -> sink().accept(event));
    }

    @Override
    default void acceptRegions(RegionRun run) throws IOException {
        orAbandon(() -> sink().acceptRegions(run));
    }

    @Override
    default void finish(RunSummary summary) throws IOException {
        orAbandon(() -> sink().finish(summary));
    }

    @Override
    default boolean growsWhileRunning() {
        return true;
    }
}
