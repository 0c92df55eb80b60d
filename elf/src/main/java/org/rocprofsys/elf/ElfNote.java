package org.rocprofsys.elf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One ELF note (Elf64_Nhdr, name, desc).
 *
 * @param name       the owner, without its terminating NUL ("GNU", "RocProfSys")
 * @param descOffset the file offset of the desc bytes (where a writer patches them)
 */
public record ElfNote(String name, int type, long descOffset, byte[] desc) {
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The desc as little-endian bytes. */
    public ByteBuffer descData() {
        return ByteBuffer.wrap(desc).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Appends the notes of file bytes [offset, offset + size) to {@code out}; the walk stops at
     * the first note that does not fit (a damaged table yields the notes before it).
     */
    static void walk(MemorySegment file, long offset, long size, int align, List<ElfNote> out) {
        if (offset < 0 || size < 0 || offset > file.byteSize() || file.byteSize() - offset < size) {
            return;
        }
        long at = 0;
        while (at + 12 <= size) {
            long namesz = Integer.toUnsignedLong(file.get(U32, offset + at));
            long descsz = Integer.toUnsignedLong(file.get(U32, offset + at + 4));
            int type = file.get(U32, offset + at + 8);
            long name = at + 12;
            long desc = alignUp(name + namesz, align);
            if (desc + descsz > size) {
                return;
            }
            long nameLen = namesz > 0 && file.get(ValueLayout.JAVA_BYTE, offset + name + namesz - 1) == 0
                    ? namesz - 1
                    : namesz;
            byte[] nameBytes = file.asSlice(offset + name, nameLen).toArray(ValueLayout.JAVA_BYTE);
            out.add(new ElfNote(
                    new String(nameBytes, StandardCharsets.ISO_8859_1),
                    type,
                    offset + desc,
                    file.asSlice(offset + desc, descsz).toArray(ValueLayout.JAVA_BYTE)));
            at = alignUp(desc + descsz, align);
        }
    }

    private static long alignUp(long v, int align) {
        return (v + align - 1) & -align;
    }
}
