package org.rocprofsys.sampler.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;

class RingCopiesTest {
    private static final long BLOCK = 64 * 1024;

    private static MemorySegment fill(RingCopies copies, long bytes, byte value) {
        MemorySegment m = copies.room(bytes);
        m.fill(value);
        return m;
    }

    private static void assertFilled(MemorySegment m, byte value) {
        for (long i = 0; i < m.byteSize(); i++) {
            assertEquals(value, m.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
    }

    /** Copies waiting are never overwritten; consumed ones give their blocks back, so memory stays bounded. */
    @Test
    void reusesBlocksOnlyOnceEveryCopyInThemIsConsumed() {
        try (RingCopies copies = new RingCopies(BLOCK)) {
            ArrayDeque<MemorySegment> waiting = new ArrayDeque<>();
            ArrayDeque<Byte> values = new ArrayDeque<>();
            byte next = 1;
            for (int round = 0; round < 200; round++) {
                // a wake-up copies a few rings' worth (odd sizes), the decoder lags a few copies behind
                for (int i = 0; i < 3; i++) {
                    long size = 1 + (round * 7919L + i * 104729L) % (BLOCK / 3);
                    waiting.add(fill(copies, size, next));
                    values.add(next);
                    next = (byte) (next == 127 ? 1 : next + 1);
                }
                while (waiting.size() > 4) {
                    assertFilled(waiting.poll(), values.poll());
                    copies.consumed();
                }
            }
            while (!waiting.isEmpty()) {
                assertFilled(waiting.poll(), values.poll());
                copies.consumed();
            }
            // 200 rounds of about half a block each, never more than 7 copies outstanding
            assertEquals(true, copies.allocatedBytes() <= 5 * BLOCK, copies.allocatedBytes() + " bytes allocated");
            assertThrows(IllegalStateException.class, copies::consumed);
        }
    }

    /** Reserved blocks are faulted in up front and used before any other is mapped. */
    @Test
    void reservedBlocksServeTheFirstCopies() {
        try (RingCopies copies = new RingCopies(BLOCK)) {
            copies.reserve(2 * BLOCK - 1);
            assertEquals(2 * BLOCK, copies.allocatedBytes());
            MemorySegment a = fill(copies, BLOCK, (byte) 1);
            MemorySegment b = fill(copies, BLOCK, (byte) 2);
            assertEquals(2 * BLOCK, copies.allocatedBytes(), "no block mapped beyond the reserved two");
            assertFilled(a, (byte) 1);
            assertFilled(b, (byte) 2);
            fill(copies, 8, (byte) 3);
            assertEquals(3 * BLOCK, copies.allocatedBytes());
        }
    }

    @Test
    void refusesACopyLargerThanABlock() {
        try (RingCopies copies = new RingCopies(BLOCK)) {
            assertThrows(IllegalArgumentException.class, () -> copies.room(BLOCK + 1));
            assertEquals(BLOCK, copies.room(BLOCK).byteSize());
        }
    }
}
