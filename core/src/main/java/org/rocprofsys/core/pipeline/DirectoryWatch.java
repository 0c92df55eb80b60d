package org.rocprofsys.core.pipeline;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Optional;
import org.rocprofsys.ffm.LibC;
import org.rocprofsys.ffm.WakePipe;

/**
 * What an idle collector sleeps on: inotify on the session directory, and a pipe other threads
 * write to. Agents create their ring files there, and touch them when a full ring makes a thread
 * wait or when their process exits (the agent's doorbell), so the collector wakes at once for
 * either instead of polling the directory every few milliseconds. On a small virtual machine each
 * wake-up of a thread costs 50-250 µs of CPU time, taken from the program being profiled.
 *
 * <p>{@link #await} and {@link #takeFilesChanged} belong to the collector thread; {@link #wake}
 * may come from any thread.
 */
final class DirectoryWatch implements AutoCloseable {
    private static final int FILES = LibC.IN_CREATE | LibC.IN_MOVED_TO | LibC.IN_DELETE;
    private static final int EVENT_HEADER = 16; // struct inotify_event: wd, mask, cookie, len, name[len]

    private final int inotify;
    private final WakePipe pipe;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollfds = arena.allocate(16, 8);
    private final MemorySegment timespec = arena.allocate(16, 8);
    private final MemorySegment buffer = arena.allocate(4096, 8);
    /** Whether ring files may have come or gone since {@link #takeFilesChanged} last said so. */
    private boolean filesChanged = true;

    private DirectoryWatch(int inotify, WakePipe pipe) {
        this.inotify = inotify;
        this.pipe = pipe;
        pollfds.set(JAVA_INT, 0, inotify);
        pollfds.set(JAVA_SHORT, 4, LibC.POLLIN);
        pollfds.set(JAVA_INT, 8, pipe.readFd());
        pollfds.set(JAVA_SHORT, 12, LibC.POLLIN);
    }

    /** A watch of {@code dir}; empty where inotify is unavailable (the collector then polls). */
    static Optional<DirectoryWatch> open(Path dir) {
        LibC.Result fd;
        try {
            fd = LibC.inotifyInit();
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty(); // a libc without inotify_init1 or ppoll
        }
        if (fd.value() < 0) {
            return Optional.empty(); // e.g. fs.inotify.max_user_instances reached
        }
        int inotify = (int) fd.value();
        try {
            if (LibC.inotifyAddWatch(inotify, dir.toString(), FILES | LibC.IN_ATTRIB)
                            .value()
                    < 0) {
                LibC.close(inotify);
                return Optional.empty();
            }
            DirectoryWatch watch = new DirectoryWatch(inotify, new WakePipe());
            watch.readNotifications(); // binds read(2) here, not in a first pass beside the target
            return Optional.of(watch);
        } catch (RuntimeException e) {
            LibC.close(inotify); // no pipe (no descriptors left): poll instead
            return Optional.empty();
        }
    }

    /**
     * Sleeps until a ring file comes, goes or is touched, {@link #wake} is called, or
     * {@code timeoutNs} passes.
     *
     * @return whether something woke it before the timeout
     */
    boolean await(long timeoutNs) {
        int ready = LibC.ppoll(pollfds, 2, timeoutNs, timespec);
        if (ready <= 0) {
            return false;
        }
        readNotifications();
        pipe.drain();
        return true;
    }

    /** Whether ring files may have come or gone since the last call that said so (never waits). */
    boolean takeFilesChanged() {
        readNotifications();
        boolean changed = filesChanged;
        filesChanged = false;
        return changed;
    }

    /** Ends the collector's current or next {@link #await} at once. */
    void wake() {
        pipe.wake();
    }

    private void readNotifications() {
        for (long n; (n = LibC.read(inotify, buffer).value()) > 0; ) {
            for (long at = 0; at + EVENT_HEADER <= n; ) {
                int mask = buffer.get(JAVA_INT, at + 4);
                if ((mask & (FILES | LibC.IN_Q_OVERFLOW)) != 0) {
                    filesChanged = true;
                }
                at += EVENT_HEADER + Integer.toUnsignedLong(buffer.get(JAVA_INT, at + 12));
            }
        }
    }

    @Override
    public void close() {
        LibC.close(inotify);
        pipe.close();
        arena.close();
    }
}
