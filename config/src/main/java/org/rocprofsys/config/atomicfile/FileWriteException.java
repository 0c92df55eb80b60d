package org.rocprofsys.config.atomicfile;

import java.io.IOException;
import java.nio.file.Path;

/** A file could not be written; the message is {@code cannot write <file>: <reason>}. */
public final class FileWriteException extends IOException {
    private final transient Path file;
    private final String reason;

    public FileWriteException(Path file, String reason, Throwable cause) {
        super("cannot write " + file + ": " + reason, cause);
        this.file = file;
        this.reason = reason;
    }

    /** {@code e} where it names its file already, else {@code e} as the failure to write {@code file}. */
    public static FileWriteException naming(Path file, IOException e) {
        return e instanceof FileWriteException fwe ? fwe : new FileWriteException(file, AtomicFile.reason(e), e);
    }

    /** Why the file could not be written (e.g. {@code No space left on device}). */
    public String reason() {
        return reason;
    }

    /** The file that was to be written, as the caller named it. */
    public Path file() {
        return file;
    }
}
