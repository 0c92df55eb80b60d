package org.rocprofsys.core.output;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * An output stream whose bytes reach the stream under it from a thread of its own: the caller
 * only copies into one of a few chunks of {@value #CHUNK} bytes, and a full chunk is written by
 * that thread while the caller goes on. The trace writer's thread spent a third to a half of its
 * time in write(2) on the 16-core GPU host (copying into the page cache), and that host has CPUs
 * to spare; on a machine without, it costs one more hand-off per chunk.
 *
 * <p>At most {@value #CHUNKS} chunks are in flight; a caller that gets ahead of the disk waits for
 * one to be written. A failure of the stream under it (a full disk) is thrown from the caller's
 * next {@link #write}, {@link #flush} or {@link #close}, as a new exception each time (a caller's
 * try-with-resources would otherwise suppress an exception with itself) with the same message and
 * the original as its cause; after a failure nothing more is written. {@link #close} writes what
 * is left, closes the stream under it and ends the thread. Not thread-safe: one thread writes.
 */
public final class BackgroundOutputStream extends OutputStream {
    static final int CHUNK = 1 << 20;
    static final int CHUNKS = 4;

    private record Chunk(byte[] bytes, int length) {}

    /** Handed to the thread to make it flush the stream under it and answer. */
    private static final Chunk FLUSH = new Chunk(new byte[0], 0);
    /** Handed to the thread to make it close the stream under it and end. */
    private static final Chunk CLOSE = new Chunk(new byte[0], 0);

    private final OutputStream out;
    private final BlockingQueue<Chunk> full = new ArrayBlockingQueue<>(CHUNKS + 2);
    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(CHUNKS);
    /** The thread's answers to FLUSH and CLOSE: its failure, or {@link #DONE} when none. */
    private final BlockingQueue<Object> answers = new ArrayBlockingQueue<>(2);

    private static final Object DONE = new Object();
    private final Thread thread;
    private volatile IOException failure;

    private byte[] chunk;
    private int length;
    private boolean closed;

    /** @param name the writer thread's name */
    public BackgroundOutputStream(OutputStream out, String name) {
        this.out = Objects.requireNonNull(out, "out");
        for (int i = 0; i < CHUNKS; i++) {
            free.add(new byte[CHUNK]);
        }
        this.thread = Thread.ofPlatform().name(name).daemon(true).start(this::run);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int count) throws IOException {
        Objects.checkFromIndexSize(offset, count, bytes.length);
        ensureOpen();
        while (count > 0) {
            if (chunk == null) {
                chunk = take(free);
                length = 0;
            }
            int n = Math.min(count, CHUNK - length);
            System.arraycopy(bytes, offset, chunk, length, n);
            length += n;
            offset += n;
            count -= n;
            if (length == CHUNK) {
                handOn();
            }
        }
    }

    /** Waits until every byte written so far is in the stream under it, and flushes that. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        handOn();
        put(FLUSH);
        answer();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (failure == null) {
            handOn();
        }
        put(CLOSE);
        answer();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the output was closing");
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        IOException f = failure;
        if (f != null) {
            throw rethrown(f);
        }
    }

    private static IOException rethrown(IOException f) {
        return new IOException(f.getMessage(), f);
    }

    private void handOn() throws IOException {
        if (chunk != null && length > 0) {
            put(new Chunk(chunk, length));
            chunk = null;
        }
    }

    private void answer() throws IOException {
        Object a = take(answers);
        if (a instanceof IOException e) {
            throw rethrown(e);
        }
    }

    private void run() {
        try {
            while (true) {
                Chunk c = full.take();
                if (c == CLOSE) {
                    IOException f = failure;
                    try {
                        out.close();
                    } catch (IOException e) {
                        f = f == null ? e : f;
                    } catch (RuntimeException | Error e) {
                        f = f == null ? new IOException(e.toString(), e) : f;
                    }
                    answers.put(f == null ? DONE : f);
                    return;
                }
                if (failure == null) {
                    try {
                        if (c == FLUSH) {
                            out.flush();
                        } else {
                            out.write(c.bytes(), 0, c.length());
                        }
                    } catch (IOException e) {
                        failure = e;
                    } catch (RuntimeException | Error e) {
                        // kept as a failure, not left to end this thread: the writer would wait
                        // for a free chunk for ever
                        failure = new IOException(e.toString(), e);
                    }
                }
                if (c == FLUSH) {
                    IOException f = failure;
                    answers.put(f == null ? DONE : f);
                } else {
                    free.put(c.bytes());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void put(Chunk c) throws IOException {
        try {
            full.put(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while handing output to its writer thread");
        }
    }

    private static <T> T take(BlockingQueue<T> queue) throws IOException {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the output's writer thread");
        }
    }
}
