package org.rocprofsys.core.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Variables the target's environment needs for a part (the agent's timer settings, a GPU
 * backend's injection library), asked once the run's session directory (where the agents write)
 * exists.
 */
public interface TargetEnvironmentContribution extends SessionPart {
    Map<String, String> targetEnvironment(Path sessionDirectory);

    /**
     * Libraries preloaded right after the agent and before the user's LD_PRELOAD (a wrapper library
     * whose symbols must come before the program's libraries); the session composes LD_PRELOAD, so
     * a part never rebuilds it.
     */
    default List<Path> preloadAfterAgent() {
        return List.of();
    }
}
