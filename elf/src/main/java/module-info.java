/** The mapped ELF reader, its DWARF line tables and the demangler. */
module org.rocprofsys.elf {
    requires org.rocprofsys.ffm;

    exports org.rocprofsys.elf;
    exports org.rocprofsys.elf.dwarf;
}
