package org.rocprofsys.core.output;

import java.io.IOException;
import java.util.List;
import org.rocprofsys.core.event.EventSink;

/** The writer an {@link OutputFormat} opened for one run: a sink that reports what it wrote. */
public interface OutputWriter extends EventSink {
    /**
     * Called after every writer of the run has finished: announces on the run's log each file that
     * was not announced while it was written, and returns every file written, in the order
     * metadata.json lists them.
     */
    List<WrittenFile> report() throws IOException;

    /**
     * Facts of this output for metadata.json, each written under its name in the file's
     * {@code metadata} object (e.g. the GPUs seen); asked after {@link #report}.
     */
    default java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> metadata() {
        return java.util.Map.of();
    }

    /**
     * The files this output could not write (each failed on its own, the others written), asked
     * after {@link #finish}. A failure that ends the whole output is thrown instead.
     */
    default List<UnwrittenFile> unwritten() {
        return List.of();
    }

    /**
     * Whether this output's file grows while the program runs (a streamed trace, a database): such
     * outputs finish after those that write only at the end, so that a nearly full disk takes the
     * small files (profiles, metadata.json) before the large one.
     */
    default boolean growsWhileRunning() {
        return false;
    }
}
