package org.rocprofsys.core.output;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Set;

/**
 * A file written past the page cache ({@code O_DIRECT}) on a local disk's file system
 * ({@link #DIRECT_FILE_SYSTEMS}): the bytes go from one aligned buffer of this stream to the disk.
 * A trace of a busy run is gigabytes written once and not read back by the collector; through
 * write(2) the kernel copied every byte into page cache pages it first had to find, and on a
 * virtual machine whose memory the host backs lazily (this 2-core VM; docs/benchmarks.md, fifteenth
 * session) that took a third of the collector's CPU in a steady traced run. It also leaves the
 * profiled program's own file cache alone. Elsewhere (NFS, Lustre, GPFS, FUSE, tmpfs) the file is
 * written through the page cache as before: a direct write there waits for the network, and the
 * page cache is what absorbs a slow server while the program runs.
 *
 * <p>Direct writes must start at a multiple of the file system's block size and be a multiple of
 * it long; this stream writes whole buffers of {@value #BUFFER} bytes and, at {@link #close}, the
 * rest padded to a block, then truncates the file to the bytes written. Where the file cannot be
 * opened for direct I/O, or a direct write is refused, the stream goes on with ordinary writes at
 * the same place, so the file is the same either way. Not thread-safe: one thread writes (the
 * trace's {@link BackgroundOutputStream} thread).
 */
public final class DirectFileOutputStream extends OutputStream {
    static final int BUFFER = 1 << 20;
    /** File system types (as {@link java.nio.file.FileStore#type()} names them) written directly. */
    static final Set<String> DIRECT_FILE_SYSTEMS = Set.of("ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs");
    /** The least alignment used, whatever the file system says: the usual page and block size. */
    private static final int MIN_ALIGNMENT = 4096;

    private final Path file;
    private FileChannel channel;
    private boolean direct;
    private final int alignment;
    private final ByteBuffer buffer;
    /** Where the buffer's first byte goes in the file (a multiple of the alignment). */
    private long position;

    private boolean closed;

    DirectFileOutputStream(Path file, FileChannel channel, boolean direct, int alignment) {
        this.file = file;
        this.channel = channel;
        this.direct = direct;
        this.alignment = alignment;
        this.buffer = ByteBuffer.allocateDirect(BUFFER + alignment).alignedSlice(alignment);
        this.buffer.limit(BUFFER);
    }

    /**
     * Opens {@code file} (which may exist: it is truncated) for writing, directly where its file
     * system allows.
     */
    public static DirectFileOutputStream open(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        FileChannel plain = FileChannel.open(
                file, StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        int alignment = alignmentOf(file);
        if (alignment > 0) { // a local disk's file system: no page cache
            try {
                FileChannel direct = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
                plain.close();
                return new DirectFileOutputStream(file, direct, true, alignment);
            } catch (IOException | UnsupportedOperationException e) {
                // direct I/O refused after all: ordinary writes
            }
        }
        return new DirectFileOutputStream(file, plain, false, MIN_ALIGNMENT);
    }

    /** Whether the bytes go past the page cache (for tests). */
    boolean direct() {
        return direct;
    }

    /** Whether the file's channel of the moment is open (for tests). */
    boolean channelOpen() {
        return channel.isOpen();
    }

    /** The alignment of direct writes to {@code file}, or -1 where it is not written directly. */
    private static int alignmentOf(Path file) {
        try {
            FileStore store = Files.getFileStore(file);
            if (!DIRECT_FILE_SYSTEMS.contains(store.type())) {
                return -1;
            }
            long block = store.getBlockSize();
            if (block <= 0 || block > BUFFER || Long.bitCount(block) != 1) {
                return -1;
            }
            return (int) Math.max(block, MIN_ALIGNMENT);
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (!buffer.hasRemaining()) {
            writeBuffer();
        }
        buffer.put((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int count) throws IOException {
        Objects.checkFromIndexSize(offset, count, bytes.length);
        ensureOpen();
        while (count > 0) {
            int n = Math.min(count, buffer.remaining());
            buffer.put(bytes, offset, n);
            offset += n;
            count -= n;
            if (!buffer.hasRemaining()) {
                writeBuffer();
            }
        }
    }

    /** Nothing: a direct write must be whole blocks, so the last partial block waits for {@link #close}. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
    }

    /** Writes what is left (padded to a block, then cut back to its length) and closes the file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            int length = buffer.position();
            if (length > 0) {
                int padded = (length + alignment - 1) / alignment * alignment;
                buffer.limit(padded);
                while (buffer.position() < padded) {
                    buffer.put((byte) 0);
                }
                buffer.flip();
                writeFully();
                channel.truncate(position - padded + length);
            }
        } finally {
            channel.close(); // the channel of the moment: writeFully may have moved off the direct one
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }

    private void writeBuffer() throws IOException {
        buffer.flip();
        writeFully();
        buffer.clear().limit(BUFFER);
    }

    /** Writes the buffer from its position to its limit at {@link #position}, and moves that on. */
    private void writeFully() throws IOException {
        while (buffer.hasRemaining()) {
            int n;
            try {
                n = channel.write(buffer, position);
            } catch (IOException e) {
                if (!direct) {
                    throw e;
                }
                // a file system that opened for direct I/O but refuses it: the same bytes, the
                // same place, through the page cache (a full disk fails again, and is thrown then)
                FileChannel plain = FileChannel.open(file, StandardOpenOption.WRITE);
                channel.close();
                channel = plain;
                direct = false;
                continue;
            }
            position += n;
        }
    }
}
