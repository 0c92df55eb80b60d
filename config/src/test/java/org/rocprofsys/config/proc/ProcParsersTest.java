package org.rocprofsys.config.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcParsersTest {
    private static final String STAT = "4242 (a) b (c)) S 17 4200 4100 34816 4242 4194560 11 0 3 0 250 40 0 0 20 0 1 0";

    @Test
    void parsesStatWithAwkwardCommandName() {
        ProcStat s = ProcStat.parse(STAT).orElseThrow();
        assertEquals(new ProcStat(4242, "a) b (c)", 'S', 17, 4200, 4100, 11, 3, 250, 40), s);
        assertEquals('S', ProcStat.state(STAT));
    }

    @Test
    void aShortStatHasZeroCounters() {
        assertEquals(
                new ProcStat(12, "x", 'Z', 1, 12, 12, 0, 0, 0, 0),
                ProcStat.parse("12 (x) Z 1 12 12 0").orElseThrow());
        assertTrue(ProcStat.parse("12 (x) Z 1 12 12 0").orElseThrow().ended());
    }

    @Test
    void rejectsGarbageStat() {
        assertTrue(ProcStat.parse("nonsense").isEmpty());
        assertTrue(ProcStat.parse("12 (x) S").isEmpty());
        assertTrue(ProcStat.parse("12 (x) S one 2 3").isEmpty());
        assertEquals('?', ProcStat.state("nonsense"));
    }

    @Test
    void statusFieldsReadTheLeadingNumber() {
        StatusFields f = StatusFields.parse(
                "Name:\tjava\nVmSize:\t  123456 kB\nVmHWM:\t 2048 kB\nvoluntary_ctxt_switches:\t7\nState:\tS (sleeping)\n");
        assertEquals(OptionalLong.of(123456), f.number("VmSize"));
        assertEquals(7, f.numberOrZero("voluntary_ctxt_switches"));
        assertEquals(OptionalLong.empty(), f.number("Name"));
        assertEquals(OptionalLong.empty(), f.number("VmSwap"));
        assertEquals(0, f.numberOrZero("VmSwap"));
        assertEquals("S (sleeping)", f.fields().get("State"));
        assertEquals(
                OptionalLong.of(4096),
                StatusFields.parse("rchar: 1\nread_bytes: 4096\n").number("read_bytes"));
    }

    @Test
    void statmGivesResidentPages() {
        assertEquals(new Statm(1000, 250), Statm.parse("1000 250 30 4 0 100 0\n"));
        assertEquals(new Statm(0, 0), Statm.parse(""));
    }

    @Test
    void parsesMapsLines() {
        MapsEntry lib = MapsEntry.parse("7f1c2a000000-7f1c2a021000 r-xp 00001000 fd:01 1234567    /usr/lib/my lib.so")
                .orElseThrow();
        assertEquals(
                new MapsEntry(0x7f1c2a000000L, 0x7f1c2a021000L, "r-xp", 0x1000, 0xfd, 1, 1234567, "/usr/lib/my lib.so"),
                lib);
        assertEquals(5, lib.prot());
        assertTrue(lib.executable());
        MapsEntry anon = MapsEntry.parse("7f00-7f10 rw-p 00000000 00:00 0").orElseThrow();
        assertEquals("", anon.path());
        assertEquals(3, anon.prot());
        assertEquals(Optional.empty(), MapsEntry.parse("not a mapping at all"));
        assertEquals(Optional.empty(), MapsEntry.parse("zz-7f10 rw-p 00000000 00:00 0"));
        assertEquals(
                List.of("[vdso]", ""),
                MapsEntry.parseAll("7ffd1000-7ffd3000 r-xp 00000000 00:00 0  [vdso]\njunk\n7f00-7f10 rw-p 0 00:00 0\n")
                        .stream()
                        .map(MapsEntry::path)
                        .toList());
    }

    @Test
    void cpuInfoHasOneBlockPerProcessor() {
        CpuInfo info = CpuInfo.parse("""
                processor\t: 0
                vendor_id\t: GenuineIntel
                model name\t: Some CPU @ 2.00GHz
                cpu MHz\t\t: 1999.999

                processor\t: 1
                model name\t: Some CPU @ 2.00GHz
                cpu MHz\t\t: 2100.5
                flags\t\t: fpu vme
                """);
        assertEquals(2, info.processors().size());
        assertEquals(1, info.processors().get(1).number());
        assertEquals(Optional.of("2100.5"), info.processors().get(1).get("cpu MHz"));
        assertEquals(Optional.of("Some CPU @ 2.00GHz"), info.first("model name"));
        assertEquals(Optional.of("fpu vme"), info.first("flags"));
        assertEquals(Optional.empty(), info.first("bogomips"));
        assertEquals(-1, new CpuInfo.Processor(Map.of()).number());
    }

    @Test
    void netDevSumsAllButLoopback() {
        String text = """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo:  5000      10    0    0    0     0          0         0     5000      10    0    0    0     0       0          0
                  eth0:  1000       3    0    0    0     0          0         0      200       2    0    0    0     0       0          0
                  eth1:    10       1    0    0    0     0          0         0       20       1    0    0    0     0       0          0
                """;
        assertEquals(new NetDev(1010, 220), NetDev.parse(text));
    }

    @Test
    void aKeptOpenFileIsReReadFromTheStart(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("f");
        Files.writeString(f, "first");
        try (ProcFile pf = new ProcFile(f)) {
            assertEquals("first", pf.read());
            Files.writeString(f, "x".repeat(10_000));
            assertEquals(10_000, pf.read().length(), "grows past the first buffer");
        }
        assertEquals("", new ProcFile(dir.resolve("absent")).read());
    }
}
