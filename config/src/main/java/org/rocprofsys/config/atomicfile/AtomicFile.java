package org.rocprofsys.config.atomicfile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a whole file or nothing. The content goes to a temporary sibling ({@code .<name>.<random>.tmp}
 * in the target's directory, so the rename stays on one file system) that is renamed over the target
 * once complete and removed when it could not be completed: a reader sees the old file, or the new
 * one whole, never a part. Failures of the helper's own steps are {@link FileWriteException}s naming
 * the target. The target's directory must exist (callers that want it made make it first).
 */
public final class AtomicFile {
    private AtomicFile() {}

    /** Fills the temporary file; what it returns is handed back by {@link #write(Path, Filler)}. */
    @FunctionalInterface
    public interface Filler<R> {
        R fill(Path temporary) throws IOException;
    }

    /** Writes {@code content} to {@code target}. */
    public static void write(Path target, byte[] content) throws IOException {
        write(target, tmp -> {
            try {
                Files.write(tmp, content);
            } catch (IOException e) {
                throw new FileWriteException(target, reason(e), e);
            }
            return null;
        });
    }

    /** Writes {@code text} in UTF-8 to {@code target}. */
    public static void writeString(Path target, String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Lets {@code filler} write the temporary file, then renames it to {@code target}. An exception
     * of the filler is passed on unchanged (the caller knows best what went wrong in it), after the
     * temporary file is removed.
     */
    public static <R> R write(Path target, Filler<R> filler) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Path tmp = createTemporary(target, absolute, dir);
        boolean done = false;
        try {
            R result = filler.fill(tmp);
            moveIntoPlace(target, tmp, absolute);
            done = true;
            return result;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /**
     * Starts a file that is written over time (a trace streamed during the run): the content goes
     * to {@link Pending#temporary()}, {@link Pending#commit()} renames it over {@code target}, and
     * {@link Pending#close()} removes it unless it was committed.
     */
    public static Pending begin(Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        return new Pending(target, absolute, createTemporary(target, absolute, absolute.getParent()));
    }

    /** A file of {@link #begin}: committed whole, or removed. */
    public static final class Pending implements AutoCloseable {
        private final Path target;
        private final Path absolute;
        private final Path temporary;
        private boolean committed;

        private Pending(Path target, Path absolute, Path temporary) {
            this.target = target;
            this.absolute = absolute;
            this.temporary = temporary;
        }

        public Path target() {
            return target;
        }

        public Path temporary() {
            return temporary;
        }

        /** Renames the complete temporary file over the target. */
        public void commit() throws IOException {
            if (committed) {
                return;
            }
            moveIntoPlace(target, temporary, absolute);
            committed = true;
        }

        /** Removes the temporary file unless it was committed. */
        @Override
        public void close() throws IOException {
            if (!committed) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    private static Path createTemporary(Path target, Path absolute, Path dir) throws FileWriteException {
        try {
            Path tmp = TemporaryNames.createFile(dir, "." + absolute.getFileName() + ".", ".tmp");
            RunLedger.record(tmp); // a run killed before it renames or removes it: the next run does
            return tmp;
        } catch (NoSuchFileException e) {
            throw new FileWriteException(target, "directory " + dir + " does not exist", e);
        } catch (AccessDeniedException e) {
            throw new FileWriteException(target, "permission denied in " + dir, e);
        } catch (IOException e) {
            throw new FileWriteException(target, reason(e), e);
        }
    }

    private static void moveIntoPlace(Path target, Path tmp, Path absolute) throws FileWriteException {
        try {
            try {
                Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new FileWriteException(target, reason(e), e);
        }
    }

    /** The reason of a file-system failure without the file names the JDK puts in its message. */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
