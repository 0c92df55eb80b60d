package org.rocprofsys.elf;

/**
 * The ELF64 constants the project uses, named as in {@code <elf.h>}: one place for every reader,
 * writer and walker of ELF files.
 */
public final class ElfConstants {
    private ElfConstants() {}

    // e_type, e_machine
    public static final int ET_REL = 1;
    public static final int ET_EXEC = 2;
    public static final int ET_DYN = 3;
    public static final int EM_X86_64 = 62;

    // table entry sizes
    public static final int EHDR_SIZE = 64;
    public static final int PHDR_SIZE = 56;
    public static final int SHDR_SIZE = 64;
    public static final int SYM_SIZE = 24;
    public static final int DYN_SIZE = 16;
    public static final int RELA_SIZE = 24;
    public static final int REL_SIZE = 16;
    public static final int CHDR_SIZE = 24;

    // p_type, p_flags
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

    // sh_type, sh_flags, special section indexes
    public static final int SHT_NULL = 0;
    public static final int SHT_PROGBITS = 1;
    public static final int SHT_SYMTAB = 2;
    public static final int SHT_STRTAB = 3;
    public static final int SHT_RELA = 4;
    public static final int SHT_DYNAMIC = 6;
    public static final int SHT_NOTE = 7;
    public static final int SHT_NOBITS = 8;
    public static final int SHT_REL = 9;
    public static final int SHT_DYNSYM = 11;
    public static final long SHF_WRITE = 0x1;
    public static final long SHF_ALLOC = 0x2;
    public static final long SHF_EXECINSTR = 0x4;
    public static final long SHF_COMPRESSED = 0x800;
    public static final int ELFCOMPRESS_ZLIB = 1;
    public static final int SHN_UNDEF = 0;
    public static final int SHN_LORESERVE = 0xff00;
    public static final int SHN_ABS = 0xfff1;
    public static final int SHN_COMMON = 0xfff2;
    public static final int SHN_XINDEX = 0xffff;
    /** e_phnum value meaning "the count is in section header 0's sh_info". */
    public static final int PN_XNUM = 0xffff;

    // st_info, st_other
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

    // d_tag, DT_FLAGS_1 bits
    public static final long DT_NULL = 0;
    public static final long DT_NEEDED = 1;
    public static final long DT_STRTAB = 5;
    public static final long DT_SYMTAB = 6;
    public static final long DT_STRSZ = 10;
    public static final long DT_SONAME = 14;
    public static final long DT_RPATH = 15;
    public static final long DT_RUNPATH = 29;
    public static final long DT_FLAGS_1 = 0x6ffffffb;
    /** DT_FLAGS_1 bit that marks a position-independent executable. */
    public static final long DF_1_PIE = 0x08000000L;

    // notes
    public static final int NT_GNU_BUILD_ID = 3;
    public static final int NT_GNU_PROPERTY_TYPE_0 = 5;
    public static final int GNU_PROPERTY_X86_FEATURE_1_AND = 0xc0000002;
    /** GNU_PROPERTY_X86_FEATURE_1_IBT | GNU_PROPERTY_X86_FEATURE_1_SHSTK. */
    public static final int GNU_PROPERTY_X86_FEATURE_1_CET = 0x3;

    // r_info types
    public static final int R_X86_64_GLOB_DAT = 6;
    public static final int R_X86_64_JUMP_SLOT = 7;
    public static final int R_X86_64_IRELATIVE = 37;
}
