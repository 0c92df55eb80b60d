package org.rocprofsys.mpi;

import java.util.List;
import org.rocprofsys.core.spi.Plugin;
import org.rocprofsys.core.spi.PluginContext;
import org.rocprofsys.core.spi.SourceProvider;

/** The MPI bundle: its wrappers for the programs that link an MPI library (inventory 8.1). */
public final class MpiPlugin implements Plugin {
    public static final MpiPlugin INSTANCE = new MpiPlugin();

    private MpiPlugin() {}

    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public List<SourceProvider> sources(PluginContext context) {
        return List.of(new MpiSources(context::libraryDirectory));
    }
}
