package org.rocprofsys.core.output;

import java.io.IOException;
import org.rocprofsys.config.Settings;

/**
 * One kind of output a run can write (the Perfetto trace, the timemory profiles, ...). The run
 * is handed a list of them; each one the settings enable is opened once the target's pid is known
 * and then sees the whole normalised event stream.
 */
public interface OutputFormat {
    /** Whether this run writes the format (e.g. ROCPROFSYS_TRACE for Perfetto). */
    boolean enabled(Settings settings);

    /** Opens the writer of this run; called only when {@link #enabled}. */
    OutputWriter open(OutputContext context) throws IOException;
}
