package org.rocprofsys.config.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void countsChildrenOfParent(@TempDir Path proc) throws IOException {
        writeStat(proc, 10, 1);
        writeStat(proc, 11, 10);
        writeStat(proc, 12, 10);
        writeStat(proc, 13, 11);
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("99")); // exited: no stat
        ProcFs fs = new ProcFs(proc);
        assertEquals(2, fs.countChildren(10));
        assertEquals(1, fs.countChildren(1));
        assertEquals(0, fs.countChildren(13));
        assertEquals(
                List.of(10L, 11L, 12L, 13L, 99L), fs.pids().stream().sorted().toList());
    }

    @Test
    void childrenComeFromEveryThread(@TempDir Path proc) throws IOException {
        Files.createDirectories(proc.resolve("7/task/7"));
        Files.createDirectories(proc.resolve("7/task/8"));
        Files.writeString(proc.resolve("7/task/7/children"), "20 21 ");
        Files.writeString(proc.resolve("7/task/8/children"), "30 ");
        ProcFs fs = new ProcFs(proc);
        assertEquals(
                List.of(20, 21, 30),
                fs.children(7).orElseThrow().stream().sorted().toList());
        assertEquals(Optional.empty(), fs.children(8), "no such process");
    }

    @Test
    void aSysctlOfSeveralDigitsIsReadWhole() throws Exception {
        // /proc/sys files report size 0 and end at any nonzero offset: a reader that probes with one
        // byte first (Files.readAllBytes) gets "3" of "32768"
        Path pidMax = Path.of("/proc/sys/kernel/pid_max");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(pidMax), "no /proc/sys here");
        String expected;
        try (var in = Files.newInputStream(pidMax)) {
            expected = new String(in.readAllBytes()).trim();
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(expected.length() > 1, "pid_max has one digit");
        assertEquals(java.util.Optional.of(expected), ProcFs.system().sysctl("kernel/pid_max"));
    }

    @Test
    void aMissingFileIsEmptyNotAnError(@TempDir Path proc) {
        ProcFs fs = new ProcFs(proc);
        assertTrue(fs.stat(5).isEmpty());
        assertTrue(fs.maps(5).isEmpty());
        assertTrue(fs.cpuInfo().isEmpty());
        assertTrue(fs.sysctl("kernel/perf_event_paranoid").isEmpty());
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void readsThisProcessFromTheRealProc() {
        ProcFs fs = ProcFs.system();
        ProcStat self = fs.selfStat().orElseThrow();
        assertEquals(SELF, self.pid());
        assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), self.ppid());
        assertFalse(self.ended());
        assertTrue(self.userTicks() + self.systemTicks() > 0, "a JVM that ran tests has used CPU time");
        assertEquals(self.pid(), fs.stat(SELF).orElseThrow().pid());
        assertTrue(fs.status(SELF).orElseThrow().number("VmRSS").orElseThrow() > 0);
        assertTrue(fs.memInfo().orElseThrow().number("MemTotal").orElseThrow() > 0);
        assertTrue(fs.pids().contains(SELF));
        assertTrue(fs.countChildren(self.ppid()) >= 1);
        assertTrue(fs.children(SELF).isPresent());
        assertTrue(fs.sysctl("kernel/pid_max").orElseThrow().matches("[0-9]+"));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void readsTheRealMapsAndCpuInfo() {
        ProcFs fs = ProcFs.system();
        List<MapsEntry> maps = fs.maps(SELF);
        assertTrue(maps.stream().anyMatch(m -> m.path().endsWith("libjvm.so") && m.executable()), "libjvm mapped");
        assertTrue(maps.stream().allMatch(m -> m.end() > m.start()));
        assertTrue(fs.selfMaps().stream().anyMatch(m -> m.path().equals("[stack]")));
        CpuInfo cpu = fs.cpuInfo().orElseThrow();
        assertEquals(
                Runtime.getRuntime().availableProcessors() > 0,
                !cpu.processors().isEmpty());
        assertEquals(0, cpu.processors().getFirst().number());
    }

    private static void writeStat(Path proc, int pid, int ppid) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Integer.toString(pid)));
        Files.writeString(dir.resolve("stat"), pid + " (p" + pid + ") S " + ppid + " " + pid + " " + pid + " 0\n");
    }
}
