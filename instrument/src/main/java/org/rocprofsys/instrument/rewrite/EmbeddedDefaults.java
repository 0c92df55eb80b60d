package org.rocprofsys.instrument.rewrite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.ElfNote;
import org.rocprofsys.instrument.area.AreaFormat;
import org.rocprofsys.instrument.area.AreaReader;

/**
 * The environment defaults a rewritten binary carries ({@code rocprof-sys-instrument --env},
 * {@code -C}, the mode), read back by the launcher so that they count like settings the user did
 * not set: through the binary's "RocProfSys" note to its instrumentation area's env block.
 */
public final class EmbeddedDefaults {
    private EmbeddedDefaults() {}

    /** The defaults embedded in {@code file}; empty for anything that is not a rewritten ELF file. */
    public static Optional<Map<String, String>> of(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            ElfFile elf = ElfFile.open(file);
            for (ElfNote n : elf.segmentNotes()) {
                // the "RocProfSys" note (type 1) holds the vaddr of the instrumentation area
                if (n.name().equals(ElfRewriter.NOTE_NAME)
                        && n.type() == ElfRewriter.NOTE_TYPE
                        && n.desc().length >= 8) {
                    long area = n.descData().getLong(0);
                    byte[] header = elf.bytesAt(area, AreaFormat.HEADER_SIZE);
                    int rx = ByteBuffer.wrap(header)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .getInt(AreaFormat.H_RX_SIZE);
                    // the read+write data page need not be in the file: only the RX part is read
                    byte[] bytes = new byte[rx + AreaFormat.PAGE];
                    System.arraycopy(elf.bytesAt(area, rx), 0, bytes, 0, rx);
                    return Optional.of(AreaReader.read(bytes).env());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not ours, or not readable: no defaults
        }
        return Optional.empty();
    }
}
