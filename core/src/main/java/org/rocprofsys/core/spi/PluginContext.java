package org.rocprofsys.core.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.rocprofsys.core.gpu.GpuVendor;

/** What a plugin is told when it makes its contributions. */
public final class PluginContext {
    private final Supplier<Path> libraryDirectory;
    private final List<GpuVendor> gpuVendors;

    /**
     * @param libraryDirectory the distribution's {@code lib/}, asked when a source needs it
     * @param gpuVendors       the GPU vendors of every registered plugin, in the registration's order
     */
    public PluginContext(Supplier<Path> libraryDirectory, List<GpuVendor> gpuVendors) {
        this.libraryDirectory = libraryDirectory;
        this.gpuVendors = List.copyOf(gpuVendors);
    }

    /** The distribution's {@code lib/} (where a backend's target-side library is). */
    public Path libraryDirectory() {
        return libraryDirectory.get();
    }

    public List<GpuVendor> gpuVendors() {
        return gpuVendors;
    }
}
