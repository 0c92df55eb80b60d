package org.rocprofsys.elf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The {@code .gnu_debuglink} section: the name of the separate debug file and the CRC-32 of its
 * contents (the name, NUL, padding to 4, then the CRC).
 */
public record DebugLink(String file, int crc) {
    static Optional<DebugLink> parse(ByteBuffer b) {
        int end = 0;
        while (end < b.limit() && b.get(end) != 0) {
            end++;
        }
        int crcAt = (end + 1 + 3) & ~3;
        if (end == 0 || crcAt + 4 > b.limit()) {
            return Optional.empty();
        }
        byte[] name = new byte[end];
        b.get(0, name);
        return Optional.of(new DebugLink(new String(name, StandardCharsets.UTF_8), b.getInt(crcAt)));
    }
}
