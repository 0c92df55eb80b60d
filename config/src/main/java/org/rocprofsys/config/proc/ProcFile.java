package org.rocprofsys.config.proc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A /proc or /sys file kept open and re-read from offset 0 on every tick: the kernel regenerates
 * the text on each read from the start, and skipping open/close halves the cost of a sample.
 */
public final class ProcFile implements AutoCloseable {
    private final Path path;
    private FileChannel channel;
    private ByteBuffer buffer = ByteBuffer.allocate(4096);

    public ProcFile(Path path) {
        this.path = path;
    }

    /** The file's current text, or "" when it cannot be read (the process is gone, no permission). */
    public String read() {
        try {
            if (channel == null) {
                channel = FileChannel.open(path, StandardOpenOption.READ);
            }
            buffer.clear();
            long position = 0;
            while (true) {
                int n = channel.read(buffer, position);
                if (n <= 0) {
                    break;
                }
                position += n;
                if (!buffer.hasRemaining()) {
                    ByteBuffer bigger = ByteBuffer.allocate(buffer.capacity() * 2);
                    buffer.flip();
                    bigger.put(buffer);
                    buffer = bigger;
                }
            }
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            close();
            return "";
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing left to release
            }
            channel = null;
        }
    }
}
