package org.rocprofsys.core.gpu;

import java.util.List;
import java.util.function.Function;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.output.OutputContext;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.output.OutputWriter;

/** An output of GPU tracing: enabled when the settings turn on any registered vendor's tracing. */
public abstract class GpuTracingFormat implements OutputFormat {
    private final List<GpuVendor> vendors;
    private final Function<OutputContext, OutputWriter> writer;

    /**
     * @param vendors the registered GPU tracing vendors
     * @param writer  a run's writer of this output
     */
    protected GpuTracingFormat(List<GpuVendor> vendors, Function<OutputContext, OutputWriter> writer) {
        this.vendors = List.copyOf(vendors);
        this.writer = writer;
    }

    @Override
    public final OutputWriter open(OutputContext context) {
        return writer.apply(context);
    }

    @Override
    public final boolean enabled(Settings settings) {
        return vendors.stream()
                .map(GpuVendor::tracingSetting)
                .anyMatch(s -> settings.registry().find(s).isPresent() && settings.bool(s));
    }
}
