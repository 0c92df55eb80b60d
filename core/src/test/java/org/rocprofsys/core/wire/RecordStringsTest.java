package org.rocprofsys.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordStringsTest {
    /** A record-like segment: the name's bytes, a NUL, then garbage up to a whole number of words. */
    private static MemorySegment record(Arena arena, String name, int words) {
        MemorySegment s = arena.allocate(8L * words, 8);
        s.fill((byte) 0x5a); // padding after the NUL is not zeroed by the agent
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, 0, b.length);
        if (b.length < s.byteSize()) {
            s.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
        }
        return s;
    }

    @Test
    void decodesNamesOfEveryLengthAroundAWord() {
        RecordStrings names = new RecordStrings();
        try (Arena arena = Arena.ofConfined()) {
            for (String n :
                    new String[] {"", "a", "abcdefg", "abcdefgh", "abcdefghi", "ünïcødé région", "x".repeat(40)}) {
                MemorySegment r = record(arena, n, 8);
                assertEquals(n, names.get(r, 0, r.byteSize()), n);
                assertEquals(n, names.get(r, 0, r.byteSize()), n + " (cached)");
            }
        }
    }

    @Test
    void theSameBytesGiveTheSameStringAndDifferentBytesNeverDo() {
        RecordStrings names = new RecordStrings();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a1 = record(arena, "compute_step", 4);
            MemorySegment a2 = record(arena, "compute_step", 4);
            String first = names.get(a1, 0, a1.byteSize());
            assertSame(first, names.get(a2, 0, a2.byteSize()));
            // thousands of distinct names share 512 slots: every answer must still be exact
            for (int i = 0; i < 5000; i++) {
                MemorySegment r = record(arena, "region_" + i, 4);
                assertEquals("region_" + i, names.get(r, 0, r.byteSize()));
            }
            assertEquals("compute_step", names.get(a1, 0, a1.byteSize()));
        }
    }

    @Test
    void aNameWithoutNulEndsWithItsRecord() {
        RecordStrings names = new RecordStrings();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment r = record(arena, "0123456789abcdef", 2);
            assertEquals("0123456789abcdef", names.get(r, 0, r.byteSize()));
            assertEquals("89abcdef", names.get(r, 8, r.byteSize()));
        }
    }
}
