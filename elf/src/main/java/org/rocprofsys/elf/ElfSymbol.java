package org.rocprofsys.elf;

import static org.rocprofsys.elf.ElfConstants.*;

/**
 * One symbol of .symtab or .dynsym (Elf64_Sym), name resolved (mangled, as stored).
 *
 * @param type       STT_* (low 4 bits of st_info)
 * @param bind       STB_* (high 4 bits of st_info)
 * @param visibility STV_* (low 2 bits of st_other)
 * @param shndx      st_shndx (0 undefined, 0xfff1 absolute, ...)
 * @param table      which table the symbol comes from
 */
public record ElfSymbol(
        String name, long value, long size, int type, int bind, int visibility, int shndx, Table table) {
    public enum Table {
        SYMTAB,
        DYNSYM
    }

    public boolean defined() {
        return shndx != SHN_UNDEF;
    }

    /** A defined function (STT_FUNC or an IFUNC resolver) with code in this file. */
    public boolean definedFunction() {
        return (type == STT_FUNC || type == STT_GNU_IFUNC) && defined() && shndx < 0xff00;
    }
}
