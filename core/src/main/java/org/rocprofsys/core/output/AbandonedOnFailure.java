package org.rocprofsys.core.output;

import java.io.IOException;

/**
 * An output written to its file while the program runs (a streamed trace, a database): the first
 * failure to write it (a full disk) abandons it as a whole, removing what was written, so that no
 * partial file is left; the error thrown names the output's file.
 */
public interface AbandonedOnFailure extends OutputWriter {
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
    default boolean growsWhileRunning() {
        return true;
    }
}
