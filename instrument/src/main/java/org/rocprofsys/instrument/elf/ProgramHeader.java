package org.rocprofsys.instrument.elf;

/**
 * One entry of the program-header table (Elf64_Phdr).
 *
 * @param type   p_type (PT_LOAD, PT_DYNAMIC, ...)
 * @param flags  p_flags (PF_X 1, PF_W 2, PF_R 4)
 */
public record ProgramHeader(int type, int flags, long offset, long vaddr, long paddr, long filesz,
        long memsz, long align) {
    public static final int PT_NULL = 0;
    public static final int PT_LOAD = 1;
    public static final int PT_DYNAMIC = 2;
    public static final int PT_INTERP = 3;
    public static final int PT_NOTE = 4;
    public static final int PT_PHDR = 6;
    public static final int PT_TLS = 7;
    public static final int PT_GNU_EH_FRAME = 0x6474e550;
    public static final int PT_GNU_STACK = 0x6474e551;
    public static final int PT_GNU_RELRO = 0x6474e552;
    public static final int PT_GNU_PROPERTY = 0x6474e553;

    public static final int PF_X = 1;
    public static final int PF_W = 2;
    public static final int PF_R = 4;

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
