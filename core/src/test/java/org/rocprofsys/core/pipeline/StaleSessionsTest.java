package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a dead collector left is removed, and only that: a directory whose lock is free (with the
 * files its ledger lists, not others beside them), never one whose lock another process holds,
 * nor one made a moment ago (its collector may be about to lock it).
 */
class StaleSessionsTest {
    @TempDir
    Path parent;

    @TempDir
    Path outputs;

    /** A session directory of collector {@code pid}, its lock and ledger made {@code ageSeconds} ago. */
    private Path session(String name, long ageSeconds, Path... listed) throws Exception {
        Path dir = Files.createDirectory(parent.resolve(name));
        Path lock = Files.createFile(dir.resolve(SessionDirectory.LOCK));
        Files.createFile(dir.resolve("123.0.ring"));
        StringBuilder ledger = new StringBuilder();
        for (Path p : listed) {
            ledger.append(p).append('\n');
        }
        Files.writeString(dir.resolve(SessionDirectory.LEDGER), ledger);
        Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minusSeconds(ageSeconds)));
        Files.setLastModifiedTime(dir, FileTime.from(Instant.now().minusSeconds(ageSeconds)));
        return dir;
    }

    @Test
    void aDeadCollectorsDirectoryGoesWithTheFilesItsLedgerLists() throws Exception {
        Path trace = Files.createFile(outputs.resolve(".perfetto-trace.proto.0123abcd.tmp"));
        Path plan = Files.createFile(outputs.resolve("rocprofsys-plan-0123abcd.bin"));
        Path unlisted = Files.createFile(outputs.resolve(".other.proto.4567.tmp"));
        Path dead = session("rocprofsys-999999999-aaaaaaaaaaaa", 10, trace, plan);
        StaleSessions.sweep(parent);
        assertFalse(Files.exists(dead));
        assertFalse(Files.exists(trace));
        assertFalse(Files.exists(plan));
        assertTrue(Files.exists(unlisted), "only what the dead run listed is removed");
    }

    @Test
    void aDirectoryJustMadeIsLeftToItsCollector() throws Exception {
        Path young = session("rocprofsys-999999999-bbbbbbbbbbbb", 0);
        StaleSessions.sweep(parent);
        assertTrue(Files.exists(young));
    }

    @Test
    void aLiveCollectorsDirectoryIsLeftWhateverItsAge() throws Exception {
        Path trace = Files.createFile(outputs.resolve(".perfetto-trace.proto.89abcdef.tmp"));
        Path live = session("rocprofsys-999999999-cccccccccccc", 10, trace);
        // another process holds the lock (an fcntl lock, as the collector's FileChannel.lock)
        Process holder = new ProcessBuilder(
                        "python3",
                        "-c",
                        "import fcntl,sys\n"
                                + "f=open(sys.argv[1],'r+')\n"
                                + "fcntl.lockf(f,fcntl.LOCK_EX)\n"
                                + "print('locked',flush=True)\n"
                                + "sys.stdin.read()\n",
                        live.resolve(SessionDirectory.LOCK).toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader said =
                    new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            String line = said.readLine();
            assertTrue("locked".equals(line), "the holder said " + line);
            StaleSessions.sweep(parent);
            assertTrue(Files.exists(live.resolve("123.0.ring")));
            assertTrue(Files.exists(trace));
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
        StaleSessions.sweep(parent); // its collector gone
        assertFalse(Files.exists(live));
        assertFalse(Files.exists(trace));
    }

    @Test
    void onlySessionDirectoriesAreLookedAt() throws Exception {
        // an output folder in the temporary directory whose tag is a number, with no lock
        Path outputsFolder = Files.createDirectory(parent.resolve("rocprofsys-999999999-output"));
        Files.setLastModifiedTime(outputsFolder, FileTime.from(Instant.now().minusSeconds(10)));
        StaleSessions.sweep(parent);
        assertTrue(Files.exists(outputsFolder));
    }

    @Test
    void aDirectoryWithoutLockIsLeftWhileItsCollectorsPidRuns() throws Exception {
        Path old = Files.createDirectory(parent.resolve("rocprofsys-1-dddddddddddd")); // pid 1 runs
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minusSeconds(10)));
        StaleSessions.sweep(parent);
        assertTrue(Files.exists(old));
    }
}
