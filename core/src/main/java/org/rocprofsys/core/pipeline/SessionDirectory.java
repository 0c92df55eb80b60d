package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.rocprofsys.config.atomicfile.RunLedger;
import org.rocprofsys.config.atomicfile.TemporaryNames;
import org.rocprofsys.core.wire.WireFormat;

/**
 * The per-run directory the agents create their ring files in: on /dev/shm when it is usable
 * (tmpfs: the rings never touch a disk), otherwise under the temporary directory. Mode 0700;
 * removed with everything in it when the run ends.
 *
 * <p>While the run lasts the collector holds a lock on {@value #LOCK} in it (an fcntl write lock,
 * which the kernel drops however the collector ends): a full ring's agent asks it and stops
 * recording once the collector is gone (agent_liveness.c), and the next run removes a directory
 * whose lock it can take ({@link StaleSessions}), with the files its {@value #LEDGER} lists.
 * "ended" is written into the lock file before the lock is let go at the run's end, so that an
 * agent can tell a run that ended from a collector that died.
 */
public final class SessionDirectory implements AutoCloseable {
    static final String PREFIX = "rocprofsys-";
    static final String LOCK = WireFormat.COLLECTOR_LOCK;
    /** The files of the run to remove if it dies ({@link RunLedger}). */
    static final String LEDGER = "run-files";
    /** A change of the directory this recent may hide a file created in the same coarse clock tick. */
    static final long COARSE_CLOCK_MS = 50;

    private final Path path;
    /** Where inotify is available: what tells the collector of changes (else it polls). */
    private final Optional<DirectoryWatch> watch;
    /** The directory's modification time when it was last listed (read before the listing). */
    private FileTime listed;

    /** The open lock file, locked while the run lasts. */
    private final FileChannel lock;

    private SessionDirectory(Path path, FileChannel lock) {
        this.path = path;
        this.lock = lock;
        // before any agent can make a file here, so a caller that lists and then waits misses
        // none (a watch opened later could miss a file made meanwhile)
        this.watch = DirectoryWatch.open(path);
    }

    /** Makes the run's directory and takes its lock, after removing what dead collectors left. */
    public static SessionDirectory create(Path fallbackTmp) throws IOException {
        Path shm = Path.of("/dev/shm");
        boolean onShm = Files.isDirectory(shm) && Files.isWritable(shm);
        Path parent = onShm ? shm : fallbackTmp;
        Files.createDirectories(parent);
        StaleSessions.sweep(parent);
        if (onShm && Files.isDirectory(fallbackTmp)) {
            StaleSessions.sweep(fallbackTmp); // a run of a machine without /dev/shm, or of a full one
        }
        Path dir = TemporaryNames.createFolder(
                parent, PREFIX + ProcessHandle.current().pid() + "-");
        FileChannel lock = null;
        try {
            lock = FileChannel.open(
                    dir.resolve(LOCK),
                    StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            lock.lock();
            RunLedger.open(dir.resolve(LEDGER));
            return new SessionDirectory(dir, lock);
        } catch (IOException | RuntimeException e) {
            if (lock != null) {
                lock.close();
            }
            removeTree(dir);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /**
     * Whether a ring file may have come or gone since the last {@link #ringFiles}: a stat instead
     * of a listing, so that an idle collector's polls cost little. The file system stamps times
     * from a coarse clock, so a file created in the same tick as that listing leaves the time as it
     * was: a directory changed within the last {@value #COARSE_CLOCK_MS} ms counts as changed.
     */
    public boolean changedSinceListing() throws IOException {
        if (watch.isPresent()) {
            return watch.get().takeFilesChanged();
        }
        FileTime now = Files.getLastModifiedTime(path);
        return !now.equals(listed) || System.currentTimeMillis() - now.toMillis() < COARSE_CLOCK_MS;
    }

    /**
     * Whether a ring file coming, going or being touched (an agent's doorbell) ends
     * {@link #awaitChange} at once; where not, only its timeout does, so the caller must poll.
     */
    public boolean watched() {
        return watch.isPresent();
    }

    /**
     * Sleeps for {@code micros} or, where {@link #watched}, until a ring file comes, goes or is
     * touched, or {@link #wake} is called. For one thread (the collector's).
     */
    public void awaitChange(long micros) throws InterruptedException {
        if (watch.isPresent()) {
            watch.get().await(TimeUnit.MICROSECONDS.toNanos(micros));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        } else {
            TimeUnit.MICROSECONDS.sleep(micros);
        }
    }

    /** Ends the current or next {@link #awaitChange} at once (from any thread). */
    public void wake() {
        watch.ifPresent(DirectoryWatch::wake);
    }

    /** The ring files present now, oldest exec generation of a pid first. */
    public List<Path> ringFiles() throws IOException {
        listed = Files.getLastModifiedTime(path);
        try (Stream<Path> s = Files.list(path)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".ring"))
                    .sorted(Comparator.comparing(
                                    (Path p) -> p.getFileName().toString().length())
                            .thenComparing(p -> p.getFileName().toString()))
                    .toList();
        }
    }

    /** Removes the directory with everything in it, then lets go of the lock ("ended" said first). */
    @Override
    public void close() throws IOException {
        watch.ifPresent(DirectoryWatch::close);
        RunLedger.close(path.resolve(LEDGER));
        try (lock) {
            try {
                lock.write(ByteBuffer.wrap("ended\n".getBytes(StandardCharsets.US_ASCII)), 0);
            } catch (IOException e) {
                // a full /dev/shm: the agents then find the lock file gone, which says the same
            }
            removeTree(path);
        }
    }

    private static void removeTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
