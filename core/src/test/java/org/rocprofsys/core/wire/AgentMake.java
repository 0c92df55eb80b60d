package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.rocprofsys.testkit.Make;
import org.rocprofsys.testkit.ProcessResult;

/** Builds a target of the agent's Makefile (agent/src/main/c) for the wire tests. */
final class AgentMake {
    private AgentMake() {}

    /** Runs {@code make OUT=out target} in the agent's C folder and fails the test if make does. */
    static void build(Path out, String target) throws Exception {
        Path src = Path.of(System.getProperty("user.dir"))
                .resolve("../agent/src/main/c")
                .normalize();
        ProcessResult make = Make.run(src, "OUT=" + out, target);
        assertEquals(0, make.exitCode(), "make " + target + " failed:\n" + make.all());
    }
}
