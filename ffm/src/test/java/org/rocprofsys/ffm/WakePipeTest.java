package org.rocprofsys.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WakePipeTest {
    @Test
    void wakeUpsMakeItReadableUntilDrainedAndAfterCloseDoNothing() {
        WakePipe pipe = new WakePipe();
        int[] fd = {pipe.readFd()};
        assertEquals(0, LibC.pollIn(fd, 0), "nothing asked yet");
        pipe.wake();
        pipe.wake();
        assertEquals(1, LibC.pollIn(fd, 0));
        pipe.drain();
        assertEquals(0, LibC.pollIn(fd, 0), "two wake-ups, one drain");
        Thread waker = Thread.ofPlatform().start(pipe::wake);
        assertEquals(1, LibC.pollIn(fd, 10_000), "a wake from another thread ends a sleep");
        try {
            waker.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        pipe.close();
        pipe.wake(); // a waker that comes after the close finds nobody, and says nothing
    }
}
