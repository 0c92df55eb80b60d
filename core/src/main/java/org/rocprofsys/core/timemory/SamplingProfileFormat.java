package org.rocprofsys.core.timemory;

import java.io.IOException;
import java.util.List;

import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.WrittenFile;

/** The sampled profiles (ROCPROFSYS_PROFILE with ROCPROFSYS_USE_SAMPLING). */
public final class SamplingProfileFormat implements OutputFormat {
    @Override
    public boolean enabled(Settings settings) {
        return settings.bool("ROCPROFSYS_PROFILE") && settings.bool("ROCPROFSYS_USE_SAMPLING");
    }

    @Override
    public OutputWriter open(OutputContext context) {
        return new Writer(new SamplingProfileSink(TimemoryOptions.from(context.settings()), context.paths(),
                context.log(), context.cout()));
    }

    private record Writer(SamplingProfileSink sink) implements OutputWriter {
        @Override
        public void accept(SinkEvent event) {
            sink.accept(event);
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            sink.finish(summary);
        }

        /** The files were announced as they were written, as timemory does. */
        @Override
        public List<WrittenFile> report() {
            return WrittenFiles.of(sink.outputsByLabel());
        }
    }
}
