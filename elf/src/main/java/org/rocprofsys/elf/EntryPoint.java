package org.rocprofsys.elf;

import java.util.OptionalLong;

/**
 * Finds {@code main} in a stripped executable the way Dyninst's parser does: glibc's
 * {@code _start} (at e_entry) loads main's address into rdi ({@code lea main(%rip),%rdi} in a PIE,
 * {@code mov $main,%rdi} or {@code mov $main,%edi} otherwise) right before it calls
 * {@code __libc_start_main}. Only that shape is recognised: the load immediately followed by a
 * direct or GOT-indirect call within the first 64 bytes, and an address in an executable section.
 */
public final class EntryPoint {
    private static final int WINDOW = 64;

    private EntryPoint() {}

    /** The address of {@code main} passed by {@code _start}; empty for libraries and other entry code. */
    public static OptionalLong main(ElfFile elf) {
        if (!elf.hasInterpreter() || elf.entry() == 0) return OptionalLong.empty();
        byte[] code;
        try {
            long avail = elf.loadSegmentContaining(elf.entry())
                    .map(p -> p.vaddr() + p.filesz() - elf.entry())
                    .orElse(0L);
            if (avail <= 0) return OptionalLong.empty();
            code = elf.bytesAt(elf.entry(), (int) Math.min(WINDOW, avail));
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty();
        }
        for (int i = 0; i + 7 <= code.length; i++) {
            int b0 = code[i] & 0xff;
            int b1 = code[i + 1] & 0xff;
            int b2 = code[i + 2] & 0xff;
            long main;
            int next;
            if (b0 == 0x48 && b1 == 0x8d && b2 == 0x3d) { // lea rel32(%rip),%rdi
                next = i + 7;
                main = elf.entry() + next + rel32(code, i + 3);
            } else if (b0 == 0x48 && b1 == 0xc7 && b2 == 0xc7) { // mov $imm32,%rdi (sign-extended)
                next = i + 7;
                main = rel32(code, i + 3);
            } else if (b0 == 0xbf) { // mov $imm32,%edi
                next = i + 5;
                main = Integer.toUnsignedLong(rel32(code, i + 1));
            } else {
                continue;
            }
            if (calls(code, next) && executable(elf, main)) return OptionalLong.of(main);
        }
        return OptionalLong.empty();
    }

    /** A call at {@code at}: {@code call rel32} or {@code call *rel32(%rip)} (through the GOT). */
    private static boolean calls(byte[] code, int at) {
        if (at < code.length && (code[at] & 0xff) == 0xe8) return true;
        return at + 1 < code.length && (code[at] & 0xff) == 0xff && (code[at + 1] & 0xff) == 0x15;
    }

    private static int rel32(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    private static boolean executable(ElfFile elf, long vaddr) {
        return elf.sectionContaining(vaddr).map(SectionHeader::executable).orElse(false);
    }
}
