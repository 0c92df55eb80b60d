package org.rocprofsys.core.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class BackgroundOutputStreamTest {
    /** Records the bytes, the thread that wrote them, flushes and the close. */
    private static final class Recording extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final AtomicReference<Thread> writer = new AtomicReference<>();
        volatile int flushes;
        volatile boolean closed;

        @Override
        public synchronized void write(int b) {
            bytes.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            writer.set(Thread.currentThread());
            bytes.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
        }

        @Override
        public void close() {
            closed = true;
        }

        synchronized byte[] written() {
            return bytes.toByteArray();
        }
    }

    @Test
    void everyByteArrivesInOrderFromAnotherThread() throws IOException {
        SplittableRandom r = new SplittableRandom(5);
        byte[] data = new byte[BackgroundOutputStream.CHUNK * (BackgroundOutputStream.CHUNKS + 3) + 12345];
        r.nextBytes(data);
        Recording under = new Recording();
        BackgroundOutputStream out = new BackgroundOutputStream(under, "test-writer");
        int at = 0;
        while (at < data.length) { // writes of 1 byte to 3 chunks, across chunk boundaries
            int n = Math.min(data.length - at, r.nextInt(4) == 0 ? 1 : r.nextInt(3 * BackgroundOutputStream.CHUNK));
            out.write(data, at, n);
            at += n;
        }
        out.flush();
        assertArrayEquals(data, under.written(), "flush waits until every byte is written");
        assertEquals(1, under.flushes);
        out.write(7);
        out.close();
        assertEquals(data.length + 1, under.written().length);
        assertTrue(under.closed);
        assertNotEquals(Thread.currentThread(), under.writer.get());
        assertThrows(IOException.class, () -> out.write(1));
        out.close(); // a second close does nothing
    }

    @Test
    void theStreamsFailureIsThrownToTheWriterAsItWas() throws IOException {
        IOException full = new IOException("No space left on device");
        Recording closedCheck = new Recording();
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw full;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw full;
            }

            @Override
            public void close() {
                closedCheck.closed = true;
            }
        };
        BackgroundOutputStream out = new BackgroundOutputStream(failing, "test-writer");
        byte[] chunk = new byte[BackgroundOutputStream.CHUNK];
        IOException thrown = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 100; i++) { // more than the chunks in flight: a later write sees it
                out.write(chunk);
            }
        });
        assertSame(full, thrown.getCause());
        assertEquals(full.getMessage(), thrown.getMessage());
        IOException atClose = assertThrows(IOException.class, out::close);
        assertSame(full, atClose.getCause());
        assertNotSame(thrown, atClose, "a new exception each time, so that one never suppresses itself");
        assertTrue(closedCheck.closed, "the stream under it is closed all the same");
    }

    @Test
    void aFailureOfTheLastChunkIsThrownByClose() {
        IOException full = new IOException("No space left on device");
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw full;
            }
        };
        BackgroundOutputStream out = new BackgroundOutputStream(failing, "test-writer");
        IOException thrown = assertThrows(IOException.class, () -> {
            out.write(new byte[10]);
            out.close();
        });
        assertSame(full, thrown.getCause());
    }

    @Test
    @Timeout(30)
    void anUncheckedFailureOfTheStreamIsAnIOExceptionNotAHang() {
        IllegalStateException bug = new IllegalStateException("bug in the stream");
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) {
                throw bug;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                throw bug;
            }
        };
        BackgroundOutputStream out = new BackgroundOutputStream(failing, "test-writer");
        byte[] chunk = new byte[BackgroundOutputStream.CHUNK];
        IOException thrown = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 100; i++) { // more than the chunks there are: a dead thread would hang here
                out.write(chunk);
            }
        });
        assertSame(bug, thrown.getCause().getCause());
        assertThrows(IOException.class, out::close);
    }
}
