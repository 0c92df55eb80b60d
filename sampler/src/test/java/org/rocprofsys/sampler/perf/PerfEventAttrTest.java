package org.rocprofsys.sampler.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PerfEventAttrTest {

    /** The attr the C program fills through linux/perf_event.h's own field names. */
    static PerfEventAttr sameAsC() {
        return new PerfEventAttr(
                        PerfEventAttr.TYPE_SOFTWARE,
                        PerfEventAttr.SW_TASK_CLOCK,
                        997,
                        PerfEventAttr.SAMPLE_DEFAULT | PerfEventAttr.SAMPLE_READ,
                        PerfEventAttr.FORMAT_GROUP | PerfEventAttr.FORMAT_ID,
                        PerfEventAttr.FLAG_DISABLED
                                | PerfEventAttr.FLAG_INHERIT
                                | PerfEventAttr.FLAG_EXCLUDE_KERNEL
                                | PerfEventAttr.FLAG_EXCLUDE_HV
                                | PerfEventAttr.FLAG_MMAP
                                | PerfEventAttr.FLAG_COMM
                                | PerfEventAttr.FLAG_FREQ
                                | PerfEventAttr.FLAG_ENABLE_ON_EXEC
                                | PerfEventAttr.FLAG_TASK
                                | PerfEventAttr.FLAG_SAMPLE_ID_ALL
                                | PerfEventAttr.FLAG_EXCLUDE_CALLCHAIN_KERNEL
                                | PerfEventAttr.FLAG_MMAP2
                                | PerfEventAttr.FLAG_COMM_EXEC
                                | PerfEventAttr.FLAG_USE_CLOCKID,
                        7,
                        0,
                        0,
                        PerfEventAttr.CLOCK_MONOTONIC,
                        127)
                .withUserStack(PerfEventAttr.X86_64_REGS_UNWIND, 8192);
    }

    @Test
    void bytesMatchTheSystemHeader() throws Exception {
        assumeTrue(
                Files.exists(Path.of("/usr/include/linux/perf_event.h")),
                "no linux/perf_event.h (linux-libc-dev) to compare the layout with");
        Path exe = NativeBuild.compile("attr_layout.c", "-O0");
        Process p = new ProcessBuilder(exe.toString()).redirectErrorStream(true).start();
        String hex = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertEquals(0, p.waitFor());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = sameAsC().toSegment(arena);
            assertEquals(PerfEventAttr.SIZE, seg.byteSize());
            String java = HexFormat.of().formatHex(seg.toArray(ValueLayout.JAVA_BYTE));
            assertEquals(hex, java, "perf_event_attr bytes differ from the C header's layout");
        }
    }

    @Test
    void knownOffsetsAndBits() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s =
                    PerfEventAttr.clockSampling(false, 1000).enableOnExec().toSegment(arena);
            assertEquals(1, s.get(ValueLayout.JAVA_INT, 0));
            assertEquals(128, s.get(ValueLayout.JAVA_INT, 4));
            assertEquals(0L, s.get(ValueLayout.JAVA_LONG, 8));
            assertEquals(1000L, s.get(ValueLayout.JAVA_LONG, 16));
            assertEquals(1L | 2 | 4 | 32 | 128 | 256, s.get(ValueLayout.JAVA_LONG, 24));
            long flags = s.get(ValueLayout.JAVA_LONG, 40);
            assertEquals(1L, flags & 1, "disabled");
            assertEquals(2L, flags & 2, "inherit");
            assertEquals(1L << 10, flags & (1L << 10), "freq");
            assertEquals(1L << 12, flags & (1L << 12), "enable_on_exec");
            assertEquals(1L << 25, flags & (1L << 25), "use_clockid");
            assertEquals(1, s.get(ValueLayout.JAVA_INT, 92), "clockid CLOCK_MONOTONIC");
        }
    }

    @Test
    void validation() {
        PerfEventAttr a = PerfEventAttr.clockSampling(true, 100);
        assertThrows(IllegalArgumentException.class, () -> a.withUserStack(7, 100));
        assertThrows(IllegalArgumentException.class, () -> a.withUserStack(7, 0));
        assertEquals(3, a.withUserStack(0b111L << 6, 64).userRegisterCount());
        assertTrue(a.userOnly().has(PerfEventAttr.FLAG_EXCLUDE_KERNEL | PerfEventAttr.FLAG_EXCLUDE_CALLCHAIN_KERNEL));
    }
}
