package org.rocprofsys.core.perfetto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.event.SinkEvent;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;
import org.rocprofsys.core.output.WrittenFile;

/** The Perfetto trace (ROCPROFSYS_TRACE), at ROCPROFSYS_PERFETTO_FILE's place. */
public final class PerfettoFormat implements OutputFormat {
    @Override
    public boolean enabled(Settings settings) {
        return settings.bool("ROCPROFSYS_TRACE");
    }

    @Override
    public OutputWriter open(OutputContext context) throws IOException {
        Path file = context.paths().perfettoFile();
        OutputPaths.createParentDirectories(file);
        PerfettoSink sink = new PerfettoSink(
                file,
                new PerfettoSink.Options(
                        context.settings().bool("ROCPROFSYS_PERFETTO_ANNOTATIONS"),
                        context.realtimeOffsetNs(),
                        context.executable()));
        return new Writer(sink, file, context);
    }

    private record Writer(PerfettoSink sink, Path file, OutputContext context) implements OutputWriter {
        @Override
        public void accept(SinkEvent event) throws IOException {
            sink.accept(event);
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            sink.finish(summary);
        }

        /** Upstream's line, with the trace's size, once every output has been written. */
        @Override
        public List<WrittenFile> report() throws IOException {
            double bytes = Files.size(file);
            context.log()
                    .printf(
                            Locale.ROOT,
                            "[rocprof-sys][%d][perfetto]> Outputting '%s' (%.2f KB / %.2f MB / %.2f GB)" + "... Done%n",
                            context.rootPid(),
                            file,
                            bytes / 1024,
                            bytes / (1024 * 1024),
                            bytes / (1024 * 1024 * 1024));
            return List.of(new WrittenFile("protobuf", "perfetto", file));
        }
    }
}
