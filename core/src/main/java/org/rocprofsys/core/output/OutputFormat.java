package org.rocprofsys.core.output;

import java.io.IOException;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.OutputPaths;

/**
 * One kind of output a run can write (the Perfetto trace, the timemory profiles, ...). The run
 * is handed a list of them; each one the settings enable is opened once the target's pid is known
 * and then sees the whole normalised event stream.
 */
public interface OutputFormat {
    /** Whether this run writes the format (e.g. ROCPROFSYS_TRACE for Perfetto). */
    boolean enabled(Settings settings);

    /**
     * Called before the target starts, for an enabled format: throws when the output cannot be
     * written (an unwritable folder), so the run stops with that message instead of profiling for
     * nothing. {@code paths} are named as for the collector's own pid (the target's is not known
     * yet).
     */
    default void checkBeforeLaunch(Settings settings, OutputPaths paths) throws IOException {}

    /** Opens the writer of this run; called only when {@link #enabled}. */
    OutputWriter open(OutputContext context) throws IOException;
}
