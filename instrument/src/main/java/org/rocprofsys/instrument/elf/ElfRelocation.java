package org.rocprofsys.instrument.elf;

/**
 * One entry of an SHT_RELA section (Elf64_Rela).
 *
 * @param offset r_offset (for a linked file: the vaddr of the place)
 * @param type   low 32 bits of r_info (R_X86_64_*)
 * @param symbol high 32 bits of r_info: index into the linked symbol table
 * @param symbolName that symbol's name ("" for none)
 */
public record ElfRelocation(long offset, int type, int symbol, long addend, String symbolName) {
    public static final int R_X86_64_GLOB_DAT = 6;
    public static final int R_X86_64_JUMP_SLOT = 7;
    public static final int R_X86_64_IRELATIVE = 37;
}
