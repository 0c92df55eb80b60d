package org.rocprofsys.config.atomicfile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a run makes that must not outlive it (a trace's temporary file, a runtime plan),
 * listed as they are made in a file of the run's session directory. A run that dies without
 * removing them (kill -9 of the collector) leaves the list beside its dead lock; the next run,
 * which removes the dead run's directory, removes what it lists first. So a file is only ever
 * removed for its own dead run: a live run's files are never touched. Files made before the
 * session directory exists (the plan) are listed once it does.
 */
public final class RunLedger {
    private static final Object LOCK = new Object();
    /** The ledger of the session of the moment, or null. */
    private static Path ledger;

    private static final List<Path> unlisted = new ArrayList<>();

    private RunLedger() {}

    /** Lists from now on into {@code file}, starting with the files recorded before. */
    public static void open(Path file) throws IOException {
        synchronized (LOCK) {
            ledger = file;
            Files.createFile(file);
            for (Path p : unlisted) {
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) { // still to be removed by this run
                    append(p);
                }
            }
            unlisted.clear();
        }
    }

    /** Stops listing: the session's directory is going (with the ledger). */
    public static void close(Path file) {
        synchronized (LOCK) {
            if (file.equals(ledger)) {
                ledger = null;
            }
        }
    }

    /** Lists {@code file} as one the run removes itself; a file the list cannot take is only not listed. */
    public static void record(Path file) {
        synchronized (LOCK) {
            Path absolute = file.toAbsolutePath();
            if (ledger == null) {
                unlisted.add(absolute);
                return;
            }
            try {
                append(absolute);
            } catch (IOException e) {
                // the list is a safety net: a full /dev/shm must not fail the output it would cover
            }
        }
    }

    private static void append(Path file) throws IOException {
        String name = file.toString();
        if (name.indexOf('\n') < 0) {
            Files.writeString(ledger, name + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
    }

    /**
     * Removes the files a dead run's {@code file} lists (those still there: the run renamed or
     * removed the others), then nothing else. Only regular files named as the run names its
     * temporaries are removed.
     */
    public static void removeListed(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return;
        }
        for (String line : lines) {
            Path p = Path.of(line);
            String name = p.getFileName() == null ? "" : p.getFileName().toString();
            boolean ours = (name.startsWith(".") && name.endsWith(".tmp"))
                    || (name.startsWith("rocprofsys-") && name.endsWith(".bin"));
            if (p.isAbsolute() && ours && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // not ours to remove after all (another user's directory): left
                }
            }
        }
    }
}
