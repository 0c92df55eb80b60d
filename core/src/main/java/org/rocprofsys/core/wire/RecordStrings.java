package org.rocprofsys.core.wire;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The NUL-terminated names of one ring's records as Strings, without decoding the same bytes twice:
 * a program pushes the same few region names millions of times, and a new String per record was
 * the draining thread's largest cost. The bytes are read a word at a time (names start 8-aligned in
 * their records, which are whole words long), hashed by word, and looked up in a small direct-mapped
 * table whose entries keep their words to compare exactly; a name that collides just replaces the
 * entry, so the table's memory stays bounded whatever the program names. Names of up to 15 bytes
 * (two words with their NUL, most region names) have a table of their own whose words are kept
 * in flat arrays, so a lookup reads no other object.
 */
final class RecordStrings {
    private static final int SLOTS = 512; // a power of two
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    // names of up to two words: their words (zero from the NUL on, so they tell the name exactly)
    // and string, per slot
    private final long[] shortFirst = new long[SLOTS];
    private final long[] shortSecond = new long[SLOTS];
    private final String[] shortValues = new String[SLOTS];

    private final long[][] words = new long[SLOTS][];
    private final int[] lengths = new int[SLOTS];
    private final String[] values = new String[SLOTS];
    private long[] scratch = new long[8];

    /**
     * The string at {@code at} of a segment, ending at its first NUL or at {@code end} (exclusive);
     * {@code at} and {@code end} are 8-aligned offsets of a record.
     */
    String get(MemorySegment data, long at, long end) {
        long w0 = data.get(JAVA_LONG_UNALIGNED, at);
        long zero0 = (w0 - ONES) & ~w0 & HIGHS;
        if (zero0 != 0) {
            int length = Long.numberOfTrailingZeros(zero0) >>> 3;
            return shortName(length == 0 ? 0 : w0 & (-1L >>> (64 - 8 * length)), 0, length, data, at);
        }
        if (at + 16 <= end) {
            long w1 = data.get(JAVA_LONG_UNALIGNED, at + 8);
            long zero1 = (w1 - ONES) & ~w1 & HIGHS;
            if (zero1 != 0) {
                int nulByte = Long.numberOfTrailingZeros(zero1) >>> 3;
                return shortName(w0, nulByte == 0 ? 0 : w1 & (-1L >>> (64 - 8 * nulByte)), 8 + nulByte, data, at);
            }
        }
        return longName(data, at, end);
    }

    /** A name whose NUL is in its first two words {@code w0}, {@code w1} (zero after the NUL). */
    private String shortName(long w0, long w1, int length, MemorySegment data, long at) {
        long hash = (w0 * 0x9E3779B97F4A7C15L) ^ (w1 * 0xC2B2AE3D27D4EB4FL);
        int slot = (int) (hash >>> 55) & (SLOTS - 1);
        String cached = shortValues[slot];
        if (cached != null && shortFirst[slot] == w0 && shortSecond[slot] == w1) {
            return cached;
        }
        String s = decode(data, at, length);
        shortFirst[slot] = w0;
        shortSecond[slot] = w1;
        shortValues[slot] = s;
        return s;
    }

    private static String decode(MemorySegment data, long at, int length) {
        byte[] bytes = new byte[length];
        MemorySegment.copy(data, JAVA_BYTE, at, bytes, 0, length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A name longer than two words, or one without a NUL in its record. */
    private String longName(MemorySegment data, long at, long end) {
        int n = 0;
        int length = -1;
        long hash = 0;
        for (long p = at; p < end; p += 8) {
            long w = data.get(JAVA_LONG_UNALIGNED, p);
            long zero = (w - ONES) & ~w & HIGHS;
            if (zero != 0) {
                int nulByte = Long.numberOfTrailingZeros(zero) >>> 3;
                w &= nulByte == 0 ? 0 : -1L >>> (64 - 8 * nulByte);
                length = 8 * n + nulByte;
            }
            if (n == scratch.length) {
                scratch = Arrays.copyOf(scratch, n * 2);
            }
            scratch[n++] = w;
            hash = (hash ^ w) * 0x9E3779B97F4A7C15L;
            if (length >= 0) {
                break;
            }
        }
        if (length < 0) {
            length = (int) (end - at); // no NUL inside the record: the name fills it
        }
        int slot = (int) (hash >>> 55) & (SLOTS - 1);
        long[] cached = words[slot];
        if (cached != null && lengths[slot] == length && cached.length == n && sameWords(cached, n)) {
            return values[slot];
        }
        String s = decode(data, at, length);
        words[slot] = Arrays.copyOf(scratch, n);
        lengths[slot] = length;
        values[slot] = s;
        return s;
    }

    private boolean sameWords(long[] cached, int n) {
        for (int i = 0; i < n; i++) {
            if (cached[i] != scratch[i]) {
                return false;
            }
        }
        return true;
    }
}
