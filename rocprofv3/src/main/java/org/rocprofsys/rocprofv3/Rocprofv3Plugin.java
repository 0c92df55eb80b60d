package org.rocprofsys.rocprofv3;

import java.util.List;
import org.rocprofsys.core.output.OutputFormat;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.PluginContext;
import org.rocprofsys.core.spi.SourceProvider;
import org.rocprofsys.rocprofv3.filter.KernelFilter;

/**
 * rocprofv3's bundle: its formats (per-event CSV, stats, summary, JSON) and its kernel filter,
 * a stage every output sees through. Both do nothing unless the rocprofv3 front end's settings
 * ask (ROCPROFSYS_ROCPROFV3_*), so the bundle sits in the one registration list of every launcher.
 */
public final class Rocprofv3Plugin implements Plugin {
    public static final Rocprofv3Plugin INSTANCE = new Rocprofv3Plugin();

    private Rocprofv3Plugin() {}

    @Override
    public String name() {
        return "rocprofv3";
    }

    @Override
    public List<OutputFormat> outputFormats(PluginContext context) {
        return List.of(new Rocprofv3Format());
    }

    @Override
    public List<SourceProvider> sources(PluginContext context) {
        return List.of(
                (settings, env, log) -> KernelFilter.of(settings).stream().toList());
    }
}
