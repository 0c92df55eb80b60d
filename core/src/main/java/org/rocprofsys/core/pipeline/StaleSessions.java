package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rocprofsys.config.atomicfile.RunLedger;

/**
 * Removes what collectors that died (kill -9) left: their session directories (ring files of up to
 * a GiB each in /dev/shm) and the files their ledgers list (a trace's temporary file, a runtime
 * plan). A directory is a dead collector's when its lock ({@link SessionDirectory#LOCK}) can be
 * taken: the kernel drops a collector's lock however it ends, so a live run's directory is never
 * touched, whatever pid it had. Called by every run before it makes its own directory.
 */
final class StaleSessions {
    /**
     * A directory younger than this may be a collector's that has not taken its lock yet (it
     * makes the file, then locks it); a dead collector's directory is removed by a later run.
     */
    static final long YOUNG_NS = TimeUnit.SECONDS.toNanos(2);

    /**
     * A session directory's name as {@link SessionDirectory#create} makes it: nothing else (an
     * output folder {@code rocprofsys-<tag>-output} in the temporary directory) is ever looked at.
     */
    private static final Pattern NAME = Pattern.compile(Pattern.quote(SessionDirectory.PREFIX) + "[0-9]+-[0-9a-f]{12}");

    private StaleSessions() {}

    /** Removes the dead collectors' directories under {@code parent} (errors: the directory is left). */
    static void sweep(Path parent) {
        String own = SessionDirectory.PREFIX + ProcessHandle.current().pid() + "-";
        List<Path> dirs;
        try (Stream<Path> s = Files.list(parent)) {
            dirs = s.filter(p -> {
                        String n = p.getFileName().toString();
                        return NAME.matcher(n).matches() && !n.startsWith(own);
                    })
                    .filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .toList();
        } catch (IOException e) {
            return;
        }
        for (Path dir : dirs) {
            try {
                removeIfDead(dir);
            } catch (IOException | RuntimeException e) {
                // another user's, or another run removes it now: left
            }
        }
    }

    private static void removeIfDead(Path dir) throws IOException {
        Path lock = dir.resolve(SessionDirectory.LOCK);
        if (!Files.exists(lock, LinkOption.NOFOLLOW_LINKS)) {
            // a directory of a build before the lock: its collector's pid is in its name
            if (young(dir) || collectorPid(dir).map(ProcessLiveness::isAlive).orElse(true)) {
                return;
            }
            remove(dir);
            return;
        }
        if (young(lock)) {
            return;
        }
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE)) {
            FileLock held;
            try {
                held = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                return; // this JVM's own run
            }
            if (held == null) {
                return; // its collector runs
            }
            remove(dir); // holding the lock: a second sweeper waits for nothing, it finds it gone
        }
    }

    private static boolean young(Path p) throws IOException {
        long age = System.currentTimeMillis()
                - Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis();
        return TimeUnit.MILLISECONDS.toNanos(age) < YOUNG_NS;
    }

    /** {@code rocprofsys-<pid>-<random>}: the pid of the collector that made it. */
    private static Optional<Integer> collectorPid(Path dir) {
        String rest = dir.getFileName().toString().substring(SessionDirectory.PREFIX.length());
        int dash = rest.indexOf('-');
        try {
            return Optional.of(Integer.parseInt(dash < 0 ? rest : rest.substring(0, dash)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void remove(Path dir) throws IOException {
        RunLedger.removeListed(dir.resolve(SessionDirectory.LEDGER));
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
