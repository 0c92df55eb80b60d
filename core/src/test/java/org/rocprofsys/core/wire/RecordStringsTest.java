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

    @Test
    void prefixesOfOneAnotherStayApartWhateverFollowsTheirNul() {
        RecordStrings names = new RecordStrings();
        String all = "abcdefghijklmnopqrstuvwx";
        String[] first = new String[all.length() + 1];
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 3; round++) {
                for (int length = 0; length <= all.length(); length++) {
                    String n = all.substring(0, length);
                    MemorySegment r = record(arena, n, 4);
                    r.fill((byte) (0x41 + round)); // garbage that spells the next letters, or others
                    MemorySegment.copy(n.getBytes(StandardCharsets.UTF_8), 0, r, ValueLayout.JAVA_BYTE, 0, length);
                    r.set(ValueLayout.JAVA_BYTE, length, (byte) 0);
                    String got = names.get(r, 0, r.byteSize());
                    assertEquals(n, got, "length " + length + ", round " + round);
                    if (round == 0) {
                        first[length] = got;
                    } else {
                        // the bytes after the NUL differ from round to round: the cached string still serves
                        assertSame(first[length], got, "length " + length + ", round " + round);
                    }
                }
            }
        }
    }

    @Test
    void manyNamesOfOneLengthDifferingInTheirFirstWordStayExact() {
        RecordStrings names = new RecordStrings();
        try (Arena arena = Arena.ofConfined()) {
            for (int pass = 0; pass < 2; pass++) {
                for (int i = 0; i < 5000; i++) {
                    String n = String.format("r%05d", i); // 6 bytes: one word, sharing 512 slots
                    MemorySegment r = record(arena, n, 2);
                    assertEquals(n, names.get(r, 0, r.byteSize()), "pass " + pass);
                }
            }
        }
    }
}
