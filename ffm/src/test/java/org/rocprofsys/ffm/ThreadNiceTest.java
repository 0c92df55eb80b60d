package org.rocprofsys.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ThreadNiceTest {
    /** Field 19 of /proc/self/task/TID/stat is the thread's nice value. */
    private static int niceOf(long tid) throws Exception {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[16]);
    }

    private static long ownTid() throws Exception {
        return Long.parseLong(
                Path.of("/proc/thread-self").toRealPath().getFileName().toString());
    }

    @Test
    void lowersOnlyTheCallingThread() throws Exception {
        long mainTid = ownTid();
        int before = niceOf(mainTid);
        AtomicBoolean lowered = new AtomicBoolean();
        AtomicInteger nice = new AtomicInteger(-100);
        Thread t = Thread.ofPlatform().start(() -> {
            lowered.set(ThreadNice.lowerCurrentThread());
            try {
                nice.set(niceOf(ownTid()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        t.join();
        assertTrue(lowered.get());
        assertEquals(ThreadNice.BACKGROUND, nice.get());
        assertEquals(before, niceOf(mainTid), "the other threads keep their priority");
    }

    @Test
    void lowersThreadsByKernelName() throws Exception {
        CountDownLatch named = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger tid = new AtomicInteger();
        Thread t = Thread.ofPlatform().name("rsys-nice-probe").start(() -> {
            try {
                tid.set((int) ownTid());
                named.countDown();
                done.await();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        named.await();
        try {
            assertEquals(1, ThreadNice.lowerThreads("rsys-nice-probe"::equals));
            assertEquals(ThreadNice.BACKGROUND, niceOf(tid.get()));
            assertEquals(0, ThreadNice.lowerThreads("no thread has this name"::equals));
        } finally {
            done.countDown();
            t.join();
        }
    }

    @Test
    void levelZeroLeavesThreadsAlone() throws Exception {
        ThreadNice.configure(0);
        try {
            assertEquals(0, ThreadNice.level());
            assertEquals(0, ThreadNice.lowerThreads(comm -> true));
        } finally {
            ThreadNice.configure(ThreadNice.BACKGROUND);
        }
        assertEquals(ThreadNice.BACKGROUND, ThreadNice.level());
    }
}
