package org.rocprofsys.core.timemory;

import org.rocprofsys.config.Settings;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;

/** The sampled profiles (ROCPROFSYS_PROFILE with ROCPROFSYS_USE_SAMPLING). */
public final class SamplingProfileFormat implements OutputFormat {
    @Override
    public boolean enabled(Settings settings) {
        return settings.bool("ROCPROFSYS_PROFILE") && settings.bool("ROCPROFSYS_USE_SAMPLING");
    }

    @Override
    public OutputWriter open(OutputContext context) {
        return new SamplingProfileSink(
                TimemoryOptions.from(context.settings()), context.paths(), context.log(), context.cout());
    }
}
