package org.rocprofsys.core.spi;

import java.util.List;
import org.rocprofsys.core.gpu.counters.GpuCounterFormat;
import org.rocprofsys.core.gpu.stats.GpuStatsFormat;
import org.rocprofsys.core.perfetto.PerfettoFormat;
import org.rocprofsys.core.rocpd.RocpdFormat;
import org.rocprofsys.core.timemory.SamplingProfileFormat;
import org.rocprofsys.core.timemory.TimemoryFormat;

/** core's bundles: its output formats (the GPU summaries for every registered vendor), and rocpd. */
public final class CorePlugins {
    private CorePlugins() {}

    /** The trace, timemory, the sampling profile and the GPU summaries. */
    public static final Plugin OUTPUTS = Plugin.ofFormats(
            "core",
            c -> List.of(
                    new PerfettoFormat(),
                    new TimemoryFormat(),
                    new SamplingProfileFormat(),
                    new GpuStatsFormat(c.gpuVendors()),
                    new GpuCounterFormat(c.gpuVendors())));

    /** The rocpd database, finished after every other format. */
    public static final Plugin ROCPD = Plugin.ofFormats("rocpd", c -> List.of(new RocpdFormat()));
}
