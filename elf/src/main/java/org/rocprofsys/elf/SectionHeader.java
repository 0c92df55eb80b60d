package org.rocprofsys.elf;

import static org.rocprofsys.elf.ElfConstants.*;

/**
 * One entry of the section-header table (Elf64_Shdr) with its name resolved.
 *
 * @param index      position in the table (symbols' st_shndx refers to it)
 * @param nameOffset sh_name: where {@code name} starts in the section-name string table
 */
public record SectionHeader(
        int index,
        String name,
        int nameOffset,
        int type,
        long flags,
        long addr,
        long offset,
        long size,
        int link,
        int info,
        long addralign,
        long entsize) {

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
