package org.rocprofsys.unifiedmemory.kfd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.rocprofsys.ffm.LibC;

/**
 * Reads text lines from KFD SMI event descriptors (or anything that behaves like them: a
 * non-blocking descriptor whose reads return whole or partial lines, EAGAIN when empty), on a
 * thread of its own, and hands each complete line on. A line split across reads is joined.
 */
public final class KfdEventReader implements AutoCloseable {
    private static final int POLL_MS = 100;
    private static final int BUFFER = 64 * 1024;

    private final int[] fds;
    private final Consumer<String> lines;
    private final StringBuilder[] partial;
    private final Thread thread;
    private volatile boolean stopping;

    public KfdEventReader(int[] fds, Consumer<String> lines) {
        this.fds = fds.clone();
        this.lines = lines;
        this.partial = new StringBuilder[fds.length];
        for (int i = 0; i < fds.length; i++) {
            partial[i] = new StringBuilder();
        }
        this.thread =
                Thread.ofPlatform().daemon().name("rocprof-sys-kfd-events").unstarted(this::run);
    }

    public void start() {
        thread.start();
    }

    private void run() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(BUFFER);
            while (!stopping) {
                LibC.pollIn(fds, POLL_MS);
                drain(buffer);
            }
            drain(buffer);
        }
    }

    /** Reads every descriptor until it has nothing more right now. */
    private void drain(MemorySegment buffer) {
        for (int i = 0; i < fds.length; i++) {
            while (true) {
                LibC.Result r = LibC.read(fds[i], buffer);
                if (r.value() <= 0) {
                    break;
                }
                byte[] bytes = buffer.asSlice(0, r.value()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                split(i, new String(bytes, StandardCharsets.US_ASCII));
            }
        }
    }

    private void split(int fd, String text) {
        StringBuilder pending = partial[fd];
        int from = 0;
        for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
            pending.append(text, from, nl);
            if (!pending.isEmpty()) {
                lines.accept(pending.toString());
            }
            pending.setLength(0);
            from = nl + 1;
        }
        pending.append(text, from, text.length());
    }

    /** Stops after reading what is left, then closes the descriptors. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        thread.join();
        for (int fd : fds) {
            LibC.close(fd);
        }
    }
}
