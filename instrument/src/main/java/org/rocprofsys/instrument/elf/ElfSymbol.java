package org.rocprofsys.instrument.elf;

/**
 * One symbol of .symtab or .dynsym (Elf64_Sym), name resolved (mangled, as stored).
 *
 * @param type       STT_* (low 4 bits of st_info)
 * @param bind       STB_* (high 4 bits of st_info)
 * @param visibility STV_* (low 2 bits of st_other)
 * @param shndx      st_shndx (0 undefined, 0xfff1 absolute, ...)
 * @param table      which table the symbol comes from
 */
public record ElfSymbol(String name, long value, long size, int type, int bind, int visibility,
        int shndx, Table table) {
    public enum Table { SYMTAB, DYNSYM }

    public static final int STT_NOTYPE = 0;
    public static final int STT_OBJECT = 1;
    public static final int STT_FUNC = 2;
    public static final int STT_SECTION = 3;
    public static final int STT_FILE = 4;
    public static final int STT_TLS = 6;
    public static final int STT_GNU_IFUNC = 10;

    public static final int STB_LOCAL = 0;
    public static final int STB_GLOBAL = 1;
    public static final int STB_WEAK = 2;
    public static final int STB_GNU_UNIQUE = 10;

    public static final int STV_DEFAULT = 0;
    public static final int STV_INTERNAL = 1;
    public static final int STV_HIDDEN = 2;
    public static final int STV_PROTECTED = 3;

    public static final int SHN_UNDEF = 0;
    public static final int SHN_ABS = 0xfff1;
    public static final int SHN_COMMON = 0xfff2;

    public boolean defined() {
        return shndx != SHN_UNDEF;
    }

    /** A defined function (STT_FUNC or an IFUNC resolver) with code in this file. */
    public boolean definedFunction() {
        return (type == STT_FUNC || type == STT_GNU_IFUNC) && defined() && shndx < 0xff00;
    }
}
