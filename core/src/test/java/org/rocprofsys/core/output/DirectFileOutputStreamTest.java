package org.rocprofsys.core.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectFileOutputStreamTest {
    @TempDir
    Path dir;

    /** Writes {@code data} in pieces of random sizes (single bytes among them). */
    private static void writeInPieces(OutputStream out, byte[] data, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        int at = 0;
        while (at < data.length) {
            if (r.nextInt(10) == 0) {
                out.write(data[at++]);
                continue;
            }
            int n = Math.min(data.length - at, r.nextInt(3 * 4096));
            out.write(data, at, n);
            at += n;
        }
    }

    private static byte[] random(int length, long seed) {
        byte[] data = new byte[length];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    @Test
    void theFileHoldsExactlyTheBytesWrittenWhateverTheirLength() throws IOException {
        int[] lengths = {
            0,
            1,
            4095,
            4096,
            4097,
            DirectFileOutputStream.BUFFER - 1,
            DirectFileOutputStream.BUFFER,
            DirectFileOutputStream.BUFFER + 1,
            3 * DirectFileOutputStream.BUFFER + 12345
        };
        for (int length : lengths) {
            Path file = dir.resolve("t" + length);
            byte[] data = random(length, length);
            try (DirectFileOutputStream out = DirectFileOutputStream.open(file)) {
                writeInPieces(out, data, length);
            }
            assertArrayEquals(data, Files.readAllBytes(file), "length " + length);
        }
    }

    @Test
    void writesPastThePageCacheOnALocalDisk() throws IOException {
        String type = Files.getFileStore(dir).type();
        assumeTrue(DirectFileOutputStream.DIRECT_FILE_SYSTEMS.contains(type), "file system " + type);
        try (DirectFileOutputStream out = DirectFileOutputStream.open(dir.resolve("d"))) {
            assertTrue(out.direct(), "direct I/O on " + type);
        }
    }

    @Test
    void writesThroughThePageCacheElsewhere() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no /dev/shm");
        assumeTrue(Files.getFileStore(shm).type().equals("tmpfs"));
        Path file = Files.createTempFile(shm, "rocprofsys-direct-test", ".bin");
        try {
            byte[] data = random(DirectFileOutputStream.BUFFER + 99, 4);
            try (DirectFileOutputStream out = DirectFileOutputStream.open(file)) {
                assertFalse(out.direct(), "tmpfs is written through the page cache");
                out.write(data);
            }
            assertArrayEquals(data, Files.readAllBytes(file));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void anExistingFileIsReplacedNotOverwrittenInPlace() throws IOException {
        Path file = dir.resolve("old");
        Files.write(file, random(3 * 4096 + 7, 1));
        byte[] data = random(100, 2);
        try (DirectFileOutputStream out = DirectFileOutputStream.open(file)) {
            out.write(data);
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @Test
    void aDirectWriteThatIsRefusedGoesOnThroughThePageCacheAtTheSamePlace() throws IOException {
        Path file = dir.resolve("refused");
        byte[] data = random(2 * DirectFileOutputStream.BUFFER + 777, 3);
        FileChannel real = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        RefusingChannel refusing = new RefusingChannel(real, 1);
        try (DirectFileOutputStream out = new DirectFileOutputStream(file, refusing, true, 4096)) {
            writeInPieces(out, data, 3);
            assertFalse(out.direct());
        }
        assertEquals(1, refusing.refused);
        assertFalse(real.isOpen(), "the refusing channel is closed when the stream moves off it");
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    /** A refusal at the last write (the padded rest, at close): its page-cache channel is closed too. */
    @Test
    void aRefusalAtCloseLeavesNoChannelOpen() throws IOException {
        Path file = dir.resolve("refused-at-close");
        byte[] data = random(DirectFileOutputStream.BUFFER - 10, 6);
        FileChannel real = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        RefusingChannel refusing = new RefusingChannel(real, 1);
        DirectFileOutputStream out = new DirectFileOutputStream(file, refusing, true, 4096);
        out.write(data);
        out.close();
        assertEquals(1, refusing.refused);
        assertFalse(out.direct());
        assertFalse(out.channelOpen(), "the channel the stream moved to is closed");
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @Test
    void aWriteAfterCloseFailsAndCloseTwiceIsHarmless() throws IOException {
        DirectFileOutputStream out = DirectFileOutputStream.open(dir.resolve("c"));
        out.write(1);
        out.close();
        out.close();
        assertThrows(IOException.class, () -> out.write(2));
        assertThrows(IOException.class, () -> out.write(new byte[3], 0, 3));
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(dir.resolve("c")));
    }

    @Test
    void aMissingFolderIsAnError() {
        assertThrows(IOException.class, () -> DirectFileOutputStream.open(dir.resolve("no/such/file")));
    }

    /** A channel that refuses its first {@code refusals} positional writes, as a file system may refuse O_DIRECT. */
    private static final class RefusingChannel extends FileChannel {
        private final FileChannel real;
        private int refusals;
        int refused;

        RefusingChannel(FileChannel real, int refusals) {
            this.real = real;
            this.refusals = refusals;
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            if (refusals > 0) {
                refusals--;
                refused++;
                throw new IOException("Invalid argument");
            }
            return real.write(src, position);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return real.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return real.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return real.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return real.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            real.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            real.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return real.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return real.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return real.read(dst, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return real.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }
    }
}
