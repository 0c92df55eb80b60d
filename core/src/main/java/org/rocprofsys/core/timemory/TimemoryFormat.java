package org.rocprofsys.core.timemory;

import org.rocprofsys.config.Settings;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;

/** The instrumented profiles of ROCPROFSYS_TIMEMORY_COMPONENTS (ROCPROFSYS_PROFILE). */
public final class TimemoryFormat implements OutputFormat {
    @Override
    public boolean enabled(Settings settings) {
        return settings.bool("ROCPROFSYS_PROFILE");
    }

    @Override
    public OutputWriter open(OutputContext context) {
        return new TimemorySink(
                TimemoryOptions.from(context.settings()), context.paths(), context.log(), context.cout());
    }
}
