package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.rocprofsys.config.proc.ProcFs;

class LaunchContextProcTest {
    @Test
    @EnabledOnOs(OS.LINUX)
    void currentContextDescribesThisJvm() {
        var ctx = LaunchContext.current(List.of("java"), Map.of(), n -> Optional.empty());
        assertEquals(ProcessHandle.current().pid(), ctx.pid());
        assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), ctx.ppid());
        assertTrue(ctx.pgid() > 0 && ctx.sid() >= 0);
        assertTrue(ProcFs.system().countChildren(ctx.ppid()) >= 1);
    }
}
