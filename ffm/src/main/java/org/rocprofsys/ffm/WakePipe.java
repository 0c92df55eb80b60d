package org.rocprofsys.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A pipe whose read end sits in a thread's poll set so that other threads can end its sleep:
 * {@link #wake} writes a byte, {@link #drain} (the sleeping thread's) empties it again. Both ends
 * are non-blocking and closed on exec.
 */
public final class WakePipe implements AutoCloseable {
    private final int[] fds = LibC.pipeNonBlocking();
    private final Arena arena = Arena.ofShared();
    /** What {@link #wake} writes; its value does not matter. */
    private final MemorySegment one = arena.allocate(1);
    /** Where {@link #drain} reads to: the sleeping thread's alone. */
    private final MemorySegment sink = arena.allocate(64);

    /** The end to poll for POLLIN. */
    public int readFd() {
        return fds[0];
    }

    /** Ends the poller's current or next sleep (from any thread). */
    public void wake() {
        try {
            LibC.write(fds[1], one); // EAGAIN: a full pipe already holds a wake-up
        } catch (IllegalStateException closed) {
            // the poller has ended and closed the pipe: nobody to wake
        }
    }

    /** Reads every pending wake-up: however many were asked for, they ended one sleep. */
    public void drain() {
        while (LibC.read(fds[0], sink).value() > 0) {
            // emptied
        }
    }

    /** Once no {@link #wake} is under way (one that comes later does nothing). */
    @Override
    public void close() {
        // the memory first: a late wake() then fails before its write, which could otherwise reach
        // a descriptor number reused meanwhile
        arena.close();
        LibC.close(fds[0]);
        LibC.close(fds[1]);
    }
}
