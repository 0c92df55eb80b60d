package org.rocprofsys.run.testvendor;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * The test vendor's ring records, as its target-side library would write them through the
 * agent's GPU entry point: the agent's record header (u16 type, u16 size, i32 aux = the device),
 * then u64 begin ns, u64 end ns, u64 correlation id, u64 queue (or bytes for a copy, lanes for a
 * kernel in the high half), and a NUL-terminated name padded to 8. Its types are record numbers
 * no other backend uses (20-23).
 */
final class TestGpuRecords {
    static final int DEVICE = 20;
    static final int API = 21;
    static final int KERNEL = 22;
    static final int COPY = 23;

    private TestGpuRecords() {}

    static boolean owns(int type) {
        return type >= DEVICE && type <= COPY;
    }

    /** One record, header included. */
    static MemorySegment encode(
            Arena arena, int type, int device, long beginNs, long endNs, long correlationId, long word, String name) {
        byte[] text = name.getBytes(StandardCharsets.UTF_8);
        int size = (int) ((40 + text.length + 1 + 7) & ~7L);
        MemorySegment r = arena.allocate(size, 8);
        r.set(JAVA_SHORT, 0, (short) type);
        r.set(JAVA_SHORT, 2, (short) size);
        r.set(JAVA_INT, 4, device);
        r.set(JAVA_LONG, 8, beginNs);
        r.set(JAVA_LONG, 16, endNs);
        r.set(JAVA_LONG, 24, correlationId);
        r.set(JAVA_LONG, 32, word);
        MemorySegment.copy(text, 0, r, JAVA_BYTE, 40, text.length);
        return r;
    }

    static int type(MemorySegment r) {
        return Short.toUnsignedInt(r.get(JAVA_SHORT, 0));
    }

    static int device(MemorySegment r) {
        return r.get(JAVA_INT, 4);
    }

    static long begin(MemorySegment r) {
        return r.get(JAVA_LONG, 8);
    }

    static long end(MemorySegment r) {
        return r.get(JAVA_LONG, 16);
    }

    static long correlation(MemorySegment r) {
        return r.get(JAVA_LONG, 24);
    }

    static long word(MemorySegment r) {
        return r.get(JAVA_LONG, 32);
    }

    static String name(MemorySegment r) {
        return r.getString(40, StandardCharsets.UTF_8);
    }
}
