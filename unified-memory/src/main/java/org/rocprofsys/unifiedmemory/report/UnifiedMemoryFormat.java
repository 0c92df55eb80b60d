package org.rocprofsys.unifiedmemory.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.output.GpuActivityWriter;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;

/**
 * The unified-memory reports of seed 000, {@code unified_memory[-<pid>].txt} and {@code .json}, one
 * pair per process that had unified-memory events, in UNIFIED_MEMORY_OUTPUT_PATH or the run's
 * output folder. A process without such events gets no report.
 */
public final class UnifiedMemoryFormat implements OutputFormat {
    public static final String ENABLE = "ROCPROFSYS_USE_UNIFIED_MEMORY_PROFILING";
    public static final String OUTPUT_PATH = "ROCPROFSYS_UNIFIED_MEMORY_OUTPUT_PATH";
    private static final String NAME = "unified_memory";

    @Override
    public boolean enabled(Settings settings) {
        return settings.bool(ENABLE);
    }

    @Override
    public OutputWriter open(OutputContext context) {
        return new Writer(context, "1".equals(System.getenv("HSA_XNACK")));
    }

    private static final class Writer extends GpuActivityWriter {
        private final boolean xnackEnabled;
        private final Map<Integer, UnifiedMemoryReport> reports = new TreeMap<>();

        Writer(OutputContext context, boolean xnackEnabled) {
            super(context);
            this.xnackEnabled = xnackEnabled;
        }

        @Override
        protected void accept(GpuActivity g) {
            reports.computeIfAbsent(g.pid(), p -> new UnifiedMemoryReport()).accept(g.event());
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            for (Map.Entry<Integer, UnifiedMemoryReport> e : reports.entrySet()) {
                UnifiedMemoryReport report = e.getValue();
                if (report.isEmpty()) {
                    continue;
                }
                int pid = e.getKey();
                write(file(pid, "txt"), UnifiedMemoryText.render(pid, report), "text", NAME);
                write(file(pid, "json"), UnifiedMemoryJson.render(report, xnackEnabled), "json", NAME);
            }
        }

        /** Next to the other outputs (OUTPUT_PATH, OUTPUT_PREFIX), or in UNIFIED_MEMORY_OUTPUT_PATH. */
        private Path file(int pid, String extension) {
            OutputPaths paths = context.paths();
            boolean root = pid == context.rootPid();
            String folder = context.settings().get(OUTPUT_PATH);
            if (folder == null || folder.isBlank()) {
                return root ? paths.file(NAME, extension) : paths.file(NAME + "-" + pid, extension, "", false);
            }
            return paths.fileIn(folder, NAME, extension, root ? paths.suffix() : "-" + pid);
        }
    }
}
