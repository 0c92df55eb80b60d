package org.rocprofsys.elf;

import static org.rocprofsys.elf.ElfConstants.CHDR_SIZE;
import static org.rocprofsys.elf.ElfConstants.ELFCOMPRESS_ZLIB;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** Inflates an SHF_COMPRESSED section: an Elf64_Chdr (type, reserved, size, alignment), then zlib data. */
final class SectionInflater {
    private SectionInflater() {}

    static ByteBuffer inflate(Path path, String section, ByteBuffer raw) throws ElfFormatException {
        if (raw.limit() < CHDR_SIZE || raw.getInt(0) != ELFCOMPRESS_ZLIB) {
            throw new ElfFormatException(path + ": section " + section + " uses an unsupported compression "
                    + (raw.limit() < 4 ? "header" : raw.getInt(0)));
        }
        long outSize = raw.getLong(8);
        if (outSize < 0 || outSize > Integer.MAX_VALUE) {
            throw new ElfFormatException(path + ": section " + section + " too large (" + outSize + " bytes)");
        }
        byte[] out = new byte[(int) outSize];
        Inflater inf = new Inflater();
        try {
            inf.setInput(raw.slice(CHDR_SIZE, raw.limit() - CHDR_SIZE));
            int n = 0;
            while (n < out.length && !inf.finished()) {
                int k = inf.inflate(out, n, out.length - n);
                if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    break;
                }
                n += k;
            }
            if (n != out.length) {
                throw new ElfFormatException(
                        path + ": section " + section + " inflated to " + n + " of " + outSize + " bytes");
            }
        } catch (DataFormatException e) {
            throw new ElfFormatException(path + ": section " + section + ": " + e.getMessage());
        } finally {
            inf.end();
        }
        return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    }
}
