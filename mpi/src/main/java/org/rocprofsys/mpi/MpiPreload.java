package org.rocprofsys.mpi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * Preloads the wrapper library right after the agent, so that the program's MPI_x calls reach it
 * before the MPI library (which it reaches through PMPI_x). LD_PRELOAD is the one way to come first
 * in the program's symbol lookup; the session puts the wrappers after the agent and before the
 * user's LD_PRELOAD. ROCPROFSYS_USE_MPIP off leaves only
 * the five calls that give the rank recording (upstream's mpi_gotcha).
 */
record MpiPreload(Path wrappers, boolean useMpip) implements TargetEnvironmentContribution {
    /** Read by the wrapper library; set here, as the setting may come from a config file. */
    static final String USE_MPIP = "ROCPROFSYS_USE_MPIP";

    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        return Map.of(USE_MPIP, Boolean.toString(useMpip));
    }

    @Override
    public List<Path> preloadAfterAgent() {
        return List.of(wrappers);
    }
}
