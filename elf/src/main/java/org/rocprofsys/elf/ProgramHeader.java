package org.rocprofsys.elf;

import static org.rocprofsys.elf.ElfConstants.*;

/**
 * One entry of the program-header table (Elf64_Phdr).
 *
 * @param type   p_type (PT_LOAD, PT_DYNAMIC, ...)
 * @param flags  p_flags (PF_X 1, PF_W 2, PF_R 4)
 */
public record ProgramHeader(
        int type, int flags, long offset, long vaddr, long paddr, long filesz, long memsz, long align) {

    public boolean isLoad() {
        return type == PT_LOAD;
    }

    public boolean executable() {
        return (flags & PF_X) != 0;
    }

    /** Whether {@code vaddr} lies in the part of the segment that comes from the file. */
    public boolean containsInFile(long address) {
        return address >= vaddr && address - vaddr < filesz;
    }

    /** Whether {@code vaddr} lies in the segment's memory image (file part plus zero fill). */
    public boolean containsInMemory(long address) {
        return address >= vaddr && address - vaddr < memsz;
    }
}
