package org.rocprofsys.core.spi;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.output.OutputFormat;

/**
 * The contributions of one registration list of plugins, in its order: every bundle's output
 * formats, source providers and GPU vendors.
 */
public final class Plugins {
    private final List<Plugin> plugins;
    private final PluginContext context;

    /** @param libraryDirectory the distribution's {@code lib/}, asked when a source needs it */
    public Plugins(List<Plugin> plugins, Supplier<Path> libraryDirectory) {
        this.plugins = List.copyOf(plugins);
        List<GpuVendor> vendors = new ArrayList<>();
        for (Plugin p : this.plugins) {
            vendors.addAll(p.gpuVendors());
        }
        this.context = new PluginContext(libraryDirectory, vendors);
    }

    public List<Plugin> plugins() {
        return plugins;
    }

    public List<GpuVendor> gpuVendors() {
        return context.gpuVendors();
    }

    public List<OutputFormat> outputFormats() {
        List<OutputFormat> out = new ArrayList<>();
        for (Plugin p : plugins) {
            out.addAll(p.outputFormats(context));
        }
        return List.copyOf(out);
    }

    public List<SourceProvider> sources() {
        List<SourceProvider> out = new ArrayList<>();
        for (Plugin p : plugins) {
            out.addAll(p.sources(context));
        }
        return List.copyOf(out);
    }
}
