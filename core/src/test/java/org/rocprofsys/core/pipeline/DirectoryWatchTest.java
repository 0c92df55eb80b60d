package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's sleep between idle polls: it must end at once for a new ring file, for an agent
 * touching its ring file (a producer waiting on a full ring, an exit), and for {@code wake()}, and
 * only a file coming or going may send the collector to list the directory again.
 */
class DirectoryWatchTest {
    private static final long LONG = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;

    private DirectoryWatch watch;

    @BeforeEach
    void open() {
        watch = DirectoryWatch.open(dir).orElseThrow(() -> new AssertionError("inotify is unavailable"));
        assertTrue(watch.takeFilesChanged(), "a new watch has the directory listed once");
        assertFalse(watch.takeFilesChanged());
    }

    @AfterEach
    void close() {
        watch.close();
    }

    @Test
    void timesOutWhenNothingHappens() {
        long t0 = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            assertFalse(watch.await(TimeUnit.MILLISECONDS.toNanos(20)));
        }
        assertTrue(System.nanoTime() - t0 < LONG / 2);
        assertFalse(watch.takeFilesChanged());
    }

    @Test
    void aNewRingFileEndsTheSleepAndAsksForAListing() throws Exception {
        Files.createFile(dir.resolve("41.0.ring"));
        assertSleepEndsAtOnce();
        assertTrue(watch.takeFilesChanged());
        assertFalse(watch.takeFilesChanged(), "one listing per change");
    }

    @Test
    void aTouchedRingFileEndsTheSleepWithoutAListing() throws Exception {
        Path ring = Files.createFile(dir.resolve("42.0.ring"));
        assertTrue(watch.takeFilesChanged());
        // what the agent's doorbell does: utimensat(path, NULL), an IN_ATTRIB on the directory
        Files.setLastModifiedTime(ring, FileTime.from(Instant.now()));
        assertSleepEndsAtOnce();
        assertFalse(watch.takeFilesChanged(), "no file came or went");
        // the notification was consumed: the next sleep lasts its timeout
        assertFalse(watch.await(TimeUnit.MILLISECONDS.toNanos(20)));
    }

    @Test
    void aRemovedRingFileAsksForAListing() throws Exception {
        Path ring = Files.createFile(dir.resolve("43.0.ring"));
        assertTrue(watch.takeFilesChanged());
        Files.delete(ring);
        assertTrue(watch.takeFilesChanged(), "read without waiting");
    }

    @Test
    void wakeFromAnotherThreadEndsTheSleep() throws Exception {
        Thread waker = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            watch.wake();
        });
        assertSleepEndsAtOnce();
        waker.join();
        assertFalse(watch.takeFilesChanged());
    }

    @Test
    void wakeUpsAskedForMeanwhileAreOne() throws Exception {
        Thread waker = Thread.ofPlatform().start(() -> {
            watch.wake();
            watch.wake();
        });
        waker.join();
        assertSleepEndsAtOnce();
        assertFalse(watch.await(TimeUnit.MILLISECONDS.toNanos(20)), "the pipe was emptied");
    }

    @Test
    void theSessionDirectoryWakesItsCollectorForANewRingFile() throws Exception {
        try (SessionDirectory session = SessionDirectory.create(dir)) {
            assertTrue(session.watched(), "inotify is there on every Linux this runs on");
            assertTrue(session.changedSinceListing());
            session.ringFiles();
            assertFalse(session.changedSinceListing());
            Files.createFile(session.path().resolve("44.0.ring"));
            long t0 = System.nanoTime();
            session.awaitChange(TimeUnit.NANOSECONDS.toMicros(LONG));
            assertTrue(System.nanoTime() - t0 < LONG / 2);
            assertTrue(session.changedSinceListing());
            assertTrue(session.ringFiles().contains(session.path().resolve("44.0.ring")));
        }
    }

    private void assertSleepEndsAtOnce() {
        long t0 = System.nanoTime();
        assertTrue(watch.await(LONG), "woken, not timed out");
        assertTrue(System.nanoTime() - t0 < LONG / 2);
    }
}
