package org.rocprofsys.core.gpu.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.config.output.OutputPaths;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.RunSummary;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuMemorySet;
import org.rocprofsys.core.gpu.GpuTracingFormat;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.output.GpuActivityWriter;
import org.rocprofsys.core.output.OutputContext;

/**
 * The GPU summaries as rocprofv3 {@code --stats} writes them ({@code kernel_stats}, the vendor's
 * API table ({@code cuda_api_stats}, {@code hip_api_stats}, ...), {@code memory_copy_stats},
 * {@code domain_stats}, each as CSV and JSON, each vendor's tables in the order of their API
 * tables' names)
 * when GPU tracing is on and the run saw GPU work; and, for metadata.json, the GPUs the processes
 * used and how many times each kernel ran.
 */
public final class GpuStatsFormat extends GpuTracingFormat {
    /** @param vendors the registered GPU tracing vendors (their switches turn the format on) */
    public GpuStatsFormat(List<GpuVendor> vendors) {
        super(vendors, Writer::new);
    }

    private static final class Writer extends GpuActivityWriter {
        /** Each vendor's tables, by its API table's name (the order the tables are written in). */
        private final Map<String, GpuStatistics> statistics = new TreeMap<>();
        /** Devices by UUID (every process reports the devices it uses). */
        private final Map<String, GpuDevice> devices = new TreeMap<>();

        private final Map<String, Long> kernels = new TreeMap<>();
        private boolean any;

        Writer(OutputContext context) {
            super(context);
        }

        @Override
        protected void accept(GpuActivity g) {
            any = true;
            GpuDomain domain = domain(g.event());
            if (domain != null) {
                String table = domain.vendor().apiStatsTable();
                statistics.computeIfAbsent(table, GpuStatistics::new).accept(g.event());
            }
            switch (g.event()) {
                case GpuDevice d -> devices.putIfAbsent(d.uuid() + "/" + d.index(), d);
                case GpuKernel k -> kernels.merge(k.name(), 1L, Long::sum);
                default -> {}
            }
        }

        @Override
        public void finish(RunSummary summary) throws IOException {
            if (!any) {
                return;
            }
            OutputPaths paths = context.paths();
            List<StatsTable> tables = new ArrayList<>();
            statistics.values().forEach(s -> tables.addAll(s.tables()));
            for (StatsTable table : tables) {
                write(paths.file(table.name(), "csv"), StatsCsv.render(table), "text", table.name());
                write(paths.file(table.name(), "json"), StatsJson.render(table), "json", table.name());
            }
        }

        /** The domain of an event the stats count (null for the others). */
        private static GpuDomain domain(GpuEvent e) {
            return switch (e) {
                case GpuKernel k -> k.domain();
                case GpuMemoryCopy c -> c.domain();
                case GpuMemorySet s -> s.domain();
                case GpuApiCall c -> c.domain();
                default -> null;
            };
        }

        @Override
        public Map<String, JsonNode> metadata() {
            if (!any) {
                return Map.of();
            }
            JsonNodeFactory json = JsonNodeFactory.instance;
            ObjectNode gpu = json.objectNode();
            var list = gpu.putArray("devices");
            for (GpuDevice d : devices.values()) {
                list.addObject()
                        .put("index", d.index())
                        .put("vendor", d.vendor())
                        .put("name", d.name())
                        .put("uuid", d.uuid())
                        .put("multiprocessors", d.multiprocessors())
                        .put("memory_bytes", d.memoryBytes())
                        .put("compute_capability", d.computeCapability());
            }
            ObjectNode counts = gpu.putObject("kernel_rows");
            kernels.forEach(counts::put);
            return Map.of("gpu", gpu);
        }
    }
}
