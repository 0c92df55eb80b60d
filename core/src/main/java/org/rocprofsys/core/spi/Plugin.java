package org.rocprofsys.core.spi;

import java.util.List;
import java.util.function.Function;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.core.output.OutputFormat;

/**
 * A plugin bundle: what one module contributes to a run. Output formats are finished (and listed
 * in metadata.json) in the registration's order, sources started and their stages run in it.
 * Record decoders, target-environment contributions, exec-gate attachers and pipeline stages come
 * as the roles of the {@link SessionPart}s its sources make for a run's settings.
 */
public interface Plugin {
    /** The bundle's name (for messages and the registration's test). */
    String name();

    /** The GPU tracing vendors this module defines (their descriptors, not their sources). */
    default List<GpuVendor> gpuVendors() {
        return List.of();
    }

    default List<OutputFormat> outputFormats(PluginContext context) {
        return List.of();
    }

    default List<SourceProvider> sources(PluginContext context) {
        return List.of();
    }

    /**
     * A GPU tracing vendor's bundle: its descriptor and the provider of its source, made with the
     * context (the distribution's {@code lib/} holds the backend's target-side library).
     */
    static Plugin gpuVendor(String name, GpuVendor vendor, Function<PluginContext, SourceProvider> source) {
        return new Plugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<GpuVendor> gpuVendors() {
                return List.of(vendor);
            }

            @Override
            public List<SourceProvider> sources(PluginContext context) {
                return List.of(source.apply(context));
            }
        };
    }

    /** A bundle of output formats and sources, each list made with the context. */
    static Plugin of(
            String name,
            Function<PluginContext, List<OutputFormat>> formats,
            Function<PluginContext, List<SourceProvider>> sources) {
        return new Plugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<OutputFormat> outputFormats(PluginContext context) {
                return formats.apply(context);
            }

            @Override
            public List<SourceProvider> sources(PluginContext context) {
                return sources.apply(context);
            }
        };
    }

    /** A bundle of output formats only. */
    static Plugin ofFormats(String name, Function<PluginContext, List<OutputFormat>> formats) {
        return of(name, formats, context -> List.of());
    }

    /** A bundle of sources only. */
    static Plugin ofSources(String name, SourceProvider... sources) {
        List<SourceProvider> list = List.of(sources);
        return of(name, context -> List.of(), context -> list);
    }
}
