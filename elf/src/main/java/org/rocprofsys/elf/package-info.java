/**
 * Read-only ELF64 little-endian x86-64 model in plain Java: {@link org.rocprofsys.elf.ElfFile#open}
 * maps the file and exposes its header, program headers, named sections, .symtab/.dynsym symbols,
 * dynamic entries (DT_NEEDED, RUNPATH/RPATH, SONAME), dynamic relocations, and bytes by virtual
 * address. Anything it cannot read is an {@link org.rocprofsys.elf.ElfFormatException}
 * whose message starts with the path.
 */
package org.rocprofsys.elf;
