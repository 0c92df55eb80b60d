package org.rocprofsys.instrument.elf;

/**
 * One entry of the section-header table (Elf64_Shdr) with its name resolved.
 *
 * @param index position in the table (symbols' st_shndx refers to it)
 */
public record SectionHeader(int index, String name, int type, long flags, long addr, long offset,
        long size, int link, int info, long addralign, long entsize) {
    public static final int SHT_NULL = 0;
    public static final int SHT_PROGBITS = 1;
    public static final int SHT_SYMTAB = 2;
    public static final int SHT_STRTAB = 3;
    public static final int SHT_RELA = 4;
    public static final int SHT_DYNAMIC = 6;
    public static final int SHT_NOTE = 7;
    public static final int SHT_NOBITS = 8;
    public static final int SHT_DYNSYM = 11;

    public static final long SHF_WRITE = 0x1;
    public static final long SHF_ALLOC = 0x2;
    public static final long SHF_EXECINSTR = 0x4;

    public boolean executable() {
        return (flags & SHF_EXECINSTR) != 0;
    }

    public boolean allocated() {
        return (flags & SHF_ALLOC) != 0;
    }

    /** Whether the address lies inside this section's memory range (allocated sections only). */
    public boolean containsAddress(long address) {
        return allocated() && address >= addr && address - addr < size;
    }
}
