package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.rocprofsys.config.atomicfile.TemporaryNames;

/**
 * The per-run directory the agents create their ring files in: on /dev/shm when it is usable
 * (tmpfs: the rings never touch a disk), otherwise under the temporary directory. Mode 0700;
 * removed with everything in it when the run ends.
 */
public final class SessionDirectory implements AutoCloseable {
    /** A change of the directory this recent may hide a file created in the same coarse clock tick. */
    static final long COARSE_CLOCK_MS = 50;

    private final Path path;
    /** Where inotify is available: what tells the collector of changes (else it polls). */
    private final Optional<DirectoryWatch> watch;
    /** The directory's modification time when it was last listed (read before the listing). */
    private FileTime listed;

    private SessionDirectory(Path path) {
        this.path = path;
        // before any agent can make a file here, so a caller that lists and then waits misses
        // none (a watch opened later could miss a file made meanwhile)
        this.watch = DirectoryWatch.open(path);
    }

    public static SessionDirectory create(Path fallbackTmp) throws IOException {
        Path shm = Path.of("/dev/shm");
        Path parent = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : fallbackTmp;
        Files.createDirectories(parent);
        return new SessionDirectory(TemporaryNames.createFolder(
                parent, "rocprofsys-" + ProcessHandle.current().pid() + "-"));
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

    @Override
    public void close() throws IOException {
        watch.ifPresent(DirectoryWatch::close);
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> s = Files.walk(path)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
