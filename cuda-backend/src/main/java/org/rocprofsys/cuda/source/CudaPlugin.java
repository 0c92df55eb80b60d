package org.rocprofsys.cuda.source;

import java.util.List;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.PluginContext;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.cuda.decode.CudaGpu;

/** cuda-backend's bundle: the CUDA vendor and its tracing source (the injection library's records). */
public final class CudaPlugin implements Plugin {
    public static final CudaPlugin INSTANCE = new CudaPlugin();

    private CudaPlugin() {}

    @Override
    public String name() {
        return "cuda-backend";
    }

    @Override
    public List<GpuVendor> gpuVendors() {
        return List.of(CudaGpu.VENDOR);
    }

    @Override
    public List<SourceProvider> sources(PluginContext context) {
        return List.of((settings, targetEnvironment, log) ->
                CudaTracing.sources(settings, context.libraryDirectory().resolve("librocprof-sys-cuda.so"), log));
    }
}
