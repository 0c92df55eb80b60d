package org.rocprofsys.elf;

/**
 * One entry of an SHT_RELA section (Elf64_Rela).
 *
 * @param offset r_offset (for a linked file: the vaddr of the place)
 * @param type   low 32 bits of r_info (R_X86_64_*)
 * @param symbol high 32 bits of r_info: index into the linked symbol table
 * @param symbolName that symbol's name ("" for none)
 */
public record ElfRelocation(long offset, int type, int symbol, long addend, String symbolName) {}
