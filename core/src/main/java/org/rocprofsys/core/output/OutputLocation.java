package org.rocprofsys.core.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a run's outputs can be written where the settings put them, asked before the target
 * starts: a read-only or unwritable output path is said at once rather than after the whole run.
 * The folder need not exist yet; its deepest existing ancestor must be a folder this process may
 * write in.
 */
public final class OutputLocation {
    private OutputLocation() {}

    /** Why outputs cannot be written into {@code directory}, or empty when they can. */
    public static Optional<String> problem(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return Optional.of("cannot write the outputs to " + absolute + ": no part of the path exists");
        }
        if (!Files.isDirectory(existing)) {
            return Optional.of("cannot write the outputs to " + absolute + ": " + existing + " is not a directory");
        }
        if (isReadOnly(existing)) {
            return Optional.of(
                    "cannot write the outputs to " + absolute + ": " + existing + " is on a read-only file system");
        }
        if (!Files.isWritable(existing)) {
            return Optional.of("cannot write the outputs to " + absolute + ": permission denied in " + existing);
        }
        return Optional.empty();
    }

    private static boolean isReadOnly(Path existing) {
        try {
            return Files.getFileStore(existing).isReadOnly();
        } catch (IOException e) {
            return false; // the writability check that follows still applies
        }
    }
}
