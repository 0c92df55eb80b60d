package org.rocprofsys.core.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.config.output.OutputPaths;

/**
 * An output file the run could not write, and why: said on standard error and listed under
 * {@code not_written} in metadata.json, so that a full disk never loses data without a word.
 *
 * @param file   the file, where the failure names one
 * @param reason why (e.g. {@code No space left on device}), or the whole message where no file is known
 */
public record UnwrittenFile(Optional<Path> file, String reason) {
    public static UnwrittenFile of(IOException e) {
        if (e instanceof FileWriteException fwe) {
            return new UnwrittenFile(Optional.of(fwe.file()), fwe.reason());
        }
        return new UnwrittenFile(Optional.empty(), AtomicFile.reason(e));
    }

    /**
     * Writes {@code text} to {@code file} atomically, its folders made first; a file that cannot be
     * written (a full disk) comes back as unwritten instead of thrown, so the other files still are.
     */
    public static Optional<UnwrittenFile> write(Path file, String text) {
        try {
            OutputPaths.createParentDirectories(file);
            AtomicFile.writeString(file, text);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(of(FileWriteException.naming(file, e)));
        }
    }

    /** {@code cannot write <file>: <reason>}, or the reason alone. */
    public String describe() {
        return file.map(f -> "cannot write " + f + ": " + reason).orElse(reason);
    }
}
