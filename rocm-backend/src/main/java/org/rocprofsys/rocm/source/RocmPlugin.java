package org.rocprofsys.rocm.source;

import java.util.List;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.PluginContext;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.rocm.decode.RocmGpu;

/** rocm-backend's bundle: the ROCm vendor and its tracing source (the rocprofiler-sdk tool's records). */
public final class RocmPlugin implements Plugin {
    public static final RocmPlugin INSTANCE = new RocmPlugin();

    private RocmPlugin() {}

    @Override
    public String name() {
        return "rocm-backend";
    }

    @Override
    public List<GpuVendor> gpuVendors() {
        return List.of(RocmGpu.VENDOR);
    }

    @Override
    public List<SourceProvider> sources(PluginContext context) {
        return List.of((settings, targetEnvironment, log) ->
                RocmTracing.sources(settings, context.libraryDirectory().resolve("librocprof-sys-rocm.so"), log));
    }
}
