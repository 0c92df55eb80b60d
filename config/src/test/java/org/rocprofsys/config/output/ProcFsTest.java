package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {
    @Test
    void parsesStatWithAwkwardCommandName() {
        var ids = ProcFs.parseStat("4242 (a) b (c)) S 17 4200 4100 34816 4242 4194560 1 0")
                .orElseThrow();
        assertEquals(new ProcFs.Ids(4242, 17, 4200, 4100), ids);
    }

    @Test
    void rejectsGarbage() {
        assertTrue(ProcFs.parseStat("nonsense").isEmpty());
        assertTrue(ProcFs.parseStat("12 (x) S").isEmpty());
    }

    @Test
    void countsChildrenOfParent(@TempDir Path proc) throws IOException {
        writeStat(proc, 10, 1);
        writeStat(proc, 11, 10);
        writeStat(proc, 12, 10);
        writeStat(proc, 13, 11);
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("99")); // exited: no stat
        assertEquals(2, ProcFs.countChildren(proc, 10));
        assertEquals(1, ProcFs.countChildren(proc, 1));
        assertEquals(0, ProcFs.countChildren(proc, 13));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void currentContextDescribesThisJvm() {
        var ctx = LaunchContext.current(List.of("java"), Map.of(), n -> Optional.empty());
        assertEquals(ProcessHandle.current().pid(), ctx.pid());
        assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), ctx.ppid());
        assertTrue(ctx.pgid() > 0 && ctx.sid() >= 0);
        assertTrue(ProcFs.countChildren(ctx.ppid()) >= 1);
    }

    private static void writeStat(Path proc, int pid, int ppid) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Integer.toString(pid)));
        Files.writeString(dir.resolve("stat"), pid + " (p" + pid + ") S " + ppid + " " + pid + " " + pid + " 0\n");
    }
}
