package org.rocprofsys.core.gpu;

import java.util.List;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.output.OutputFormat;

/** An output of GPU tracing: enabled when the settings turn on any registered vendor's tracing. */
public abstract class GpuTracingFormat implements OutputFormat {
    private final List<GpuVendor> vendors;

    /** @param vendors the registered GPU tracing vendors */
    protected GpuTracingFormat(List<GpuVendor> vendors) {
        this.vendors = List.copyOf(vendors);
    }

    @Override
    public final boolean enabled(Settings settings) {
        return vendors.stream()
                .map(GpuVendor::tracingSetting)
                .anyMatch(s -> settings.registry().find(s).isPresent() && settings.bool(s));
    }
}
