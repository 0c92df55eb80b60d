/**
 * DWARF reading: {@link org.rocprofsys.elf.dwarf.LineInfo}, the one line reader (file, line and
 * the chain of inlined frames of an address, through elfutils' libdw loaded with the ffm module's
 * optional-library loader).
 */
package org.rocprofsys.elf.dwarf;
