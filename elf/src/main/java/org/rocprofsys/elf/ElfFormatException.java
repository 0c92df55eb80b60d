package org.rocprofsys.elf;

import java.io.IOException;

/** The file is not an ELF file this tool can read (wrong class, byte order, machine) or is cut short. */
public final class ElfFormatException extends IOException {
    public ElfFormatException(String message) {
        super(message);
    }
}
