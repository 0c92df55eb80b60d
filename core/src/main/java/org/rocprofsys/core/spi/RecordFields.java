package org.rocprofsys.core.spi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a backend's ring record as every backend's parser reads them: the agent's record
 * header (u16 type, u16 size, i32 aux), the bounds of the record, and its NUL-terminated strings.
 * A malformed record is an {@link IllegalArgumentException}, which the backend's decoder reports
 * as a {@link WireException} ({@link BackendRecords#decoding}).
 */
public final class RecordFields {
    private RecordFields() {}

    /**
     * The record's own bytes (as many as its header says), header included.
     *
     * @throws IllegalArgumentException when the header says more than was handed over
     */
    public static MemorySegment sized(MemorySegment record) {
        int size = Short.toUnsignedInt(record.get(JAVA_SHORT, 2));
        if (size > record.byteSize()) {
            throw new IllegalArgumentException("record of " + size + " bytes in " + record.byteSize());
        }
        return record.asSlice(0, size);
    }

    public static int type(MemorySegment record) {
        return Short.toUnsignedInt(record.get(JAVA_SHORT, 0));
    }

    public static int aux(MemorySegment record) {
        return record.get(JAVA_INT, 4);
    }

    /** @throws IllegalArgumentException when {@code r} is shorter than {@code bytes} */
    public static void need(MemorySegment r, long bytes, String what) {
        if (r.byteSize() < bytes) {
            throw new IllegalArgumentException(what + " record of " + r.byteSize() + " bytes, needs " + bytes);
        }
    }

    /** The length of the string at {@code at} (up to its NUL or the record's end). */
    public static int length(MemorySegment r, long at) {
        int n = 0;
        while (at + n < r.byteSize() && r.get(JAVA_BYTE, at + n) != 0) {
            n++;
        }
        return n;
    }

    /** The UTF-8 string at {@code at}; empty past the record's end. */
    public static String string(MemorySegment r, long at) {
        return at >= r.byteSize()
                ? ""
                : new String(r.asSlice(at, length(r, at)).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** {@code n} strings one after the other from {@code at} (fewer where the record ends). */
    public static List<String> strings(MemorySegment r, long at, int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n && at < r.byteSize(); i++) {
            int len = length(r, at);
            out.add(new String(r.asSlice(at, len).toArray(JAVA_BYTE), StandardCharsets.UTF_8));
            at += len + 1;
        }
        return List.copyOf(out);
    }
}
