package org.rocprofsys.mpi;

import java.util.List;
import org.rocprofsys.core.spi.Plugin;

/** The MPI bundle: its wrappers for the programs that link an MPI library (inventory 8.1). */
public final class MpiPlugin {
    public static final Plugin INSTANCE =
            Plugin.of("mpi", context -> List.of(), context -> List.of(new MpiSources(context::libraryDirectory)));

    private MpiPlugin() {}
}
