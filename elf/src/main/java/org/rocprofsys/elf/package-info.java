/**
 * The project's one ELF module. {@link org.rocprofsys.elf.ElfFile} maps an ELF64 little-endian
 * x86-64 file (or wraps an in-memory image) and exposes its header, program headers, named
 * sections and their contents (SHF_COMPRESSED zlib sections inflated), .symtab/.dynsym symbols,
 * dynamic entries (DT_NEEDED, RUNPATH/RPATH, SONAME), dynamic relocations, notes
 * ({@link org.rocprofsys.elf.ElfNote}), the build-id, {@code .gnu_debuglink}
 * ({@link org.rocprofsys.elf.DebugLink}) and bytes by virtual address or file offset.
 * {@link org.rocprofsys.elf.ElfConstants} holds every ELF constant;
 * {@link org.rocprofsys.elf.Demangler} is the one C++ demangler. Anything the reader cannot read is
 * an {@link org.rocprofsys.elf.ElfFormatException} whose message starts with the path.
 */
package org.rocprofsys.elf;
