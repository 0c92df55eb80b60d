package org.rocprofsys.elf;

/** One entry of the dynamic section (Elf64_Dyn). */
public record DynamicEntry(long tag, long value) {}
