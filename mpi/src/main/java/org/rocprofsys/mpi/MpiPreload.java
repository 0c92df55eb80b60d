package org.rocprofsys.mpi;

import java.nio.file.Path;
import java.util.Map;
import org.rocprofsys.core.spi.TargetEnvironmentContribution;

/**
 * Preloads the wrapper library right after the agent, so that the program's MPI_x calls reach it
 * before the MPI library (which it reaches through PMPI_x). LD_PRELOAD is the one way to come first
 * in the program's symbol lookup; the value is the session's own (the agent, then the user's
 * LD_PRELOAD) with the wrappers put in after the agent.
 */
record MpiPreload(Path agent, Path wrappers, String userPreload) implements TargetEnvironmentContribution {
    @Override
    public Map<String, String> targetEnvironment(Path sessionDirectory) {
        String preload = agent + ":" + wrappers;
        if (!userPreload.isBlank()) {
            preload += ":" + userPreload;
        }
        return Map.of("LD_PRELOAD", preload);
    }
}
