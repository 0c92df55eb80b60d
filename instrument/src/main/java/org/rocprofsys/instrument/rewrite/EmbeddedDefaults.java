package org.rocprofsys.instrument.rewrite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.rocprofsys.core.launch.ProgramPath;
import org.rocprofsys.instrument.area.AreaFormat;
import org.rocprofsys.instrument.area.AreaReader;
import org.rocprofsys.instrument.elf.ElfFile;
import org.rocprofsys.instrument.elf.ProgramHeader;

/**
 * The environment defaults a rewritten binary carries ({@code rocprof-sys-instrument --env},
 * {@code -C}, the mode), read back by the launcher so that they count like settings the user did
 * not set: through the binary's "RocProfSys" note to its instrumentation area's env block.
 */
public final class EmbeddedDefaults {
    private static final int PT_NOTE = 4;
    private static final String NOTE_NAME = "RocProfSys";

    private EmbeddedDefaults() {
    }

    /** The defaults of the program a command starts (PATH searched), or none. */
    public static Map<String, String> forCommand(String program, Map<String, String> env, Path cwd) {
        return ProgramPath.find(program, env, cwd).map(EmbeddedDefaults::of).orElse(Map.of());
    }

    /** The defaults embedded in {@code file}; empty for anything that is not a rewritten ELF file. */
    public static Map<String, String> of(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return Map.of();
            }
            ElfFile elf = ElfFile.open(file);
            for (ProgramHeader h : elf.programHeaders()) {
                if (h.type() != PT_NOTE) {
                    continue;
                }
                Long area = areaVaddr(elf.bytesAt(h.vaddr(), (int) h.filesz()));
                if (area != null) {
                    byte[] header = elf.bytesAt(area, AreaFormat.HEADER_SIZE);
                    int rx = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(AreaFormat.H_RX_SIZE);
                    // the read+write data page need not be in the file: only the RX part is read
                    byte[] bytes = new byte[rx + AreaFormat.PAGE];
                    System.arraycopy(elf.bytesAt(area, rx), 0, bytes, 0, rx);
                    return AreaReader.read(bytes).env();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not ours, or not readable: no defaults
        }
        return Map.of();
    }

    /** The desc of a "RocProfSys" note (type 1) among the notes of a PT_NOTE segment. */
    private static Long areaVaddr(byte[] notes) {
        ByteBuffer b = ByteBuffer.wrap(notes).order(ByteOrder.LITTLE_ENDIAN);
        while (b.remaining() >= 12) {
            int namesz = b.getInt();
            int descsz = b.getInt();
            int type = b.getInt();
            int nameAt = b.position();
            int descAt = nameAt + ((namesz + 3) & ~3);
            if (namesz < 0 || descsz < 0 || descAt + descsz > notes.length) {
                return null;
            }
            String name = new String(notes, nameAt, Math.max(0, namesz - 1), StandardCharsets.US_ASCII);
            if (name.equals(NOTE_NAME) && type == 1 && descsz >= 8) {
                return b.getLong(descAt);
            }
            b.position(descAt + ((descsz + 3) & ~3));
        }
        return null;
    }
}
