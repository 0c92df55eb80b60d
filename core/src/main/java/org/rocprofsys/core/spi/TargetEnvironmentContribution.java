package org.rocprofsys.core.spi;

import java.nio.file.Path;
import java.util.Map;

/**
 * Variables the target's environment needs for a part (the agent's timer settings, a GPU
 * backend's injection library), asked once the run's session directory (where the agents write)
 * exists.
 */
public interface TargetEnvironmentContribution extends SessionPart {
    Map<String, String> targetEnvironment(Path sessionDirectory);
}
