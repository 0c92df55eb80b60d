package org.rocprofsys.instrument.elf;

/** One entry of the dynamic section (Elf64_Dyn). */
public record DynamicEntry(long tag, long value) {
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
}
